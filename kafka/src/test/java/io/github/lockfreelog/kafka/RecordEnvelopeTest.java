package io.github.lockfreelog.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.LoggingEvent;
import io.github.lockfreelog.kafka.KeyAndHeaders.KeyKind;
import io.github.lockfreelog.records.FrameBuffer;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.Test;

/**
 * The envelope writer gives, byte for byte, the frames of version 1 as the previous version made them (key and
 * header values through {@code String.getBytes(UTF_8)}), so journals of either are read alike; and the sink's reader
 * gives back each part.
 */
class RecordEnvelopeTest {

    private static final String[] TEXTS = {"main", "caller-7", "Zürich \u00e9\u0800", "\uD83D\uDE00 paired",
        "lone \uD83D high", "lone \uDE00 low", ""};

    @Test
    void everyKindOfKeyAndHeaderGivesTheFrameOfVersionOneByteForByte() {
        LoggerContext context = new LoggerContext();
        byte[] value = "2026-01-01 INFO [main] c.e.Demo - shipped\n".getBytes(StandardCharsets.UTF_8);
        for (String text : TEXTS) {
            for (Level level : new Level[] {Level.ERROR, Level.WARN, Level.INFO, Level.DEBUG, Level.TRACE}) {
                LoggingEvent event = new LoggingEvent(getClass().getName(), context.getLogger("logger." + text), level,
                        "shipped", null, null);
                event.setThreadName("thread " + text);
                Map<String, String> mdc = new HashMap<>();
                mdc.put("order", "order " + text);
                event.setMDCPropertyMap(mdc);
                for (boolean levelHeader : new boolean[] {false, true}) {
                    for (boolean loggerHeader : new boolean[] {false, true}) {
                        String what = "text \"" + text + "\", " + level + ", headers level " + levelHeader
                                + " logger " + loggerHeader;
                        check(what + ", no key", event, value, KeyKind.NONE, null, null, levelHeader, loggerHeader);
                        check(what + ", constant key", event, value, KeyKind.CONSTANT, "key " + text, "key " + text,
                                levelHeader, loggerHeader);
                        check(what + ", thread key", event, value, KeyKind.THREAD, null, "thread " + text,
                                levelHeader, loggerHeader);
                        check(what + ", MDC key", event, value, KeyKind.MDC, "order", "order " + text, levelHeader,
                                loggerHeader);
                        check(what + ", MDC key not set", event, value, KeyKind.MDC, "absent", null, levelHeader,
                                loggerHeader);
                    }
                }
            }
        }
    }

    @Test
    void aFrameBufferReusedForManyEventsHoldsEachWhole() {
        LoggerContext context = new LoggerContext();
        RecordEnvelope.Writer writer = new RecordEnvelope.Writer(KeyKind.THREAD, null, true, true);
        FrameBuffer frame = new FrameBuffer(8);
        for (int i = 0; i < 200; i++) {
            String text = "x".repeat(i * 7) + "\uD83D\uDE00";
            LoggingEvent event = new LoggingEvent(getClass().getName(), context.getLogger("l" + i), Level.WARN, "m",
                    null, null);
            event.setThreadName(text);
            byte[] value = ("value " + i).getBytes(StandardCharsets.UTF_8);
            frame.clear();
            writer.wrap(event, value, value.length, frame);
            RecordEnvelope.Unwrapped back = RecordEnvelope.unwrap(ByteBuffer.wrap(frame.bytes(), 0, frame.length()));
            assertThat(new String(back.key(), StandardCharsets.UTF_8)).isEqualTo(text);
            assertThat(back.value()).isEqualTo(value);
            assertThat(back.headers()).extracting(Header::key).containsExactly("level", "logger");
            assertThat(new String(back.headers().get(1).value(), StandardCharsets.UTF_8)).isEqualTo("l" + i);
        }
    }

    private static void check(String what, LoggingEvent event, byte[] value, KeyKind kind, String argument,
            String key, boolean levelHeader, boolean loggerHeader) {
        FrameBuffer frame = new FrameBuffer(4);
        frame.put(new byte[] {1, 2, 3}); // the buffer is given empty; what was there before must not matter
        frame.clear();
        new RecordEnvelope.Writer(kind, argument, levelHeader, loggerHeader).wrap(event, value, value.length, frame);
        byte[] written = Arrays.copyOf(frame.bytes(), frame.length());

        byte[] keyBytes = key == null ? null : key.getBytes(StandardCharsets.UTF_8);
        assertThat(written).as(what).isEqualTo(versionOne(keyBytes,
                levelHeader ? event.getLevel().toString().getBytes(StandardCharsets.UTF_8) : null,
                loggerHeader ? event.getLoggerName().getBytes(StandardCharsets.UTF_8) : null, value));

        RecordEnvelope.Unwrapped back = RecordEnvelope.unwrap(ByteBuffer.wrap(written));
        assertThat(back.key()).as(what).isEqualTo(keyBytes);
        assertThat(back.value()).as(what).isEqualTo(value);
        assertThat(back.headers()).as(what).hasSize((levelHeader ? 1 : 0) + (loggerHeader ? 1 : 0));
    }

    /** A frame of version 1, as the previous version's writer laid it out (header values {@code null}: not sent). */
    private static byte[] versionOne(byte[] key, byte[] level, byte[] logger, byte[] value) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(1);
            out.writeInt(key == null ? -1 : key.length);
            if (key != null) {
                out.write(key);
            }
            out.writeByte((level != null ? 1 : 0) + (logger != null ? 1 : 0));
            if (level != null) {
                out.writeByte(5);
                out.write("level".getBytes(StandardCharsets.UTF_8));
                out.writeInt(level.length);
                out.write(level);
            }
            if (logger != null) {
                out.writeByte(6);
                out.write("logger".getBytes(StandardCharsets.UTF_8));
                out.writeInt(logger.length);
                out.write(logger);
            }
            out.write(value);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        return bytes.toByteArray();
    }

    /**
     * Lengths read from a damaged frame are checked against what the frame holds before an array is made: a key or a
     * header value claiming nearly 2 GB is "not a record envelope" (the sink leaves the frame out), not an
     * {@code OutOfMemoryError} in the drainer.
     */
    @Test
    void lengthsReadFromADamagedFrameAreCheckedBeforeAnArrayIsMade() {
        ByteBuffer hugeKey = ByteBuffer.allocate(16).put((byte) 1).putInt(Integer.MAX_VALUE - 16).put((byte) 0).flip();
        assertThatThrownBy(() -> RecordEnvelope.unwrap(hugeKey)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("key length " + (Integer.MAX_VALUE - 16));
        ByteBuffer hugeHeader = ByteBuffer.allocate(32).put((byte) 1).putInt(-1).put((byte) 1).put((byte) 1)
                .put((byte) 'a').putInt(Integer.MAX_VALUE - 64).flip();
        assertThatThrownBy(() -> RecordEnvelope.unwrap(hugeHeader)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("header value length");
        ByteBuffer badKeyLength = ByteBuffer.allocate(16).put((byte) 1).putInt(-7).flip();
        assertThatThrownBy(() -> RecordEnvelope.unwrap(badKeyLength)).isInstanceOf(IllegalArgumentException.class);
    }
}
