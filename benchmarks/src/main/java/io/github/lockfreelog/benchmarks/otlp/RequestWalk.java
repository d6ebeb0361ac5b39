package io.github.lockfreelog.benchmarks.otlp;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * One OTLP/HTTP export request's walk over the protobuf wire format, for {@link OtlpReceiver}: counting its log
 * records (and keeping their bodies and uids when asked), without protobuf-java.
 */
final class RequestWalk {
    private final boolean keep;
    long records;
    long bodyBytes;
    final List<OtlpReceiver.Received> kept = new ArrayList<>();

    RequestWalk(boolean keep) {
        this.keep = keep;
    }

    void request(ByteBuffer in) {
        eachLen(in, 1, this::resourceLogs); // ExportLogsServiceRequest.resource_logs
    }

    private void resourceLogs(ByteBuffer in) {
        eachLen(in, 2, this::scopeLogs); // ResourceLogs.scope_logs
    }

    private void scopeLogs(ByteBuffer in) {
        eachLen(in, 2, this::logRecord); // ScopeLogs.log_records
    }

    private void logRecord(ByteBuffer in) {
        records++;
        String body = null;
        String uid = null;
        while (in.hasRemaining()) {
            int tag = (int) varint(in);
            int field = tag >>> 3;
            if ((tag & 7) == 2) {
                ByteBuffer value = len(in);
                if (field == 5) { // body: AnyValue
                    ByteBuffer text = stringOf(value);
                    bodyBytes += text == null ? 0 : text.remaining();
                    body = keep && text != null ? StandardCharsets.UTF_8.decode(text).toString() : null;
                } else if (field == 6 && keep) { // attributes: KeyValue
                    String[] pair = keyValue(value);
                    if (pair != null && pair[0].equals(OtlpReceiver.UID)) {
                        uid = pair[1];
                    }
                }
            } else {
                skip(in, tag & 7);
            }
        }
        if (keep) {
            kept.add(new OtlpReceiver.Received(body, uid));
        }
    }

    /** The string of an AnyValue (field 1), or null. */
    private static ByteBuffer stringOf(ByteBuffer anyValue) {
        while (anyValue.hasRemaining()) {
            int tag = (int) varint(anyValue);
            if ((tag & 7) == 2) {
                ByteBuffer value = len(anyValue);
                if (tag >>> 3 == 1) {
                    return value;
                }
            } else {
                skip(anyValue, tag & 7);
            }
        }
        return null;
    }

    private static String[] keyValue(ByteBuffer in) {
        String key = null;
        String value = null;
        while (in.hasRemaining()) {
            int tag = (int) varint(in);
            if ((tag & 7) == 2) {
                ByteBuffer bytes = len(in);
                if (tag >>> 3 == 1) {
                    key = StandardCharsets.UTF_8.decode(bytes).toString();
                } else if (tag >>> 3 == 2) {
                    ByteBuffer text = stringOf(bytes);
                    value = text == null ? null : StandardCharsets.UTF_8.decode(text).toString();
                }
            } else {
                skip(in, tag & 7);
            }
        }
        return key == null ? null : new String[] {key, value};
    }

    private static void eachLen(ByteBuffer in, int field, java.util.function.Consumer<ByteBuffer> each) {
        while (in.hasRemaining()) {
            int tag = (int) varint(in);
            if ((tag & 7) == 2) {
                ByteBuffer value = len(in);
                if (tag >>> 3 == field) {
                    each.accept(value);
                }
            } else {
                skip(in, tag & 7);
            }
        }
    }

    private static ByteBuffer len(ByteBuffer in) {
        int length = (int) varint(in);
        ByteBuffer value = in.slice(in.position(), length);
        in.position(in.position() + length);
        return value;
    }

    private static void skip(ByteBuffer in, int wireType) {
        switch (wireType) {
            case 0 -> varint(in);
            case 1 -> in.position(in.position() + 8);
            case 5 -> in.position(in.position() + 4);
            default -> throw new IllegalArgumentException("wire type " + wireType);
        }
    }

    private static long varint(ByteBuffer in) {
        long value = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            byte b = in.get();
            value |= (long) (b & 0x7f) << shift;
            if (b >= 0) {
                return value;
            }
        }
        throw new IllegalArgumentException("a varint longer than 10 bytes");
    }
}
