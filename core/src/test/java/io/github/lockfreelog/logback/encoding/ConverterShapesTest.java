package io.github.lockfreelog.logback.encoding;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.PatternLayout;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.classic.spi.ThrowableProxy;
import ch.qos.logback.core.encoder.LayoutWrappingEncoder;
import io.github.lockfreelog.testsupport.TestLogback;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Converters described by a {@link ConverterShapes} provider ({@link TestShapes}, as the Spring Boot
 * starter describes Spring Boot's): taken apart or kept by what they depend on, with exactly the
 * encoder's bytes, and written the ordinary way wherever the description cannot be used.
 */
class ConverterShapesTest {

    final LoggerContext context = TestLogback.newContext();

    @AfterEach
    void quiet() {
        TestShapes.loud = Boolean.FALSE;
    }

    private LayoutWrappingEncoder<ILoggingEvent> encoder(String pattern) {
        PatternLayout layout = new PatternLayout();
        layout.setContext(context);
        layout.getInstanceConverterMap().put("bracket", TestShapes.Bracket::new);
        layout.getInstanceConverterMap().put("liar", TestShapes.Liar::new);
        layout.getInstanceConverterMap().put("plain", TestShapes.Plain::new);
        layout.getInstanceConverterMap().put("tenant", TestShapes.Tenant::new);
        layout.getInstanceConverterMap().put("unanswerable", TestShapes.Unanswerable::new);
        layout.setPattern(pattern);
        layout.start();
        LayoutWrappingEncoder<ILoggingEvent> encoder = new LayoutWrappingEncoder<>();
        encoder.setContext(context);
        encoder.setLayout(layout);
        encoder.setCharset(StandardCharsets.UTF_8);
        encoder.start();
        return encoder;
    }

    private LoggingEvent event(Level level, String logger, String thread, Map<String, String> mdc, long millis) {
        LoggingEvent event = new LoggingEvent("com.example.Caller", context.getLogger(logger), level, "message {} ✓", null,
                new Object[] {millis});
        event.setThreadName(thread);
        event.setMDCPropertyMap(mdc);
        event.setTimeStamp(millis);
        return event;
    }

    private static String text(EncodingScratch s) {
        return new String(s.bytes, 0, s.length, StandardCharsets.UTF_8);
    }

    @Test
    void theProviderOnTheClassPathIsFound() {
        assertThat(PatternEncoding.shapeProviders()).containsExactly(TestShapes.class.getName());
    }

    @Test
    void aWrapperIsTakenApartAndAKeyedConverterKeptAroundTheSegmentsOfItsChildren() {
        PatternEncoding fast = PatternEncoding.of(encoder("%bracket(%d{HH:mm:ss.SSS} %5level [%thread]) %tenant %bracket(%logger) : %m%n"));
        EncodingScratch s = fast.encode(event(Level.INFO, "com.example.A", "main", Map.of(), 0));
        // the first wrapper's suffix is the same for every level: a constant, joined with the text around it
        // (Logback's PatternLayout adds %ex at the end of a pattern without one)
        assertThat(Arrays.stream(s.plan.segments).map(segment -> segment.kind).toList()).containsExactly(
                SegmentKind.BY_LEVEL, SegmentKind.DATE, SegmentKind.CONSTANT, SegmentKind.LEVEL, SegmentKind.CONSTANT,
                SegmentKind.THREAD, SegmentKind.CONSTANT, SegmentKind.KEYED, SegmentKind.CONSTANT, SegmentKind.BY_LEVEL,
                SegmentKind.LOGGER, SegmentKind.CONSTANT, SegmentKind.MESSAGE, SegmentKind.CONSTANT, SegmentKind.THROWABLE);
        assertThat(new String(s.plan.segments[6].constant, StandardCharsets.UTF_8)).isEqualTo("]> ");
        // around the keyed converter, two runs: from the first prefix to "]> ", from " " to "> : "
        assertThat(s.plan.runs[0]).isNotNull();
        assertThat(s.plan.runs[0].end).isEqualTo(7);
        assertThat(s.plan.runs[8]).isNotNull();
        assertThat(s.plan.runs[8].end).isEqualTo(12);
    }

    @Test
    void wrappersThatAddNothingLeaveTheSegmentsOfThePatternWithoutThem() {
        // Spring Boot's console pattern with ANSI colours off encodes as its file pattern does
        PatternEncoding wrapped = PatternEncoding.of(encoder("%plain(%d{HH:mm:ss.SSS}){faint} %plain(%5p) %plain(--- [%15.15t]){faint}"
                + "%plain(%-40.40logger{39}){cyan} %plain(:){faint} %m%n"));
        PatternEncoding bare = PatternEncoding.of(encoder("%d{HH:mm:ss.SSS} %5p --- [%15.15t]%-40.40logger{39} : %m%n"));
        LoggingEvent event = event(Level.INFO, "com.example.A", "main", Map.of(), 0);
        EncodingScratch a = wrapped.encode(event);
        List<SegmentKind> wrappedKinds = Arrays.stream(a.plan.segments).map(segment -> segment.kind).toList();
        String wrappedText = text(a);
        EncodingScratch b = bare.encode(event);
        assertThat(wrappedKinds).isEqualTo(Arrays.stream(b.plan.segments).map(segment -> segment.kind).toList());
        assertThat(wrappedText).isEqualTo(text(b));
        assertThat(a.plan.runs[0].end).isEqualTo(b.plan.runs[0].end);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "%bracket(%d{HH:mm:ss.SSS} %5level [%15.15thread]) %tenant %bracket(%-20.20logger{15}) : %m%n%ex",
        "%bracket(%bracket(%level) %tenant) %bracket() %bracket(x) %m%n",
        "%-30bracket(%level %thread)|%liar(%level)|%unanswerable|%m%n", // taken apart: none of these three
        "%bracket(%m)%n",
    })
    void givesTheEncodersBytesForEveryEvent(String pattern) {
        LayoutWrappingEncoder<ILoggingEvent> encoder = encoder(pattern);
        PatternEncoding fast = PatternEncoding.of(encoder);
        Level[] levels = {Level.TRACE, Level.DEBUG, Level.INFO, Level.WARN, Level.ERROR};
        List<Map<String, String>> mdcs = List.of(Map.of(), Map.of("tenant", "acme"), Map.of("tenant", "acme", "zone", "eu-1"),
                Map.of("tenant", "ünï", "zone", "eu-1"), new HashMap<>(Map.of("zone", "us")));
        Random random = new Random(3);
        for (int i = 0; i < 3000; i++) {
            if (i == 1000 || i == 2000) {
                TestShapes.loud = !TestShapes.loud; // the plan is read again, and its prefixes change
            }
            LoggingEvent event = event(levels[random.nextInt(levels.length)], "com.example.module" + random.nextInt(5) + ".Service",
                    random.nextInt(4) == 0 ? "a-rather-long-thread-name-" + i : "worker-" + random.nextInt(3),
                    mdcs.get(random.nextInt(mdcs.size())), 1_764_000_000_000L + i / 4);
            if (i % 97 == 0) {
                IllegalStateException error = new IllegalStateException("bad " + i);
                error.setStackTrace(new StackTraceElement[] {new StackTraceElement("com.example.Service", "call", "Service.java", 42)});
                event.setThrowableProxy(new ThrowableProxy(error));
            }
            byte[] expected = encoder.encode(event);
            EncodingScratch actual = fast.encode(event);
            assertThat(actual).isNotNull();
            assertThat(text(actual)).as("event %d", i).isEqualTo(new String(expected, StandardCharsets.UTF_8));
            assertThat(Arrays.copyOf(actual.bytes, actual.length)).isEqualTo(expected);
        }
    }

    @Test
    void whereTheDescriptionCannotBeUsedTheConverterWritesAsAnyOther() {
        PatternEncoding fast = PatternEncoding.of(encoder("%-30bracket(%level)|%liar(%level)|%unanswerable|%m"));
        EncodingScratch s = fast.encode(event(Level.WARN, "com.example.A", "main", Map.of(), 0));
        assertThat(text(s)).isEqualTo("<W:WARN>                      |WARNWARN|(WARN)|message 0 ✓");
        assertThat(Arrays.stream(s.plan.segments).map(segment -> segment.kind).toList()).containsExactly(
                SegmentKind.OTHER, SegmentKind.CONSTANT, SegmentKind.OTHER, SegmentKind.CONSTANT, SegmentKind.OTHER,
                SegmentKind.CONSTANT, SegmentKind.MESSAGE, SegmentKind.THROWABLE);
    }

    @Test
    void aKeyedConverterIsCalledOnlyWhenAValueItDependsOnChanges() {
        PatternEncoding fast = PatternEncoding.of(encoder("%tenant %m%n"));
        int before = TestShapes.Tenant.CALLS.get();
        String[] expected = new String[6];
        List<Map<String, String>> mdcs = List.of(Map.of("tenant", "a"), Map.of("tenant", "a"), Map.of("tenant", "a", "other", "x"),
                Map.of("tenant", "b"), Map.of("tenant", "b", "zone", "z"), Map.of("tenant", "b", "zone", "z"));
        for (int i = 0; i < mdcs.size(); i++) {
            LoggingEvent event = event(Level.INFO, "com.example.A", "main", mdcs.get(i), 0);
            expected[i] = "[" + mdcs.get(i).get("tenant") + "/" + mdcs.get(i).get("zone") + "] message 0 ✓\n";
            assertThat(text(fast.encode(event))).isEqualTo(expected[i]);
        }
        // a, then b, then b with a zone: three calls for six events (another MDC entry changes nothing)
        assertThat(TestShapes.Tenant.CALLS.get() - before).isEqualTo(3);
    }

    @Test
    void allocatesNothingForWrappedAndKeyedConvertersOnceAThreadsPartsAreKept() {
        PatternEncoding fast = PatternEncoding.of(encoder("%bracket(%d{yyyy-MM-dd'T'HH:mm:ss.SSSXXX}) %bracket(%5p) %tenant"
                + "%bracket([%15.15t]) %bracket(%-40.40logger{39}) %bracket(:) %m%n%ex"));
        Map<String, String> mdc = Map.of("tenant", "acme", "zone", "eu-1");
        EncodingAllocations.assertEncodesWithoutAllocating(fast,
                event(Level.INFO, "com.example.orders.OrderService", "app-worker-01", mdc, System.currentTimeMillis()));
    }
}
