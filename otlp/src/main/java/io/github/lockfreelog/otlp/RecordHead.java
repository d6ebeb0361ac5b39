package io.github.lockfreelog.otlp;

import static io.github.lockfreelog.otlp.Protobuf.*;

import ch.qos.logback.classic.Level;
import io.github.lockfreelog.records.FrameBuffer;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * The first bytes of each frame one thread writes, up to the body's bytes: the frame's version and scope (the logger's
 * name), the thread's own {@code thread.name} and {@code thread.id} attributes, then the record's times, severity and
 * the body's tags and lengths. What stays from event to event (the scope, the thread's attributes) is kept encoded,
 * encoded again only when it is another string than the one before (another logger, a renamed thread); the rest is
 * written into the same array at each event with plain array stores (the times as one little-endian store each), so
 * that the frame gets this part with one copy rather than byte by byte. One thread's; allocates nothing but when a
 * longer name than any before needs a longer array.
 *
 * <pre>
 *   kept:       version (1) | scope length (varint) | scope (UTF-8)                            [0, scopeEnd)
 *               | thread.name attribute | thread.id attribute (the calling thread's)        [scopeEnd, threadEnd)
 *   each event: 0x09 time_unix_nano (fixed64) | 0x59 observed_time_unix_nano (fixed64)
 *               | severity_number and severity_text (one array per level)
 *               | 0x2A body length (varint) | 0x0A string_value length (varint)            [threadEnd, ...)
 *   then the caller copies the body's bytes
 * </pre>
 * An event made on another thread takes {@code [0, scopeEnd)} and the event's part, not the cached thread's attributes.
 *
 * <p>The record's fields do not come in field-number order (the thread's attributes come before the times): protobuf
 * parsers take a message's fields in any order, and OTLP's receivers parse them so.
 */
final class RecordHead {

    private static final VarHandle LONG_LE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final byte TIME_TAG = (byte) tag(TIME_UNIX_NANO, FIXED64);
    private static final byte OBSERVED_TAG = (byte) tag(OBSERVED_TIME_UNIX_NANO, FIXED64);
    private static final byte BODY_TAG = (byte) tag(BODY, LEN);
    private static final byte STRING_VALUE_TAG = (byte) tag(STRING_VALUE, LEN);
    /** Bytes of the times and the body's tags and lengths, at most: 2 x 9, 1 + 5 + 1 + 5. */
    private static final int FIELDS = 2 * 9 + 12;
    static final byte[] THREAD_NAME = ascii("thread.name");
    static final byte[] THREAD_ID = ascii("thread.id");

    private static final byte[] TRACE = encodeSeverity(Level.TRACE);
    private static final byte[] DEBUG = encodeSeverity(Level.DEBUG);
    private static final byte[] INFO = encodeSeverity(Level.INFO);
    private static final byte[] WARN = encodeSeverity(Level.WARN);
    private static final byte[] ERROR = encodeSeverity(Level.ERROR);

    /** Builds the cached part: version, scope, thread attributes; reused. */
    private final FrameBuffer prefix = new FrameBuffer(128);
    /** The cached part in {@code [0, threadEnd)}, the scope's end at {@code scopeEnd}; each event's fields after it. */
    private byte[] head = new byte[128];
    private int scopeEnd;
    private int threadEnd;
    private String scope;
    /** The thread name whose attributes are in {@code [scopeEnd, threadEnd)}; null when none are. */
    private String thread;
    private long threadId;

