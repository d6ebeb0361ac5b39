package io.github.lockfreelog.kafka;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import io.github.lockfreelog.logback.EventEnvelope;
import io.github.lockfreelog.records.FrameBuffer;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;

/**
 * What one journal frame of a {@link LockFreeKafkaAppender} holds: a record's key and headers before the
 * encoded event, its value. Written on the caller's thread ({@link Writer}), read by the drainer's
 * {@link KafkaRecordSink} ({@link #unwrap}). Big-endian:
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
     * The envelope of a {@link LockFreeKafkaAppender}: writes each event's frame into the caller's frame buffer, the
     * key and header values straight from the event's strings, the rest from bytes made here once; allocates
     * nothing per event.
     */
    static final class Writer implements EventEnvelope {

        private static final byte[] LEVEL_NAME = ascii(LockFreeKafkaAppender.LEVEL_HEADER);
        private static final byte[] LOGGER_NAME = ascii(LockFreeKafkaAppender.LOGGER_HEADER);
        private static final byte[] NULL = ascii("null");
        private static final byte[] ERROR = ascii(Level.ERROR.levelStr);
        private static final byte[] WARN = ascii(Level.WARN.levelStr);
        private static final byte[] INFO = ascii(Level.INFO.levelStr);
        private static final byte[] DEBUG = ascii(Level.DEBUG.levelStr);
        private static final byte[] TRACE = ascii(Level.TRACE.levelStr);

        private final KeyAndHeaders.KeyKind keyKind;
        /** The constant key's bytes; {@code null} for another kind of key. */
        private final byte[] constantKey;
        /** The name of the MDC value that is the key; {@code null} for another kind of key. */
        private final String mdcKey;
        private final boolean levelHeader;
        private final boolean loggerHeader;
        private final byte headerCount;

        Writer(KeyAndHeaders.KeyKind keyKind, String keyArgument, boolean levelHeader, boolean loggerHeader) {
            this.keyKind = keyKind;
            this.constantKey = keyKind == KeyAndHeaders.KeyKind.CONSTANT
                    ? keyArgument.getBytes(StandardCharsets.UTF_8) : null;
            this.mdcKey = keyKind == KeyAndHeaders.KeyKind.MDC ? keyArgument : null;
            this.levelHeader = levelHeader;
            this.loggerHeader = loggerHeader;
            this.headerCount = (byte) ((levelHeader ? 1 : 0) + (loggerHeader ? 1 : 0));
        }

        @Override
        public void wrap(ILoggingEvent event, byte[] encoded, int length, FrameBuffer frame) {
            frame.put(VERSION);
            switch (keyKind) {
                case CONSTANT:
                    frame.putInt(constantKey.length).put(constantKey);
                    break;
                case MDC:
                    Map<String, String> mdc = event.getMDCPropertyMap();
                    putString(frame, mdc == null ? null : mdc.get(mdcKey));
                    break;
                case THREAD:
                    putString(frame, event.getThreadName());
                    break;
                default:
                    frame.putInt(-1);
            }
            frame.put(headerCount);
            if (levelHeader) {
                frame.put((byte) LEVEL_NAME.length).put(LEVEL_NAME);
                byte[] level = levelName(event.getLevel());
                if (level != null) {
                    frame.putInt(level.length).put(level);
                } else {
                    putString(frame, String.valueOf(event.getLevel()));
                }
            }
            if (loggerHeader) {
                frame.put((byte) LOGGER_NAME.length).put(LOGGER_NAME);
                String logger = event.getLoggerName();
                if (logger != null) {
                    putString(frame, logger);
                } else {
                    frame.putInt(NULL.length).put(NULL); // as String.valueOf(null) wrote it
                }
            }
            frame.put(encoded, 0, length);
        }

        /** The bytes of a standard level's name, or {@code null} for another. */
        private static byte[] levelName(Level level) {
            if (level == null) {
                return null;
            }
            switch (level.levelInt) {
                case Level.ERROR_INT:
                    return ERROR;
                case Level.WARN_INT:
                    return WARN;
                case Level.INFO_INT:
                    return INFO;
                case Level.DEBUG_INT:
                    return DEBUG;
                case Level.TRACE_INT:
                    return TRACE;
                default:
                    return null;
            }
        }

        /** An int length then the UTF-8 of {@code value}; length {@code -1} and nothing else for {@code null}. */
        private static void putString(FrameBuffer frame, String value) {
            if (value == null) {
                frame.putInt(-1);
                return;
            }
            int at = frame.length();
            frame.putInt(0);
            frame.putIntAt(at, frame.putUtf8(value));
        }

        private static byte[] ascii(String text) {
            return text.getBytes(StandardCharsets.US_ASCII);
        }
    }

    /** A record read back from a frame. */
    record Unwrapped(byte[] key, List<Header> headers, byte[] value) {
    }

    /**
     * Reads the frame {@code frame} (position to limit); a frame not of this format fails with an
     * {@link IllegalArgumentException}. Every length read from the frame is checked against what the frame holds
     * before an array is made of it: a damaged journal (or one written by someone else) must not make the drainer
     * allocate gigabytes.
     */
    static Unwrapped unwrap(ByteBuffer frame) {
        try {
            byte version = frame.get();
            if (version != VERSION) {
                throw new IllegalArgumentException("frame of an unknown envelope version " + version);
            }
            int keyLength = frame.getInt();
            byte[] key = null;
            if (keyLength >= 0) {
                key = new byte[checked("key", keyLength, frame)];
                frame.get(key);
            } else if (keyLength != -1) {
                throw new IllegalArgumentException("key length " + keyLength);
            }
            int count = frame.get() & 0xFF;
            List<Header> headers = new ArrayList<>(Math.min(count, frame.remaining()));
            for (int i = 0; i < count; i++) {
                byte[] name = new byte[checked("header name", frame.get() & 0xFF, frame)];
                frame.get(name);
                byte[] headerValue = new byte[checked("header value", frame.getInt(), frame)];
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

    /** {@code length}, when the frame holds that many bytes more; else an {@link IllegalArgumentException}. */
    private static int checked(String what, int length, ByteBuffer frame) {
        if (length < 0 || length > frame.remaining()) {
            throw new IllegalArgumentException(what + " length " + length + " with " + frame.remaining()
                    + " bytes left in the frame");
        }
        return length;
    }
}
