package io.github.lockfreelog.otlp;

import static io.github.lockfreelog.otlp.Protobuf.*;

import io.github.lockfreelog.records.FrameBuffer;
import io.github.lockfreelog.sink.RecordBatch;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;

/**
 * Builds an {@code ExportLogsServiceRequest} from a {@link RecordBatch} by copying frames: one
 * {@code ResourceLogs} (the appender's resource, made once), one {@code ScopeLogs} per run of consecutive records
 * of one logger (so the request keeps the journal's order exactly), and each frame's {@code LogRecord} bytes copied
 * as they are, followed by its {@code log.record.uid} attribute (protobuf merges a repeated field written in two
 * places). Two passes over the batch: the sizes (protobuf writes each length before its message), then the bytes.
 * The drainer's thread alone; the output buffer is reused from request to request.
 */
final class ExportRequest {

    static final String RECORD_UID = "log.record.uid";
    private static final byte[] UID_KEY = RECORD_UID.getBytes(StandardCharsets.US_ASCII);

    /** {@code ResourceLogs.resource}, tag and length included. */
    private final byte[] resourceField;
    private final FrameBuffer out = new FrameBuffer(64 * 1024);
    private int[] recordSizes = new int[1024];
    private int[] recordStarts = new int[1024];
    private byte[] copy = new byte[4096];

    /** Requests of the resource {@code attributes} ({@code service.name} among them), in their order. */
    ExportRequest(Map<String, String> attributes) {
        FrameBuffer resource = new FrameBuffer(256);
        for (Map.Entry<String, String> attribute : attributes.entrySet()) {
            String key = attribute.getKey();
            String value = attribute.getValue();
            putStringAttribute(resource, RESOURCE_ATTRIBUTES, key, utf8Length(key), value, utf8Length(value));
        }
        FrameBuffer field = new FrameBuffer(resource.length() + 8);
        putBytes(field, RESOURCE_LOGS_RESOURCE, resource.bytes(), resource.length());
        resourceField = Arrays.copyOf(field.bytes(), field.length());
    }

    /**
     * The uid of the event whose frame is at {@code offset} of term {@code termCount} of journal {@code journalId}:
     * {@code <journal id, 16 hex digits>-<term>-<offset>}, the same at every delivery of that event.
     */
    static String uid(long journalId, long termCount, int offset) {
        return String.format("%016x-%d-%d", journalId, termCount, offset);
    }

    /** The request of every event of {@code batch}, in {@code bytes()[0..length())} until the next build. */
    FrameBuffer build(RecordBatch batch) {
        int count = batch.count();
        if (recordSizes.length < count) {
            recordSizes = new int[Math.max(count, 2 * recordSizes.length)];
            recordStarts = new int[recordSizes.length];
        }
        String uidPrefix = String.format("%016x-%d-", batch.journalId(), batch.termCount());
        // pass 1: each record's size, each run's, the whole
        long resourceLogs = resourceField.length;
        ByteBuffer runScope = null;
        long scopeLogs = 0;
        for (int i = 0; i < count; i++) {
            ByteBuffer event = batch.event(i);
            ByteBuffer scope = scopeOf(event);
            recordStarts[i] = scope.limit() + scopeStart(event);
            int uidLength = uidPrefix.length() + digits(batch.offset(i));
            int uidAttribute = lenFieldSize(lenFieldSize(UID_KEY.length) + lenFieldSize(stringValueSize(uidLength)));
            recordSizes[i] = event.limit() - recordStarts[i] + uidAttribute;
            if (runScope == null || !runScope.equals(scope)) {
                if (runScope != null) {
                    resourceLogs += lenFieldSize(checked(scopeLogs));
                }
                runScope = scope;
                scopeLogs = lenFieldSize(lenFieldSize(scope.remaining()));
            }
            scopeLogs += lenFieldSize(recordSizes[i]);
        }
        if (runScope != null) {
            resourceLogs += lenFieldSize(checked(scopeLogs));
        }
        // pass 2: the bytes
        out.clear();
        putTag(out, REQUEST_RESOURCE_LOGS, LEN);
        putVarint(out, checked(resourceLogs));
        out.put(resourceField);
        runScope = null;
        for (int i = 0; i < count; i++) {
            ByteBuffer event = batch.event(i);
            ByteBuffer scope = scopeOf(event);
            if (runScope == null || !runScope.equals(scope)) {
                runScope = scope;
                long size = lenFieldSize(lenFieldSize(scope.remaining()));
                for (int j = i; j < count; j++) {
                    if (j > i && !scopeOf(batch.event(j)).equals(scope)) {
                        break;
                    }
                    size += lenFieldSize(recordSizes[j]);
                }
                putTag(out, RESOURCE_LOGS_SCOPE_LOGS, LEN);
                putVarint(out, size);
                putTag(out, SCOPE_LOGS_SCOPE, LEN);
                putVarint(out, lenFieldSize(scope.remaining()));
                putTag(out, SCOPE_NAME, LEN);
                putVarint(out, scope.remaining());
                copy(scope.duplicate()); // runScope is this buffer: its position must stay
            }
            putTag(out, SCOPE_LOGS_LOG_RECORDS, LEN);
            putVarint(out, recordSizes[i]);
            copy(event.position(recordStarts[i]));
            String uid = uidPrefix + batch.offset(i);
            putStringAttribute(out, ATTRIBUTES, UID_KEY, uid, uid.length());
        }
        return out;
    }

    /** Where the scope name's bytes start in a frame: after the version and the name's varint length. */
    private static int scopeStart(ByteBuffer frame) {
        int at = 1;
        while ((frame.get(at) & 0x80) != 0) {
            at++;
        }
        return at + 1;
    }

    /** The scope name's bytes of a frame (position 0 of its own view); checks the frame's version. */
    private static ByteBuffer scopeOf(ByteBuffer frame) {
        if (frame.remaining() < 2 || frame.get(0) != LogRecordEnvelope.VERSION) {
            throw new IllegalArgumentException("a journal frame that is not a log record of this version");
        }
        int length = 0;
        int shift = 0;
        int at = 1;
        byte b;
        do {
            b = frame.get(at++);
            length |= (b & 0x7F) << shift;
            shift += 7;
        } while ((b & 0x80) != 0 && shift < 35);
        return frame.slice(at, length);
    }

    private void copy(ByteBuffer from) {
        int n = from.remaining();
        if (copy.length < n) {
            copy = new byte[Math.max(n, 2 * copy.length)];
        }
        from.get(copy, 0, n);
        out.put(copy, 0, n);
    }

    private static int digits(int value) {
        return Integer.toString(value).length();
    }

    private static int checked(long size) {
        if (size > Integer.MAX_VALUE - 16) {
            throw new IllegalArgumentException("a request of more than 2 GiB (" + size + " bytes)");
        }
        return (int) size;
    }
}
