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
import org.springframework.boot.ansi.AnsiOutput;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.logging.LoggingSystemProperty;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Spring Boot's own default patterns, console and file, as Spring Boot builds them in the running Spring
 * Boot line (this test runs on 4.0, on 3.5 with -Pboot3 and on 4.1): the starter's fast path takes every
 * converter in them ({@code %clr} with ANSI colours off and on, {@code %esb} with and without an application
 * name and group, {@code %correlationId} with and without a trace in the MDC, {@code %wEx}), writes exactly
 * the bytes of Spring Boot's own encoder for every kind of event, and allocates nothing once a thread's parts
 * are kept.
 */
class SpringBootPatternsTests {

    @TempDir
    Path dir;

    /**
     * As a new JVM would be: Spring Boot keeps ANSI's setting and the logging system properties (application
     * name and group, correlation pattern, ...) in the JVM's system properties, where they outlive a run.
     */
    @BeforeEach
    @AfterEach
    void asInANewJvm() {
        AnsiOutput.setEnabled(AnsiOutput.Enabled.DETECT);
        for (LoggingSystemProperty property : LoggingSystemProperty.values()) {
            System.clearProperty(property.getEnvironmentVariableName());
        }
    }

    /** Spring Boot's CONSOLE and FILE encoders after a start with {@code properties} (the lock-free appenders off). */
    private List<Encoder<ILoggingEvent>> bootEncoders(String... properties) {
        List<String> all = new ArrayList<>(List.of("spring.config.name=spring-boot-patterns-tests", "lockfreelog.enabled=false",
                "logging.file.name=" + dir.resolve("app.log"), "spring.jmx.enabled=false"));
        all.addAll(List.of(properties));
        try (ConfigurableApplicationContext context = new SpringApplicationBuilder(Config.class)
                .web(WebApplicationType.NONE).properties(all.toArray(new String[0])).run()) {
            Logger root = loggerContext().getLogger(Logger.ROOT_LOGGER_NAME);
            List<Encoder<ILoggingEvent>> encoders = new ArrayList<>();
            for (String name : List.of("CONSOLE", "FILE")) {
                OutputStreamAppender<ILoggingEvent> appender = (OutputStreamAppender<ILoggingEvent>) root.getAppender(name);
                assertThat(appender).as("Spring Boot's %s appender", name).isNotNull();
                encoders.add(appender.getEncoder());
            }
            return encoders; // their layouts stay started after the context closes
        }
    }

    private static LoggerContext loggerContext() {
        return (LoggerContext) LoggerFactory.getILoggerFactory();
    }

    @Test
    void bootsDefaultPatternsWithoutColoursOrNames() {
        List<String> lines = check(bootEncoders("spring.output.ansi.enabled=never"), 1);
        assertThat(lines).allSatisfy(line -> assertThat(line).doesNotContain("\u001b").doesNotContain("[0123456789abcdef")
                .contains("-exec-1] com.example.orders.OrderService          : Order 4711 shipped"));
    }

    @Test
    void bootsDefaultPatternsWithColoursANameAGroupAndATrace() {
        List<String> lines = check(bootEncoders("spring.output.ansi.enabled=always", "spring.application.name=orders-service",
                "spring.application.group=shop", "logging.expect-correlation-id=true"), 2);
        assertThat(lines.get(0)).as("the console").contains("\u001b[32m INFO\u001b[0;39m").contains("\u001b[2m--- [orders-service] [shop] ");
        assertThat(lines.get(1)).as("the file").doesNotContain("\u001b");
        assertThat(lines).allSatisfy(line -> assertThat(line).contains("[0123456789abcdef0123456789abcdef-0123456789abcdef] "));
    }

    @Test
    void aCorrelationPatternOfItsOwnParts() {
        List<String> lines = check(bootEncoders("spring.output.ansi.enabled=never", "spring.application.name=orders-service",
                "logging.pattern.correlation=%correlationId{traceId(16),spanId(8),requestId(12)}"), 3);
        assertThat(lines).allSatisfy(line -> assertThat(line).contains("--- [orders-service] [")
                .contains("-exec-1] [0123456789abcdef0123456789abcdef-0123456789abcdef-            ] com.example.orders"));
    }

    @Test
    void springBoot35sApplicationNameConverter() {
        assumeTrue(exists("org.springframework.boot.logging.logback.ApplicationNameConverter"),
                "%applicationName is Spring Boot 3.5's (removed in 4.0)");
        List<String> lines = check(bootEncoders("spring.output.ansi.enabled=always", "spring.application.name=orders-service",
                "logging.pattern.file=%applicationName|%clr(%applicationName){red}|%m%n",
                "logging.pattern.console=%clr(%applicationName){}|%m%n"), 4);
        assertThat(lines).containsExactly("\u001b[32morders-service\u001b[0;39m|Order 4711 shipped\n",
                "orders-service|\u001b[31morders-service\u001b[0;39m|Order 4711 shipped\n");
    }

