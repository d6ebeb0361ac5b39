package io.github.lockfreelog.logback;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.core.encoder.EncoderBase;
import ch.qos.logback.core.status.Status;
import io.github.lockfreelog.diagnostics.AppenderStatistics;
import io.github.lockfreelog.testing.TestAppenders;
import io.github.lockfreelog.testsupport.TestLogback;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.event.KeyValuePair;

/**
 * An encoder or converter that throws on the caller's path: the event is counted as dropped with reason
 * {@code encoding}, reported (at most every 10 s, with the exception) and never thrown at the caller. That a
 * virtual thread's pooled scratch goes back to its pool is in {@code PatternEncodingTest}.
 */
class EncodingFailureTest {

    @TempDir
    Path dir;

    final LoggerContext context = TestLogback.newContext();

    /** A key-value whose {@code toString()} throws, as a faulty domain object would under {@code %kvp}. */
    static final class Unprintable {
        @Override
        public String toString() {
            throw new IllegalStateException("cannot print this value");
        }
    }

    private ILoggingEvent event(String message, boolean unprintable) {
        LoggingEvent event = (LoggingEvent) TestLogback.event(context, Level.INFO, message);
        if (unprintable) {
            event.addKeyValuePair(new KeyValuePair("order", new Unprintable()));
        }
        return event;
    }

    private LockFreeFileAppender startWithPattern(Path log, String pattern) {
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(context);
        encoder.setPattern(pattern);
        encoder.start();
        return TestAppenders.start(context, log, a -> a.setEncoder(encoder));
    }

    @Test
    void aConverterThatThrowsOnTheFastPathIsACountedDropAndLaterEventsAreWritten() throws Exception {
        Path log = dir.resolve("app.log");
        LockFreeFileAppender appender = startWithPattern(log, "%m %kvp%n");
        for (int i = 0; i < 10; i++) {
            int n = i;
            assertThatCode(() -> appender.doAppend(event("bad " + n, true))).doesNotThrowAnyException();
        }
        for (int i = 0; i < 10; i++) {
            appender.doAppend(event("good " + i, false));
        }
        appender.stop();

        AppenderStatistics stats = appender.getStatistics();
        assertThat(stats.appended()).isEqualTo(20);
        assertThat(stats.eventsWritten()).isEqualTo(10);
        assertThat(stats.dropped()).isEqualTo(10);
        assertThat(stats.drops()).containsEntry("encoding", 10L);
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            expected.add("good " + i + " ");
        }
        assertThat(TestLogback.lines(log)).containsExactlyElementsOf(expected);
        List<Status> errors = context.getStatusManager().getCopyOfStatusList().stream()
                .filter(s -> s.getLevel() == Status.ERROR && s.getMessage().contains("encoding")).toList();
        assertThat(errors).as(TestLogback.statuses(context)).hasSize(1);
        assertThat(errors.get(0).getMessage()).contains("TEST").contains("dropped").contains("encoding");
        assertThat(errors.get(0).getThrowable()).isInstanceOf(IllegalStateException.class)
                .hasMessage("cannot print this value");
    }

    @Test
    void anEncoderThatThrowsIsACountedDropWhetherSharedOrCalledOneAtATime() throws Exception {
        for (Boolean threadSafe : new Boolean[] {Boolean.TRUE, null}) {
            Path log = dir.resolve("own-" + threadSafe + ".log");
            EncoderBase<ILoggingEvent> encoder = new EncoderBase<>() {
                @Override
                public byte[] headerBytes() {
                    return null;
                }

                @Override
                public byte[] encode(ILoggingEvent event) {
                    if (event.getFormattedMessage().startsWith("bad")) {
                        throw new IllegalArgumentException("refused " + event.getFormattedMessage());
                    }
                    return (event.getFormattedMessage() + "\n").getBytes(StandardCharsets.UTF_8);
                }

                @Override
                public byte[] footerBytes() {
                    return null;
                }
            };
            encoder.setContext(context);
            encoder.start();
            LockFreeFileAppender appender = TestAppenders.start(context, log, a -> {
                a.setEncoder(encoder);
                a.setEncoderThreadSafe(threadSafe);
            });
            appender.doAppend(event("bad 1", false));
            appender.doAppend(event("good 1", false));
            appender.doAppend(event("bad 2", false));
            appender.stop();

            AppenderStatistics stats = appender.getStatistics();
            assertThat(stats.appended()).as("threadSafe=%s", threadSafe).isEqualTo(3);
            assertThat(stats.drops()).as("threadSafe=%s", threadSafe).containsEntry("encoding", 2L);
            assertThat(stats.eventsWritten()).isEqualTo(1);
            assertThat(TestLogback.lines(log)).containsExactly("good 1");
        }
    }
}
