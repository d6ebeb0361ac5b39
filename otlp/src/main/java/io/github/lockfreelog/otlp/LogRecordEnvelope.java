package io.github.lockfreelog.otlp;

import static io.github.lockfreelog.otlp.Protobuf.*;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import io.github.lockfreelog.logback.EventEnvelope;
import io.github.lockfreelog.records.FrameBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import org.slf4j.event.KeyValuePair;

/**
 * What one journal frame of a {@link LockFreeOtlpAppender} holds, written on the caller's thread: the event as
 * OTLP's {@code LogRecord} message, ready to be copied into a request, after the name of its instrumentation
 * scope (the logger), which a request holds once per run of records of one scope:
 * <pre>
 *   version (1 byte, 1) | scope length (varint) | scope name (UTF-8)
 *   | the LogRecord's fields (protobuf), to the end of the frame
 * </pre>
 * The record carries time, observed time, severity number and text, body (the encoded event: the encoder's
 * pattern, {@code %m} by default), attributes ({@code thread.name}, {@code thread.id}, the MDC, the event's key-value
 * pairs, {@code exception.*}) and trace and span ids from the MDC's {@code traceId} and {@code spanId}, else, when the
 * OpenTelemetry API is on the class path, from its current span ({@link OtelSpan}, with the trace flags). One attribute
 * is added by the drainer as it copies the record: {@code log.record.uid}, the frame's place in the journal, which
 * only the drainer knows.
 */
final class LogRecordEnvelope {

    static final byte VERSION = 1;
    static final String TRACE_ID = "traceId";
    static final String SPAN_ID = "spanId";
    /** Whether the OpenTelemetry API is on the class path: only then is {@link OtelSpan} loaded and asked. */
    static final boolean OTEL_API = present("io.opentelemetry.api.trace.Span");

    private LogRecordEnvelope() {
    }

