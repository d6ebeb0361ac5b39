package io.github.lockfreelog.logback.encoding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.classic.spi.ThrowableProxy;
import ch.qos.logback.core.pattern.PatternLayoutBase;
import io.github.lockfreelog.logback.LockFreeFileAppender;
import io.github.lockfreelog.testing.TestAppenders;
import io.github.lockfreelog.testsupport.TestLogback;
import io.github.lockfreelog.testsupport.TestThreads;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.MarkerFactory;
import org.slf4j.event.KeyValuePair;

/** The allocation-free pattern path must give exactly the bytes of {@code encoder.encode(event)}. */
class PatternEncodingTest {

    @TempDir
    Path dir;

    final LoggerContext context = TestLogback.newContext();

    private PatternLayoutEncoder encoder(String pattern) {
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(context);
        encoder.setPattern(pattern);
        encoder.setCharset(StandardCharsets.UTF_8);
        encoder.start();
        return encoder;
    }

    private ILoggingEvent event(String message, Throwable error, Object... args) {
        LoggingEvent event = new LoggingEvent("com.example.Caller", context.getLogger("com.example.service.OrderService"),
                Level.WARN, message, error, args);
        event.setThreadName("worker-7");
        event.setMDCPropertyMap(Map.of("user", "ünïcode-user"));
        event.addMarker(MarkerFactory.getMarker("AUDIT"));
        return event;
    }