    /**
     * Writes the frame's first part for an event of logger {@code scope}, at {@code time} (observed at
     * {@code observed}), of {@code level}, whose body is {@code bodyLength} bytes: the body's bytes are to follow.
     * {@code threadName} is the event's thread's name when that is the calling thread, {@code current} (its
     * {@code thread.name} and {@code thread.id} attributes are written from this thread's cache); null when the event
     * was made on another thread (an async appender's worker calls), whose name the caller writes itself.
     */
    void put(FrameBuffer frame, String scope, String threadName, Thread current, long time, long observed, Level level,
            int bodyLength) {
        if (scope != this.scope || (threadName != null && threadName != thread)) { // identity: a logger keeps its name
            encode(scope, threadName != null ? threadName : thread, threadName != null ? current.getId() : threadId);
        }
        byte[] severity = severity(level);
        int at = threadEnd;
        if (head.length < at + FIELDS + severity.length) {
            head = java.util.Arrays.copyOf(head, at + FIELDS + severity.length);
        }
        byte[] into = head;
        into[at] = TIME_TAG;
        LONG_LE.set(into, at + 1, time);
        into[at + 9] = OBSERVED_TAG;
        LONG_LE.set(into, at + 10, observed);
        at += 18;
        System.arraycopy(severity, 0, into, at, severity.length);
        at += severity.length;
        into[at++] = BODY_TAG;
        at = putArrayVarint(into, at, lenFieldSize(bodyLength));
        into[at++] = STRING_VALUE_TAG;
        at = putArrayVarint(into, at, bodyLength);
        if (threadName != null) {
            frame.put(into, 0, at);
        } else { // the thread's attributes are this thread's, not the event's
            frame.put(into, 0, scopeEnd);
            frame.put(into, threadEnd, at - threadEnd);
        }
    }

    /** Encodes the cached part again: version, {@code scope}, and the attributes of the thread {@code threadName}. */
    private void encode(String scope, String threadName, long threadId) {
        FrameBuffer out = prefix;
        out.clear();
        out.put(LogRecordEnvelope.VERSION);
        putVarint(out, utf8Length(scope));
        out.putUtf8(scope);
        scopeEnd = out.length();
        if (threadName != null) {
            putStringAttribute(out, ATTRIBUTES, THREAD_NAME, threadName, utf8Length(threadName));
            putIntAttribute(out, THREAD_ID, threadId);
        }
        threadEnd = out.length();
        if (head.length < threadEnd + FIELDS + 16) {
            head = new byte[threadEnd + FIELDS + 16];
        }
        System.arraycopy(out.bytes(), 0, head, 0, threadEnd);
        this.scope = scope;
        this.thread = threadName;
        this.threadId = threadId;
    }

    private static int putArrayVarint(byte[] into, int at, int value) {
        while ((value & ~0x7F) != 0) {
            into[at++] = (byte) ((value & 0x7F) | 0x80);
            value >>>= 7;
        }
        into[at++] = (byte) value;
        return at;
    }

    /** An attribute whose key is {@code key[]} and whose value is the whole number {@code value}. */
    private static void putIntAttribute(FrameBuffer out, byte[] key, long value) {
        int any = 1 + varintSize(value);
        putTag(out, ATTRIBUTES, LEN);
        putVarint(out, lenFieldSize(key.length) + lenFieldSize(any));
        putBytes(out, KEY, key, key.length);
        putTag(out, VALUE, LEN);
        putVarint(out, any);
        putTag(out, INT_VALUE, VARINT);
        putVarint(out, value);
    }

    /** The severity number and text fields of {@code level}, encoded once for each of Logback's levels. */
    private static byte[] severity(Level level) {
        switch (level.levelInt) {
            case Level.TRACE_INT:
                return TRACE;
            case Level.DEBUG_INT:
                return DEBUG;
            case Level.INFO_INT:
                return INFO;
            case Level.WARN_INT:
                return WARN;
            case Level.ERROR_INT:
                return ERROR;
            default:
                return encodeSeverity(level); // ALL or OFF as an event's level: not from Logback's loggers
        }
    }

    private static byte[] encodeSeverity(Level level) {
        FrameBuffer out = new FrameBuffer(16);
        putTag(out, SEVERITY_NUMBER, VARINT);
        putVarint(out, LogRecordEnvelope.Writer.severityNumber(level));
        putString(out, SEVERITY_TEXT, level.levelStr, utf8Length(level.levelStr));
        return java.util.Arrays.copyOf(out.bytes(), out.length());
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