    private static boolean present(String name) {
        try {
            Class.forName(name, false, LogRecordEnvelope.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /** Writes each event's frame; allocates nothing per event, except for an exception's stack trace text. */
    static final class Writer implements EventEnvelope {

        private static final byte[] THREAD_NAME = RecordHead.THREAD_NAME;
        private static final byte[] EXCEPTION_TYPE = ascii("exception.type");
        private static final byte[] EXCEPTION_MESSAGE = ascii("exception.message");
        private static final byte[] EXCEPTION_STACKTRACE = ascii("exception.stacktrace");

        @Override
        public void wrap(ILoggingEvent event, byte[] encoded, int length, FrameBuffer frame) {
            String scope = event.getLoggerName() == null ? "" : event.getLoggerName();
            String threadName = event.getThreadName();
            Thread current = Thread.currentThread();
            // the event was made on this thread (not handed to an async appender's worker): a thread's name is one string
            boolean callersThread = threadName != null && threadName.equals(current.getName());
            Instant instant = event.getInstant();
            long time = instant != null ? instant.getEpochSecond() * 1_000_000_000L + instant.getNano()
                    : event.getTimeStamp() * 1_000_000L;
            // observed: on the caller's thread Logback made the event at this call, so its time is when it was observed
            // (OpenTelemetry's data model: equal to the timestamp for an event of the process itself); a worker's now
            long observed = callersThread ? time : System.currentTimeMillis() * 1_000_000L;
            MdcWriter own = MDC_WRITERS.get(); // this thread's: its cached bytes, and the MDC's writer
            own.head.put(frame, scope, callersThread ? threadName : null, current, time, observed, event.getLevel(),
                    length);
            frame.put(encoded, 0, length);
            if (threadName != null && !callersThread) {
                putStringAttribute(frame, ATTRIBUTES, THREAD_NAME, threadName, utf8Length(threadName));
            }
            String traceId = null;
            String spanId = null;
            Map<String, String> mdc = event.getMDCPropertyMap();
            if (mdc != null && !mdc.isEmpty()) {
                traceId = validId(mdc.get(TRACE_ID), 32);
                spanId = traceId == null ? null : validId(mdc.get(SPAN_ID), 16);
                own.start(frame, traceId != null, spanId != null);
                try {
                    mdc.forEach(own); // a HashMap's (Logback's MDC) walks its table: no iterator, no entry
                } finally {
                    own.frame = null;
                }
            }
            List<KeyValuePair> pairs = event.getKeyValuePairs();
            if (pairs != null) {
                for (int i = 0; i < pairs.size(); i++) {
                    KeyValuePair pair = pairs.get(i);
                    if (pair != null && pair.key != null) {
                        putPair(frame, pair.key, pair.value);
                    }
                }
            }
            IThrowableProxy thrown = event.getThrowableProxy();
            if (thrown != null) {
                String type = thrown.getClassName();
                putStringAttribute(frame, ATTRIBUTES, EXCEPTION_TYPE, type, utf8Length(type));
                String message = thrown.getMessage();
                if (message != null) {
                    putStringAttribute(frame, ATTRIBUTES, EXCEPTION_MESSAGE, message, utf8Length(message));
                }
                String trace = ThrowableProxyUtil.asString(thrown);
                putStringAttribute(frame, ATTRIBUTES, EXCEPTION_STACKTRACE, trace, utf8Length(trace));
            }
            if (traceId != null) {
                putHexId(frame, TRACE_ID_FIELD, traceId);
                if (spanId != null) {
                    putHexId(frame, SPAN_ID_FIELD, spanId);
                }
            } else if (OTEL_API && callersThread) { // the current span is the caller's only on the caller's thread
                OtelSpan.putCurrent(frame);
            }
        }

        /** Each thread's writer of MDC entries, so that walking the MDC allocates nothing per event. */
        private static final ThreadLocal<MdcWriter> MDC_WRITERS = ThreadLocal.withInitial(MdcWriter::new);

        /**
         * One thread's writer of MDC entries (each a string attribute, but the trace and span ids that have fields of
         * their own), and its {@link RecordHead}: the bytes that thread writes first at each event.
         */
        private static final class MdcWriter implements BiConsumer<String, String> {
            FrameBuffer frame;
            private boolean skipTrace;
            private boolean skipSpan;
            final RecordHead head = new RecordHead();

            void start(FrameBuffer frame, boolean skipTrace, boolean skipSpan) {
                this.frame = frame;
                this.skipTrace = skipTrace;
                this.skipSpan = skipSpan;
            }

            @Override
            public void accept(String key, String value) {
                if (key == null || value == null || (skipTrace && key.equals(TRACE_ID))
                        || (skipSpan && key.equals(SPAN_ID))) {
                    return;
                }
                putStringAttribute(frame, ATTRIBUTES, key, utf8Length(key), value, utf8Length(value));
            }
        }

        private static final int TRACE_ID_FIELD = Protobuf.TRACE_ID;
        private static final int SPAN_ID_FIELD = Protobuf.SPAN_ID;

        /** A key-value pair of the event: numbers and booleans keep their type, anything else is its text. */
        private static void putPair(FrameBuffer frame, String key, Object value) {
            int keyLength = utf8Length(key);
            if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte) {
                putScalarAttribute(frame, ATTRIBUTES, key, keyLength, INT_VALUE, ((Number) value).longValue());
            } else if (value instanceof Double || value instanceof Float) {
                putScalarAttribute(frame, ATTRIBUTES, key, keyLength, DOUBLE_VALUE,
                        Double.doubleToRawLongBits(((Number) value).doubleValue()));
            } else if (value instanceof Boolean) {
                putScalarAttribute(frame, ATTRIBUTES, key, keyLength, BOOL_VALUE, (Boolean) value ? 1 : 0);
            } else {
                CharSequence text = value instanceof CharSequence chars ? chars : String.valueOf(value);
                putStringAttribute(frame, ATTRIBUTES, key, keyLength, text, utf8Length(text));
            }
        }

        /** {@code id} when it is {@code hexDigits} hexadecimal digits, not all zero (W3C's invalid id); else null. */
        static String validId(String id, int hexDigits) {
            if (id == null || id.length() != hexDigits) {
                return null;
            }
            boolean nonZero = false;
            for (int i = 0; i < hexDigits; i++) {
                int digit = Character.digit(id.charAt(i), 16);
                if (digit < 0) {
                    return null;
                }
                nonZero |= digit != 0;
            }
            return nonZero ? id : null;
        }

        static void putHexId(FrameBuffer frame, int field, String hex) {
            putTag(frame, field, LEN);
            putVarint(frame, hex.length() / 2);
            for (int i = 0; i < hex.length(); i += 2) {
                frame.put((byte) (Character.digit(hex.charAt(i), 16) << 4 | Character.digit(hex.charAt(i + 1), 16)));
            }
        }

        /** OpenTelemetry's severity number of a Logback level (the first of each range: TRACE 1 ... ERROR 17). */
        static int severityNumber(Level level) {
            switch (level.levelInt) {
                case Level.TRACE_INT:
                    return 1;
                case Level.DEBUG_INT:
                    return 5;
                case Level.INFO_INT:
                    return 9;
                case Level.WARN_INT:
                    return 13;
                case Level.ERROR_INT:
                    return 17;
                default:
                    return 0; // SEVERITY_NUMBER_UNSPECIFIED
            }
        }

        private static byte[] ascii(String text) {
            return text.getBytes(StandardCharsets.US_ASCII);
        }
    }
}
