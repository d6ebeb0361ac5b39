package io.github.lockfreelog.bootpatterns;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.classic.spi.ThrowableProxy;
import ch.qos.logback.core.encoder.Encoder;
import io.github.lockfreelog.logback.LockFreeFileAppender;
import io.github.lockfreelog.logback.encoding.PatternEncoding;
import io.github.lockfreelog.testsupport.Allocations;
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

    @BeforeEach
    @AfterEach
    void asInANewJvm() {
        BootEncoders.asInANewJvm();
    }

    private List<Encoder<ILoggingEvent>> bootEncoders(String... properties) {
        return BootEncoders.of(dir, properties);
    }

    private static LoggerContext loggerContext() {
        return BootEncoders.loggerContext();
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

    /**
     * The caller's whole path through the lock-free file appender (filters, encoding with Spring Boot's own FILE
     * encoder, the journal), as a logger call takes it once Logback has made the event: 100,000 calls allocate at
     * most a few kilobytes, and every line reaches the file. (A logger call also makes Logback's event, whatever
     * the appender; that is Logback's allocation, not the appender's.)
     */
    @Test
    void theFileAppendersCallerPathAllocatesNothingWithBootsFilePattern() throws Exception {
        Encoder<ILoggingEvent> file = bootEncoders("spring.output.ansi.enabled=never",
                "spring.application.name=orders-service").get(1);
        LockFreeFileAppender appender = new LockFreeFileAppender();
        appender.setContext(loggerContext());
        appender.setName("CALLER_PATH");
        appender.setFile(dir.resolve("caller-path.log").toString());
        appender.setEncoder(file);
        appender.start();
        assertThat(appender.isStarted()).isTrue();
        LoggingEvent event = tracedEvent();
        event.getFormattedMessage();
        long allocated;
        try {
            Runnable append = () -> appender.doAppend(event);
            Allocations.allocatedBy(append, 50_000); // warm up, and keep this thread's parts
            allocated = Allocations.allocatedBy(append, 100_000);
        } finally {
            appender.stop();
        }
        assertThat(allocated).as("bytes allocated by 100,000 appends").isLessThan(16 * 1024);
        assertThat(appender.getStatistics().dropped()).isZero();
        String line = new String(file.encode(event), StandardCharsets.UTF_8);
        List<String> lines = java.nio.file.Files.readAllLines(dir.resolve("caller-path.log"));
        assertThat(lines).hasSize(150_000);
        assertThat(lines).allMatch(written -> (written + "\n").equals(line));
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
            BootEncoders.assertSameBytes(encoder, fast, 3000, i -> event(random, i));
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
        LoggingEvent event = tracedEvent();
        event.getFormattedMessage();
        long[] total = {0};
        Runnable encode = () -> total[0] += fast.encode(event).length;
        Allocations.allocatedBy(encode, 20_000); // warm up, and keep this thread's parts
        long allocated = Allocations.allocatedBy(encode, 100_000);
        assertThat(total[0]).as("every encoding whole").isEqualTo(120_000L * fast.encode(event).length);
        assertThat(allocated).as("bytes allocated by 100,000 encodings").isLessThan(16 * 1024);
    }

    private static LoggingEvent tracedEvent() {
        LoggingEvent event = new LoggingEvent(Logger.class.getName(), loggerContext().getLogger("com.example.orders.OrderService"),
                Level.INFO, "Order 4711 shipped", null, null);
        event.setThreadName("http-nio-8080-exec-1");
        event.setMDCPropertyMap(MDCS.get(2));
        return event;
    }
}