    private static boolean exists(String className) {
        try {
            Class.forName(className);
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }

    /** Checks each encoder; returns what each wrote for a traced INFO event of the main thread. */
    private List<String> check(List<Encoder<ILoggingEvent>> encoders, long seed) {
        List<String> samples = new ArrayList<>();
        for (Encoder<ILoggingEvent> encoder : encoders) {
            PatternEncoding fast = PatternEncoding.of(encoder);
            assertThat(fast).as("the fast path for %s", encoder).isNotNull();
            assertThat(fast.convertersOffTheFastPath()).as("converters written through a builder").isEmpty();
            Random random = new Random(seed);
            for (int i = 0; i < 3000; i++) {
                ILoggingEvent event = event(random, i);
                byte[] expected = encoder.encode(event);
                PatternEncoding.Scratch actual = fast.encode(event);
                assertThat(actual).as("event %d", i).isNotNull();
                assertThat(new String(actual.bytes, 0, actual.length, StandardCharsets.UTF_8)).as("event %d", i)
                        .isEqualTo(new String(expected, StandardCharsets.UTF_8));
                assertThat(Arrays.copyOf(actual.bytes, actual.length)).isEqualTo(expected);
                fast.release(actual);
            }
            assertAllocatesNothing(fast);
            samples.add(new String(encoder.encode(tracedEvent()), StandardCharsets.UTF_8));
        }
        return samples;
    }

    private static final Level[] LEVELS = {Level.TRACE, Level.DEBUG, Level.INFO, Level.WARN, Level.ERROR};

    private static final List<Map<String, String>> MDCS = List.of(Map.of(), Map.of("user", "ünïcode"),
            Map.of("traceId", "0123456789abcdef0123456789abcdef", "spanId", "0123456789abcdef"),
            Map.of("traceId", "fedcba9876543210fedcba9876543210", "spanId", "0011223344556677", "requestId", "req-42"),
            Map.of("traceId", "short"), Map.of("spanId", "only-a-span-id-longer-than-its-width"), Map.of("requestId", ""));

    /** An event of every kind in turn: levels, loggers under and over 39 characters, threads, MDC, throwables, key-values, markers. */
    private static ILoggingEvent event(Random random, int i) {
        String loggerName = switch (random.nextInt(4)) {
            case 0 -> "com.example.orders.OrderService";
            case 1 -> "com.example.a.very.long.package.name.that.goes.on.and.on.OrderRepositoryImplementation";
            case 2 -> "ROOT";
            default -> "x" + random.nextInt(50);
        };
        Logger logger = loggerContext().getLogger(loggerName);
        Throwable error = null;
        if (random.nextInt(40) == 0) {
            error = new IllegalStateException("failed ✓ " + i, new RuntimeException("cause"));
            error.setStackTrace(new StackTraceElement[] {new StackTraceElement("com.example.Service", "call", "Service.java", 42)});
            error.getCause().setStackTrace(new StackTraceElement[] {new StackTraceElement("com.example.Dao", "load", null, -1)});
        }
        LoggingEvent event = new LoggingEvent(Logger.class.getName(), logger, LEVELS[random.nextInt(LEVELS.length)],
                random.nextInt(10) == 0 ? "Ärger {} mit 中文 😀" : "Order {} shipped", null, new Object[] {i});
        if (error != null) {
            event.setThrowableProxy(new ThrowableProxy(error));
        }
        event.setThreadName(switch (random.nextInt(3)) {
            case 0 -> "main";
            case 1 -> "http-nio-8080-exec-10";
            default -> "a-thread-with-a-name-far-longer-than-fifteen-" + random.nextInt(3);
        });
        event.setMDCPropertyMap(MDCS.get(random.nextInt(MDCS.size())));
        event.setTimeStamp(1_764_000_000_000L + i / 3 + (random.nextInt(50) == 0 ? 3_600_000L : 0));
        if (random.nextInt(5) == 0) {
            event.addMarker(MarkerFactory.getMarker("AUDIT"));
        }
        if (random.nextInt(5) == 0) {
            event.addKeyValuePair(new org.slf4j.event.KeyValuePair("orderId", i));
        }
        return event;
    }

    /** 100,000 encodings of one thread's busy span (same trace, same logger) allocate at most a few kilobytes. */
    private static void assertAllocatesNothing(PatternEncoding fast) {
        java.lang.management.ThreadMXBean bean = java.lang.management.ManagementFactory.getThreadMXBean();
        assumeTrue(bean instanceof com.sun.management.ThreadMXBean, "no allocation counter here");
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) bean;
        LoggingEvent event = tracedEvent();
        event.getFormattedMessage();
        long total = 0;
        for (int i = 0; i < 20_000; i++) {
            total += fast.encode(event).length;
        }
        long id = Thread.currentThread().getId();
        long before = threads.getThreadAllocatedBytes(id);
        for (int i = 0; i < 100_000; i++) {
            total += fast.encode(event).length;
        }
        long allocated = threads.getThreadAllocatedBytes(id) - before;
        assertThat(total).isEqualTo(120_000L * fast.encode(event).length);
        assertThat(allocated).as("bytes allocated by 100,000 encodings").isLessThan(16 * 1024);
    }

    private static LoggingEvent tracedEvent() {
        LoggingEvent event = new LoggingEvent(Logger.class.getName(), loggerContext().getLogger("com.example.orders.OrderService"),
                Level.INFO, "Order 4711 shipped", null, null);
        event.setThreadName("http-nio-8080-exec-1");
        event.setMDCPropertyMap(MDCS.get(2));
        return event;
    }

    @SpringBootConfiguration
    static class Config {
    }
}
