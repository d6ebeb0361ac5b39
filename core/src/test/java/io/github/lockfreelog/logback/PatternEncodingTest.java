package io.github.lockfreelog.logback;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.classic.spi.ThrowableProxy;
import ch.qos.logback.core.pattern.PatternLayoutBase;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.MarkerFactory;

/** The allocation-free pattern path must give exactly the bytes of {@code encoder.encode(event)}. */
class PatternEncodingTest {

    @TempDir
    Path dir;

    final LoggerContext context = TestAppenders.newContext();

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
                PatternEncoding.Scratch actual = fast.encode(event);
                assertThat(actual).isNotNull();
                assertThat(Arrays.copyOf(actual.bytes, actual.length)).as("%s / %s", pattern, message).isEqualTo(expected);
            }
        }
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
        PatternEncoding.Scratch actual = fast.encode(event);
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
        String longer = "y".repeat(PatternEncoding.MAX_CHARS + 1);
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
        List<String> lines = TestAppenders.lines(log);
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

    static final class ThrowableProxyHolder {
        final Throwable error = new IllegalArgumentException("deep");
        final ThrowableProxy proxy = new ThrowableProxy(error);
    }
}
