package io.github.lockfreelog.bootpatterns;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.classic.spi.ThrowableProxy;
import ch.qos.logback.core.OutputStreamAppender;
import ch.qos.logback.core.encoder.Encoder;
import io.github.lockfreelog.logback.encoding.PatternEncoding;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;
import org.slf4j.MarkerFactory;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.logging.LoggingSystemProperty;
import org.springframework.boot.logging.structured.StructuredLogFormatter;
import org.springframework.context.ConfigurableApplicationContext;

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
        for (LoggingSystemProperty property : LoggingSystemProperty.values()) {
            System.clearProperty(property.getEnvironmentVariableName());
        }
        System.clearProperty("FILE_LOG_STRUCTURED_FORMAT");
        System.clearProperty("CONSOLE_LOG_STRUCTURED_FORMAT");
    }

    /** Spring Boot's CONSOLE and FILE encoders after a start with {@code format} for both. */
    private List<Encoder<ILoggingEvent>> bootEncoders(String format, String... properties) {
        List<String> all = new ArrayList<>(List.of("spring.config.name=spring-boot-structured-tests", "lockfreelog.enabled=false",
                "logging.file.name=" + dir.resolve("app.log"), "spring.jmx.enabled=false", "spring.application.name=orders-service",
                "logging.structured.format.file=" + format, "logging.structured.format.console=" + format));
        all.addAll(List.of(properties));
        try (ConfigurableApplicationContext context = new SpringApplicationBuilder(Config.class)
                .web(WebApplicationType.NONE).properties(all.toArray(new String[0])).run()) {
            Logger root = loggerContext().getLogger(Logger.ROOT_LOGGER_NAME);
            List<Encoder<ILoggingEvent>> encoders = new ArrayList<>();
            for (String name : List.of("CONSOLE", "FILE")) {
                encoders.add(((OutputStreamAppender<ILoggingEvent>) root.getAppender(name)).getEncoder());
            }
            return encoders;
        }
    }

    private static LoggerContext loggerContext() {
        return (LoggerContext) LoggerFactory.getILoggerFactory();
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
            for (int i = 0; i < 1000; i++) {
                ILoggingEvent event = event(random, i);
                byte[] expected = encoder.encode(event);
                PatternEncoding.Scratch actual = fast.encode(event);
                assertThat(actual).as("event %d", i).isNotNull();
                assertThat(new String(actual.bytes, 0, actual.length, StandardCharsets.UTF_8)).as("event %d", i)
                        .isEqualTo(new String(expected, StandardCharsets.UTF_8));
                assertThat(Arrays.copyOf(actual.bytes, actual.length)).isEqualTo(expected);
                fast.release(actual);
            }
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
        java.lang.management.ThreadMXBean bean = java.lang.management.ManagementFactory.getThreadMXBean();
        assumeTrue(bean instanceof com.sun.management.ThreadMXBean, "no allocation counter here");
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) bean;
        ILoggingEvent event = event(new Random(5), 1);
        long id = Thread.currentThread().getId();
        long[] allocated = new long[2];
        for (int round = 0; round < 2; round++) { // the first round warms up
            long before = threads.getThreadAllocatedBytes(id);
            for (int i = 0; i < 2000; i++) {
                encoder.encode(event);
            }
            long between = threads.getThreadAllocatedBytes(id);
            for (int i = 0; i < 2000; i++) {
                fast.release(fast.encode(event));
            }
            allocated[0] = between - before;
            allocated[1] = threads.getThreadAllocatedBytes(id) - between;
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

    @SpringBootConfiguration
    static class Config {
    }
}
