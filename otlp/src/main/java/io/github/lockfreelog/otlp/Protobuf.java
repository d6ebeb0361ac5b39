package io.github.lockfreelog.otlp;

import io.github.lockfreelog.records.FrameBuffer;

/**
 * The protobuf wire format, as much of it as OTLP's logs need, written by hand into a {@link FrameBuffer}: tags,
 * varints, little-endian fixed64, length-delimited strings and the nested {@code KeyValue}/{@code AnyValue}
 * messages of an attribute. Every length is computed before it is written (a string's UTF-8 length by a pass over
 * its characters), so nothing is written twice and nothing is allocated. The field numbers are OTLP's
 * ({@code opentelemetry/proto/logs/v1/logs.proto}, {@code common/v1/common.proto}).
 */
final class Protobuf {

    static final int VARINT = 0;
    static final int FIXED64 = 1;
    static final int LEN = 2;
    static final int FIXED32 = 5;

    // ExportLogsServiceRequest, ResourceLogs, ScopeLogs, InstrumentationScope, Resource
    static final int REQUEST_RESOURCE_LOGS = 1;
    static final int RESOURCE_LOGS_RESOURCE = 1;
    static final int RESOURCE_LOGS_SCOPE_LOGS = 2;
    static final int SCOPE_LOGS_SCOPE = 1;
    static final int SCOPE_LOGS_LOG_RECORDS = 2;
    static final int SCOPE_NAME = 1;
    static final int RESOURCE_ATTRIBUTES = 1;
    // LogRecord
    static final int TIME_UNIX_NANO = 1;
    static final int SEVERITY_NUMBER = 2;
    static final int SEVERITY_TEXT = 3;
    static final int BODY = 5;
    static final int ATTRIBUTES = 6;
    static final int FLAGS = 8;
    static final int TRACE_ID = 9;
    static final int SPAN_ID = 10;
    static final int OBSERVED_TIME_UNIX_NANO = 11;
    // KeyValue, AnyValue
    static final int KEY = 1;
    static final int VALUE = 2;
    static final int STRING_VALUE = 1;
    static final int BOOL_VALUE = 2;
    static final int INT_VALUE = 3;
    static final int DOUBLE_VALUE = 4;
    // ExportLogsServiceResponse, ExportLogsPartialSuccess
    static final int RESPONSE_PARTIAL_SUCCESS = 1;
    static final int PARTIAL_REJECTED = 1;
    static final int PARTIAL_MESSAGE = 2;

    private Protobuf() {
    }

    static int tag(int field, int wireType) {
        return field << 3 | wireType;
    }

    /** Bytes of {@code value} as a varint (a negative int64 takes ten). */
    static int varintSize(long value) {
        int size = 1;
        while ((value & ~0x7FL) != 0) {
            value >>>= 7;
            size++;
        }
        return size;
    }

    /** Bytes of a length-delimited field of {@code length} bytes, its one-byte tag included (fields below 16). */
    static int lenFieldSize(int length) {
        return 1 + varintSize(length) + length;
    }

    /** Bytes of {@code text} as UTF-8, as {@link FrameBuffer#putUtf8} writes it (a lone surrogate: one byte). */
    static int utf8Length(CharSequence text) {
        int n = text.length();
        int bytes = 0;
        for (int i = 0; i < n; i++) {
            char c = text.charAt(i);
            if (c < 0x80) {
                bytes++;
            } else if (c < 0x800) {
                bytes += 2;
            } else if (!Character.isSurrogate(c)) {
                bytes += 3;
            } else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(text.charAt(i + 1))) {
                bytes += 4;
                i++;
            } else {
                bytes++;
            }
        }
        return bytes;
    }

    static void putVarint(FrameBuffer out, long value) {
        while ((value & ~0x7FL) != 0) {
            out.put((byte) ((value & 0x7F) | 0x80));
            value >>>= 7;
        }
        out.put((byte) value);
    }

    static void putTag(FrameBuffer out, int field, int wireType) {
        putVarint(out, tag(field, wireType));
    }

    static void putFixed64(FrameBuffer out, int field, long value) {
        putTag(out, field, FIXED64);
        for (int i = 0; i < 8; i++) {
            out.put((byte) (value >>> (8 * i)));
        }
    }

    /** A string field of {@code utf8Length} bytes (computed by the caller), written from its characters. */
    static void putString(FrameBuffer out, int field, CharSequence text, int utf8Length) {
        putTag(out, field, LEN);
        putVarint(out, utf8Length);
        out.putUtf8(text);
    }

    /** A bytes or string field whose content is {@code bytes[0..length)}. */
    static void putBytes(FrameBuffer out, int field, byte[] bytes, int length) {
        putTag(out, field, LEN);
        putVarint(out, length);
        out.put(bytes, 0, length);
    }

    /** Bytes of an {@code AnyValue} holding a string of {@code utf8Length} bytes. */
    static int stringValueSize(int utf8Length) {
        return lenFieldSize(utf8Length);
    }

    /**
     * An attribute ({@code KeyValue}, as field {@code field} of its message) whose key is {@code key[]} and whose
     * value is the string {@code value} of {@code valueLength} UTF-8 bytes.
     */
    static void putStringAttribute(FrameBuffer out, int field, byte[] key, CharSequence value, int valueLength) {
        int any = stringValueSize(valueLength);
        putTag(out, field, LEN);
        putVarint(out, lenFieldSize(key.length) + lenFieldSize(any));
        putBytes(out, KEY, key, key.length);
        putTag(out, VALUE, LEN);
        putVarint(out, any);
        putString(out, STRING_VALUE, value, valueLength);
    }

    /** The same with a key given as characters, of {@code keyLength} UTF-8 bytes. */
    static void putStringAttribute(FrameBuffer out, int field, CharSequence key, int keyLength, CharSequence value,
            int valueLength) {
        int any = stringValueSize(valueLength);
        putTag(out, field, LEN);
        putVarint(out, lenFieldSize(keyLength) + lenFieldSize(any));
        putString(out, KEY, key, keyLength);
        putTag(out, VALUE, LEN);
        putVarint(out, any);
        putString(out, STRING_VALUE, value, valueLength);
    }

    /**
     * An attribute whose value is a scalar of another type: {@code valueField} is {@code INT_VALUE} or
     * {@code BOOL_VALUE} (a varint, {@code bits}) or {@code DOUBLE_VALUE} ({@code bits} as fixed64).
     */
    static void putScalarAttribute(FrameBuffer out, int field, CharSequence key, int keyLength, int valueField,
            long bits) {
        int any = valueField == DOUBLE_VALUE ? 9 : 1 + varintSize(bits);
        putTag(out, field, LEN);
        putVarint(out, lenFieldSize(keyLength) + lenFieldSize(any));
        putString(out, KEY, key, keyLength);
        putTag(out, VALUE, LEN);
        putVarint(out, any);
        if (valueField == DOUBLE_VALUE) {
            putFixed64(out, DOUBLE_VALUE, bits);
        } else {
            putTag(out, valueField, VARINT);
            putVarint(out, bits);
        }
    }
}
