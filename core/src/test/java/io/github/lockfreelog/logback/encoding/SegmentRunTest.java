package io.github.lockfreelog.logback.encoding;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.pattern.DateConverter;
import ch.qos.logback.classic.pattern.ExtendedThrowableProxyConverter;
import ch.qos.logback.classic.pattern.LevelConverter;
import ch.qos.logback.classic.pattern.LineSeparatorConverter;
import ch.qos.logback.classic.pattern.LoggerConverter;
import ch.qos.logback.classic.pattern.MessageConverter;
import ch.qos.logback.classic.pattern.ThreadConverter;
import ch.qos.logback.classic.pattern.ThrowableProxyConverter;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.core.pattern.Converter;
import ch.qos.logback.core.pattern.FormatInfo;
import ch.qos.logback.core.pattern.LiteralConverter;
import io.github.lockfreelog.testsupport.TestLogback;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The runs of kept segments that a thread writes with one copy: which stretches of a pattern form
 * one, and that a kept run is written again whenever anything it depends on changes.
 */
class SegmentRunTest {

    final LoggerContext context = TestLogback.newContext();

    @Test
    void aRunIsEachLongestStretchOfSegmentsThatDependOnlyOnTheKeysARunKeeps() {
        // Spring Boot's file pattern: one run from the date to the " : " before the message
        Segment[] boot = segments(List.of(new DateConverter(), literal(" "), new LevelConverter(), literal(" 12345 --- ["),
                new ThreadConverter(), literal("] "), new LoggerConverter(), literal(" : "), new MessageConverter(),
                new LineSeparatorConverter(), new ThrowableProxyConverter()));
        assertThat(describe(boot)).containsExactly("0..8");

        // two dates depend on the same millisecond: one run
        Segment[] twoDates = segments(List.of(new DateConverter(), literal("|"), new DateConverter(), literal("|"),
                new LevelConverter()));
        assertThat(describe(twoDates)).containsExactly("0..5");

        // prefixes and suffixes by level (Spring Boot's %clr with colours) join the run around the level
        Segment[] coloured = {Segment.byLevel(new byte[][] {{'a'}, {'b'}, {'c'}, {'d'}, {'e'}}), Segment.of(new LevelConverter()),
            Segment.byLevel(new byte[][] {{'z'}, {'y'}, {'x'}, {'w'}, {'v'}}), Segment.of(new MessageConverter())};
        assertThat(coloured[0].kind).isEqualTo(SegmentKind.BY_LEVEL);
        assertThat(describe(coloured)).containsExactly("0..3");

        // a lone kept segment is no run; the message and other converters end a run
        Segment[] apart = segments(List.of(literal("a"), new MessageConverter(), literal("b"), new LineSeparatorConverter(),
                new MessageConverter(), new LevelConverter()));
        assertThat(describe(apart)).containsExactly("2..4");
    }

    @Test
    void throwableConvertersWithoutPaddingWriteNothingForAnEventWithoutAThrowable() {
        assertThat(Segment.of(new ThrowableProxyConverter()).kind).isEqualTo(SegmentKind.THROWABLE);
        assertThat(Segment.of(new ExtendedThrowableProxyConverter()).kind).isEqualTo(SegmentKind.THROWABLE);
        // a subclass that prints throwables its own way (as Spring Boot's %wEx does) keeps convert's empty output
        assertThat(Segment.of(new ExtendedThrowableProxyConverter() {
            @Override
            protected String throwableProxyToString(IThrowableProxy tp) {
                return "[" + super.throwableProxyToString(tp) + "]";
            }
        }).kind).isEqualTo(SegmentKind.THROWABLE);
        // one that converts its own way, or pads, goes through the converter
        assertThat(Segment.of(new ThrowableProxyConverter() {
            @Override
            public String convert(ILoggingEvent event) {
                return "no throwable";
            }
        }).kind).isEqualTo(SegmentKind.OTHER);
        ThrowableProxyConverter padded = new ThrowableProxyConverter();
        padded.setFormattingInfo(new FormatInfo(10, Integer.MAX_VALUE));
        assertThat(Segment.of(padded).kind).isEqualTo(SegmentKind.OTHER);
    }

    @Test
    void aKeptRunIsWrittenAgainWheneverAnythingItDependsOnChanges() {
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(context);
        encoder.setPattern("%d{HH:mm:ss.SSS} %-5level [%thread] %logger{20} : %m%n%ex");
        encoder.setCharset(StandardCharsets.UTF_8);
        encoder.start();
        PatternEncoding fast = PatternEncoding.of(encoder);
        long start = 1_764_000_000_000L;
        String name = "worker-1";
        List<LoggingEvent> events = new ArrayList<>();
        events.add(event("com.example.A", Level.INFO, name, start));
        events.add(event("com.example.A", Level.INFO, name, start)); // all the same: written from the kept run
        events.add(event("com.example.A", Level.INFO, name, start + 1)); // the millisecond
        events.add(event("com.example.A", Level.ERROR, name, start + 1)); // the level
        events.add(event("com.example.A", Level.ERROR, "worker-2", start + 1)); // the thread's name
        events.add(event("com.example.A", Level.ERROR, new String(name.toCharArray()), start + 1)); // back, an equal copy
        events.add(event("com.example.Bé", Level.ERROR, name, start + 1)); // the logger
        events.add(event("com.example.A", Level.ERROR, name, start + 1)); // back
        events.add(event("com.example.A", Level.ERROR, name, start)); // back in time
        LoggingEvent failed = event("com.example.A", Level.ERROR, name, start);
        failed.setThrowableProxy(new ch.qos.logback.classic.spi.ThrowableProxy(new IllegalStateException("bad")));
        events.add(failed);
        events.add(event("com.example.A", Level.ERROR, name, start));
        int fromKept = 0;
        for (int i = 0; i < events.size(); i++) {
            LoggingEvent event = events.get(i);
            EncodingScratch s = fast.encode(event);
            assertThat(new String(Arrays.copyOf(s.bytes, s.length), StandardCharsets.UTF_8)).as("event %d", i)
                    .isEqualTo(new String(encoder.encode(event), StandardCharsets.UTF_8));
            SegmentRun run = s.plan.runs[0];
            assertThat(run).as("the run from the date to the message").isNotNull();
            assertThat(s.runs[0].holds(run, event)).as("the run kept after event %d", i).isTrue();
            if (i > 0 && s.runs[0].holds(run, events.get(i - 1))) {
                fromKept++;
            }
        }
        assertThat(fromKept).as("events whose run was the one kept for the event before").isEqualTo(3);
    }

    private LoggingEvent event(String logger, Level level, String thread, long millis) {
        LoggingEvent event = new LoggingEvent("com.example.Caller", context.getLogger(logger), level, "message ✓", null, null);
        event.setThreadName(thread);
        event.setTimeStamp(millis);
        return event;
    }

    private static LiteralConverter<ILoggingEvent> literal(String text) {
        return new LiteralConverter<>(text);
    }

    private static Segment[] segments(List<Converter<ILoggingEvent>> converters) {
        return converters.stream().map(Segment::of).toArray(Segment[]::new);
    }

    private static List<String> describe(Segment[] segments) {
        List<String> runs = new ArrayList<>();
        SegmentRun[] found = SegmentRun.of(segments);
        for (int i = 0; i < found.length; i++) {
            if (found[i] != null) {
                assertThat(found[i].first).isEqualTo(i);
                runs.add(found[i].first + ".." + found[i].end);
            }
        }
        return runs;
    }
}
