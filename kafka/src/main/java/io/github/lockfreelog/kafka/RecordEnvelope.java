package io.github.lockfreelog.kafka;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;

/**
 * What one journal frame of a {@link LockFreeKafkaAppender} holds: a record's key and headers before the
 * encoded event, its value. Written on the caller's thread, read by the drainer's {@link KafkaRecordSink}.
 * Big-endian:
 * <pre>
 *   version (1 byte, 1) | key length (int, -1: no key) | key | header count (1 byte)
 *   | per header: name length (1 byte) | name (UTF-8) | value length (int) | value
 *   | value: the encoded event, to the end of the frame
 * </pre>
 */
final class RecordEnvelope {

    static final byte VERSION = 1;
    /** Most headers a frame may carry. */
    static final int MAX_HEADERS = 127;

    private RecordEnvelope() {
    }

    /**
     * The frame for a record of {@code key} ({@code null}: none), header names and values (parallel lists), and the
     * value {@code value[0..length)}.
     */
    static byte[] wrap(byte[] key, List<String> headerNames, List<byte[]> headerValues, byte[] value, int length) {
        int size = 1 + 4 + (key == null ? 0 : key.length) + 1 + length;
        byte[][] names = new byte[headerNames.size()][];
        for (int i = 0; i < names.length; i++) {
            names[i] = headerNames.get(i).getBytes(StandardCharsets.UTF_8);
            size += 1 + names[i].length + 4 + headerValues.get(i).length;
        }
        ByteBuffer frame = ByteBuffer.allocate(size);
        frame.put(VERSION);
        frame.putInt(key == null ? -1 : key.length);
        if (key != null) {
            frame.put(key);
        }
        frame.put((byte) names.length);
        for (int i = 0; i < names.length; i++) {
            frame.put((byte) names[i].length).put(names[i]);
            byte[] headerValue = headerValues.get(i);
            frame.putInt(headerValue.length).put(headerValue);
        }
        frame.put(value, 0, length);
        return frame.array();
    }

    /** A record read back from a frame. */
    record Unwrapped(byte[] key, List<Header> headers, byte[] value) {
    }

    /** Reads the frame {@code frame} (position to limit); a frame not of this format fails with an {@link IllegalArgumentException}. */
    static Unwrapped unwrap(ByteBuffer frame) {
        try {
            byte version = frame.get();
            if (version != VERSION) {
                throw new IllegalArgumentException("frame of an unknown envelope version " + version);
            }
            int keyLength = frame.getInt();
            byte[] key = null;
            if (keyLength >= 0) {
                key = new byte[keyLength];
                frame.get(key);
            }
            int count = frame.get();
            List<Header> headers = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                byte[] name = new byte[frame.get() & 0xFF];
                frame.get(name);
                byte[] headerValue = new byte[frame.getInt()];
                frame.get(headerValue);
                headers.add(new RecordHeader(new String(name, StandardCharsets.UTF_8), headerValue));
            }
            byte[] value = new byte[frame.remaining()];
            frame.get(value);
            return new Unwrapped(key, headers, value);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("not a record envelope: " + e, e);
        }
    }
}