    @Test
    void readsTheConverterChainOfThisLogbackVersion() {
        assertThat(PatternEncoding.available())
                .as("PatternLayoutBase.head (a private Converter field) is not readable in Logback %s: the allocation-free "
                        + "pattern path is off for every appender; update PatternEncoding and the native-image hints "
                        + "(LockFreeLogRuntimeHints) for this version", PatternLayoutBase.class.getPackage().getImplementationVersion())
                .isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "%d{yyyy-MM-dd'T'HH:mm:ss.SSSXXX} %5p --- [%t] %-40.40logger{39} : %m%n%ex",
        "%-5level [%thread] %logger{36} %X{user} %marker - %msg%n",
        "%replace(%msg){'\\s', '_'}%n",
        "%highlight(%level) %cyan(%logger) %m %kvp%n",
        "%m",
    })
    void givesTheEncodersBytesForEveryKindOfText(String pattern) {
        PatternLayoutEncoder encoder = encoder(pattern);
        PatternEncoding fast = PatternEncoding.of(encoder);
        assertThat(fast).isNotNull();
        Random random = new Random(42);
        List<String> messages = List.of("plain ascii", "é à ü ß", "中文日志", "emoji 😀 in the middle",
                "lone high \uD800 surrogate", "lone low \uDC00 surrogate", "ends with high \uD83D", "", "x".repeat(5000),
                "args {} and {}", randomText(random, 300), randomText(random, 3000));
        for (String message : messages) {
            for (Throwable error : Arrays.asList(null, shallow(new IllegalStateException("bad ✓", shallow(new RuntimeException("cause")))))) {
                ILoggingEvent event = event(message, error, 42, "ärg");
                byte[] expected = encoder.encode(event);
                EncodingScratch actual = fast.encode(event);
                assertThat(actual).isNotNull();
                assertThat(Arrays.copyOf(actual.bytes, actual.length)).as("%s / %s", pattern, message).isEqualTo(expected);
            }
        }
    }

    /**
     * The parts kept per thread (level, thread, logger, date, literals) must change with what they
     * depend on: every level, renamed threads, more loggers than a thread keeps (so that they evict
     * each other), a new millisecond, and padding or truncation on each part.
     */
    @ParameterizedTest
    @ValueSource(strings = {
        "%d{yyyy-MM-dd'T'HH:mm:ss.SSSXXX} %5p 12345 --- [%t] %-40.40logger{39} : %m%n%ex",
        "%-25d{HH:mm:ss.SSS, Europe/Berlin}|%.3level|%-12.-4thread|%-10.10logger{5}|%-30msg|%20.20m|%n",
        "%date %level %thread %logger %msg %d %p %t %c %m%n",
        "%d{yyyy-MM-dd'T'HH:mm:ss.SSS}",
    })
    void partsKeptPerThreadFollowWhatTheyDependOn(String pattern) throws Exception {
        PatternLayoutEncoder encoder = encoder(pattern);
        PatternEncoding fast = PatternEncoding.of(encoder);
        Level[] levels = {Level.TRACE, Level.DEBUG, Level.INFO, Level.WARN, Level.ERROR};
        Random random = new Random(7);
        long start = 1_764_000_000_000L;
        int checked = 0;
        for (int i = 0; i < 4000; i++) {
            String loggerName = "com.example.module" + random.nextInt(80) + ".service.Component" + random.nextInt(3);
            if (i % 500 == 0) {
                loggerName = "ü.unicode.Lögger";
            }
            LoggingEvent event = new LoggingEvent("com.example.Caller", context.getLogger(loggerName),
                    levels[random.nextInt(levels.length)], "message {} ✓", null, new Object[] {i});
            String thread = random.nextInt(10) == 0 ? "renamed-" + random.nextInt(5) : "worker-" + (i / 100);
            event.setThreadName(random.nextInt(50) == 0 ? "ünï-thread" : thread);
            event.setTimeStamp(start + i / 3 + (random.nextInt(20) == 0 ? 86_400_000L : 0));
            byte[] expected = encoder.encode(event);
            EncodingScratch actual = fast.encode(event);
            assertThat(actual).isNotNull();
            assertThat(new String(actual.bytes, 0, actual.length, StandardCharsets.UTF_8)).as("event %d", i)
                    .isEqualTo(new String(expected, StandardCharsets.UTF_8));
            assertThat(Arrays.copyOf(actual.bytes, actual.length)).isEqualTo(expected);
            checked++;
        }
        // the same from other threads, each with its own kept parts, after this thread filled its own
        Thread[] others = new Thread[3];
        List<Throwable> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
        for (int t = 0; t < others.length; t++) {
            int index = t;
            others[t] = new Thread(() -> {
                try {
                    for (int i = 0; i < 500; i++) {
                        LoggingEvent event = new LoggingEvent("com.example.Caller",
                                context.getLogger("com.example.other" + (i % 40)), levels[(i + index) % levels.length],
                                "from another thread", null, null);
                        event.setTimeStamp(start + i);
                        byte[] expected = encoder.encode(event);
                        EncodingScratch actual = fast.encode(event);
                        assertThat(Arrays.copyOf(actual.bytes, actual.length)).isEqualTo(expected);
                    }
                } catch (Throwable e) {
                    failures.add(e);
                }
            }, "other-" + t);
            others[t].start();
        }
        for (Thread other : others) {
            other.join();
        }
        assertThat(failures).isEmpty();
        assertThat(checked).isEqualTo(4000);
    }

    @Test
    void aLayoutStartedAgainWithAnotherPatternIsFollowed() {
        PatternLayoutEncoder encoder = encoder("[%t] %m%n");
        PatternEncoding fast = PatternEncoding.of(encoder);
        ILoggingEvent event = event("first", null);
        assertThat(new String(fast.encode(event).bytes, 0, fast.encode(event).length, StandardCharsets.UTF_8))
                .isEqualTo("[worker-7] first\n");
        encoder.getLayout().stop();
        ((ch.qos.logback.classic.PatternLayout) encoder.getLayout()).setPattern("%level %m%n");
        encoder.getLayout().start();
        EncodingScratch again = fast.encode(event);
        assertThat(new String(again.bytes, 0, again.length, StandardCharsets.UTF_8)).isEqualTo("WARN first\n");
    }

    @Test
    void allocatesNothingOnceAThreadsPartsAreKept() {
        PatternEncoding fast = PatternEncoding.of(encoder("%d{yyyy-MM-dd'T'HH:mm:ss.SSSXXX} %5p 12345 --- [%t] %-40.40logger{39} : %m%n%ex"));
        LoggingEvent event = new LoggingEvent("com.example.Caller", context.getLogger("com.example.orders.OrderService"),
                Level.INFO, "Order 4711 shipped ✓", null, null);
        event.setThreadName("app-worker-01");
        EncodingAllocations.assertEncodesWithoutAllocating(fast, event);
    }

    /** A short stack trace, so that every event here stays within the fast path's length. */
    private static Throwable shallow(Throwable error) {
        error.setStackTrace(new StackTraceElement[] {new StackTraceElement("com.example.Service", "call", "Service.java", 42),
            new StackTraceElement("com.example.Main", "main", "Main.java", 7)});
        return error;
    }

    private static String randomText(Random random, int length) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < length; i++) {
            text.append((char) random.nextInt(0x10000)); // any char, surrogates included, paired or not
        }
        return text.toString();
    }

    @Test
    void alsoServesALayoutWrappingEncoderWithAPatternLayoutAndCustomConverters() {
        ch.qos.logback.classic.PatternLayout layout = new ch.qos.logback.classic.PatternLayout();
        layout.setContext(context);
        layout.getInstanceConverterMap().put("shout", Shout::new);
        layout.setPattern("%-5level %shout(%msg) [%thread]%n");
        layout.start();
        ch.qos.logback.core.encoder.LayoutWrappingEncoder<ILoggingEvent> encoder =
                new ch.qos.logback.core.encoder.LayoutWrappingEncoder<>();
        encoder.setContext(context);
        encoder.setLayout(layout);
        encoder.setCharset(StandardCharsets.UTF_8);
        encoder.start();
        PatternEncoding fast = PatternEncoding.of(encoder);
        assertThat(fast).isNotNull();
        ILoggingEvent event = event("quiet ü 😀", null);
        EncodingScratch actual = fast.encode(event);
        assertThat(new String(actual.bytes, 0, actual.length, StandardCharsets.UTF_8)).isEqualTo("WARN  QUIET Ü 😀 [worker-7]\n");
        assertThat(Arrays.copyOf(actual.bytes, actual.length)).isEqualTo(encoder.encode(event));
    }

    /** A custom composite converter, as Spring Boot registers its own conversion words. */
    public static final class Shout extends ch.qos.logback.core.pattern.CompositeConverter<ILoggingEvent> {
        @Override
        protected String transform(ILoggingEvent event, String in) {
            return in.toUpperCase(java.util.Locale.ROOT);
        }
    }

    @Test
    void isNotUsedWhereItCouldDiffer() {
        PatternLayoutEncoder latin1 = encoder("%m%n");
        latin1.setCharset(StandardCharsets.ISO_8859_1);
        assertThat(PatternEncoding.of(latin1)).isNull();
        PatternLayoutEncoder subclass = new PatternLayoutEncoder() {
        };
        subclass.setContext(context);
        subclass.setPattern("%m%n");
        subclass.start();
        assertThat(PatternEncoding.of(subclass)).isNull();
        assertThat(PatternEncoding.of(new ch.qos.logback.classic.encoder.JsonEncoder())).isNull();
    }

    @Test
    void anEventTooLongForTheFastPathIsEncodedTheOrdinaryWay() throws Exception {
        PatternLayoutEncoder encoder = encoder("%m%n");
        PatternEncoding fast = PatternEncoding.of(encoder);
        String longer = "y".repeat(EncodingScratch.MAX_BYTES + 1);
        assertThat(fast.encode(event(longer, null))).isNull();

        Path log = dir.resolve("long.log");
        LockFreeFileAppender appender = TestAppenders.start(context, log, a -> {
            a.setEncoder(encoder);
            a.setBufferSize(ch.qos.logback.core.util.FileSize.valueOf("256KB"));
        });
        appender.doAppend(event("short", null));
        appender.doAppend(event(longer, null));
        appender.doAppend(event("after ✓", null));
        appender.stop();
        List<String> lines = TestLogback.lines(log);
        assertThat(lines).hasSize(3);
        assertThat(lines.get(0)).isEqualTo("short");
        assertThat(lines.get(1).equals(longer)).as("the long line is whole").isTrue();
        assertThat(lines.get(2)).isEqualTo("after ✓");
    }

    @Test
    void aStoppedLayoutWritesNothing() {
        PatternLayoutEncoder encoder = encoder("%m%n");
        PatternEncoding fast = PatternEncoding.of(encoder);
        encoder.getLayout().stop();
        assertThat(fast.encode(event("gone", null)).length).isZero();
        assertThat(encoder.encode(event("gone", null))).isEmpty();
    }

    @Test
    void threadErrorsHaveTheirStackTraces() {
        PatternLayoutEncoder encoder = encoder("%m%n%ex{3}");
        ILoggingEvent event = event("failed", new ThrowableProxyHolder().error);
        assertThat(new String(Arrays.copyOf(PatternEncoding.of(encoder).encode(event).bytes,
                PatternEncoding.of(encoder).encode(event).length), StandardCharsets.UTF_8))
                .startsWith("failed\njava.lang.IllegalArgumentException: deep").isEqualTo(
                        new String(encoder.encode(event), StandardCharsets.UTF_8));
    }

    @Test
    void virtualThreadsBorrowFromABoundedPoolAndGetTheEncodersBytes() throws Exception {
        ExecutorService executor = TestThreads.virtualThreadPerTask();
        assumeTrue(executor != null, "virtual threads need Java 21");
        PatternLayoutEncoder encoder = encoder("%-5level [%thread] %logger{36} - %msg%n");
        PatternEncoding fast = PatternEncoding.of(encoder);
        Set<EncodingScratch> used = ConcurrentHashMap.newKeySet();
        List<Future<String>> results = new ArrayList<>();
        try {
            for (int i = 0; i < 2_000; i++) {
                ILoggingEvent event = event("event " + i, null);
                results.add(executor.submit(() -> {
                    EncodingScratch s = fast.encode(event);
                    if (s == null) {
                        return "every pooled scratch lent";
                    }
                    try {
                        used.add(s);
                        return s.home == EncodingScratch.OWN ? "a thread-local scratch"
                                : new String(Arrays.copyOf(s.bytes, s.length), StandardCharsets.UTF_8);
                    } finally {
                        fast.release(s);
                    }
                }));
            }
            for (int i = 0; i < results.size(); i++) {
                assertThat(results.get(i).get()).isEqualTo(new String(encoder.encode(event("event " + i, null)),
                        StandardCharsets.UTF_8));
            }
        } finally {
            executor.shutdown();
            assertThat(executor.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(used).as("scratches used by 2,000 virtual threads").isNotEmpty().hasSizeLessThanOrEqualTo(fast.pool.size());
    }

    @Test
    void aVirtualThreadGivesItsPooledScratchBackWhenAConverterThrows() throws Exception {
        ExecutorService executor = TestThreads.virtualThreadPerTask();
        assumeTrue(executor != null, "virtual threads need Java 21");
        PatternLayoutEncoder encoder = encoder("%m %kvp%n");
        PatternEncoding fast = PatternEncoding.of(encoder);
        try {
            for (int i = 0; i < 3 * fast.pool.size(); i++) {
                LoggingEvent bad = (LoggingEvent) event("bad " + i, null);
                bad.addKeyValuePair(new KeyValuePair("order", new Object() {
                    @Override
                    public String toString() {
                        throw new IllegalStateException("cannot print this value");
                    }
                }));
                Future<?> failed = executor.submit(() -> fast.encode(bad));
                assertThat(failed).failsWithin(30, TimeUnit.SECONDS);
            }
            ILoggingEvent good = event("good", null);
            Future<Boolean> pooled = executor.submit(() -> {
                EncodingScratch s = fast.encode(good);
                try {
                    return s != null && s.home != EncodingScratch.OWN;
                } finally {
                    if (s != null) {
                        fast.release(s);
                    }
                }
            });
            assertThat(pooled.get(30, TimeUnit.SECONDS)).as("a pooled scratch is lent after %d failures",
                    3 * fast.pool.size()).isTrue();
        } finally {
            executor.shutdown();
            assertThat(executor.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
        }
    }

    @Test
    void aPoolLendsEachScratchOnceAndNoneWhenAllAreLent() {
        ScratchPool pool = new ScratchPool(2);
        EncodingScratch first = pool.take();
        EncodingScratch second = pool.take();
        assertThat(first).isNotNull().isNotSameAs(second);
        assertThat(second).isNotNull();
        assertThat(pool.take()).as("every scratch is lent").isNull();
        pool.give(second);
        assertThat(pool.take()).isSameAs(second);
    }

    static final class ThrowableProxyHolder {
        final Throwable error = new IllegalArgumentException("deep");
        final ThrowableProxy proxy = new ThrowableProxy(error);
    }
}
