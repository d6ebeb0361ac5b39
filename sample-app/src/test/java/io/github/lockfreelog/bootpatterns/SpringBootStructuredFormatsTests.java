package io.github.lockfreelog.bootpatterns;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.classic.spi.ThrowableProxy;
import ch.qos.logback.core.encoder.Encoder;
import io.github.lockfreelog.logback.encoding.PatternEncoding;
import io.github.lockfreelog.testsupport.Allocations;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.MarkerFactory;
import org.springframework.boot.logging.structured.StructuredLogFormatter;

/**
 * Spring Boot's structured formats (ecs, logstash, gelf, and a formatter of the user's) as Spring Boot
 * builds them in the running Spring Boot line: the fast path encodes the formatter's text, exactly the
 * bytes of Spring Boot's encoder for every kind of event, and allocates less than the encoder does; a
 * formatter whose bytes are not its text is left to the encoder.
 */
class SpringBootStructuredFormatsTests {

    @TempDir
    Path dir;

    @BeforeEach
    @AfterEach
    void asInANewJvm() {
        BootEncoders.asInANewJvm();
    }

    /** Spring Boot's CONSOLE and FILE encoders after a start with {@code format} for both. */
    private List<Encoder<ILoggingEvent>> bootEncoders(String format, String... properties) {
        List<String> all = new ArrayList<>(List.of("spring.application.name=orders-service",
                "logging.structured.format.file=" + format, "logging.structured.format.console=" + format));
        all.addAll(List.of(properties));
        return BootEncoders.of(dir, all.toArray(new String[0]));
    }

    private static LoggerContext loggerContext() {
        return BootEncoders.loggerContext();
    }

    @Test
    void ecs() {
        check(bootEncoders("ecs", "logging.structured.ecs.service.version=1.2.3", "logging.structured.ecs.service.environment=prod"));
    }

    @Test
    void logstash() {
        check(bootEncoders("logstash"));
    }

    @Test
    void gelf() {
        check(bootEncoders("gelf", "logging.structured.gelf.host=orders-host"));
    }

    @Test
    void aFormatterOfTheUsers() {
        check(bootEncoders(TextFormatter.class.getName()));
    }

    @Test
    void aFormatterWhoseBytesAreNotItsTextIsLeftToTheEncoder() {
        for (Encoder<ILoggingEvent> encoder : bootEncoders(Latin1Formatter.class.getName())) {
            assertThat(PatternEncoding.of(encoder)).isNull();
        }
    }

    private void check(List<Encoder<ILoggingEvent>> encoders) {
        assertThat(PatternEncoding.textProviders()).contains("io.github.lockfreelog.autoconfigure.logging.SpringBootEncoderTexts");
        for (Encoder<ILoggingEvent> encoder : encoders) {
            PatternEncoding fast = PatternEncoding.of(encoder);
            assertThat(fast).as("the fast path for %s", encoder).isNotNull();
            Random random = new Random(11);
            BootEncoders.assertSameBytes(encoder, fast, 1000, i -> event(random, i));
            assertAllocatesLessThanTheEncoder(encoder, fast);
        }
    }

    private static final Level[] LEVELS = {Level.TRACE, Level.DEBUG, Level.INFO, Level.WARN, Level.ERROR};

    private static final List<Map<String, String>> MDCS = List.of(Map.of(), Map.of("user", "ünïcode \"quoted\""),
            Map.of("traceId", "0123456789abcdef0123456789abcdef", "spanId", "0123456789abcdef"));

    private static ILoggingEvent event(Random random, int i) {
        Logger logger = loggerContext().getLogger(random.nextBoolean() ? "com.example.orders.OrderService" : "x.Y");
        LoggingEvent event = new LoggingEvent(Logger.class.getName(), logger, LEVELS[random.nextInt(LEVELS.length)],
                random.nextInt(5) == 0 ? "Ärger {} \"mit\" 中文 😀 \\ \t lone \uD800" : "Order {} shipped", null, new Object[] {i});
        if (random.nextInt(30) == 0) {
            Throwable error = new IllegalStateException("failed ✓ " + i);
            error.setStackTrace(new StackTraceElement[] {new StackTraceElement("com.example.Service", "call", "Service.java", 42)});
            event.setThrowableProxy(new ThrowableProxy(error));
        }
        event.setThreadName(random.nextBoolean() ? "main" : "http-nio-8080-exec-10");
        event.setMDCPropertyMap(MDCS.get(random.nextInt(MDCS.size())));
        event.setTimeStamp(1_764_000_000_000L + i * 7L);
        if (random.nextInt(5) == 0) {
            event.addMarker(MarkerFactory.getMarker("AUDIT"));
        }
        if (random.nextInt(5) == 0) {
            event.addKeyValuePair(new org.slf4j.event.KeyValuePair("orderId", i));
        }
        return event;
    }

    /** The fast path allocates only what the formatter does: less than the encoder, which adds a writer and bytes per event. */
    private static void assertAllocatesLessThanTheEncoder(Encoder<ILoggingEvent> encoder, PatternEncoding fast) {
        ILoggingEvent event = event(new Random(5), 1);
        long[] allocated = new long[2];
        for (int round = 0; round < 2; round++) { // the first round warms up
            allocated[0] = Allocations.allocatedBy(() -> encoder.encode(event), 2000);
            allocated[1] = Allocations.allocatedBy(() -> fast.release(fast.encode(event)), 2000);
        }
        assertThat(allocated[1]).as("bytes the fast path allocated for 2,000 events (the encoder: %d)", allocated[0])
                .isLessThan(allocated[0]);
    }

    /** A formatter of the user's: one line of text. */
    public static final class TextFormatter implements StructuredLogFormatter<ILoggingEvent> {
        @Override
        public String format(ILoggingEvent event) {
            return event.getLevel() + "|" + event.getLoggerName() + "|" + event.getFormattedMessage() + "|" + event.getMDCPropertyMap() + "\n";
        }
    }

    /** A formatter whose bytes are not its text in UTF-8. */
    public static final class Latin1Formatter implements StructuredLogFormatter<ILoggingEvent> {
        @Override
        public String format(ILoggingEvent event) {
            return event.getFormattedMessage() + "\n";
        }

        @Override
        public byte[] formatAsBytes(ILoggingEvent event, Charset charset) {
            return format(event).getBytes(StandardCharsets.ISO_8859_1);
        }
    }
}
