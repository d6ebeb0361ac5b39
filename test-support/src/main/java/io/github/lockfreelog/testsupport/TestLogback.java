package io.github.lockfreelog.testsupport;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.status.Status;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.slf4j.MDC;

/**
 * Logback alone, for any module's tests: a context of a test's own, an encoder, a logger that sends to one appender,
 * events, a context's statuses, a file's lines. (Fixtures of lockfreelog's own appenders are in core's test-jar,
 * {@code io.github.lockfreelog.testing.TestAppenders}.)
 */
public final class TestLogback {

    private TestLogback() {
    }

    /**
     * A fresh LoggerContext as Logback's own initialisation would leave it: with SLF4J's MDC adapter, so that
     * {@code MDC.put} on a thread shows in the events it logs there.
     */
    public static LoggerContext newContext() {
        LoggerContext context = new LoggerContext();
        context.setMDCAdapter(MDC.getMDCAdapter());
        return context;
    }

    /** A started {@link PatternLayoutEncoder} of {@code pattern}. */
    public static PatternLayoutEncoder encoder(LoggerContext context, String pattern) {
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(context);
        encoder.setPattern(pattern);
        encoder.start();
        return encoder;
    }

    /**
     * The logger {@code name} of {@code context}, at every level, not additive, with {@code appender} attached once:
     * what it logs goes to that appender only.
     */
    public static Logger logger(LoggerContext context, String name, Appender<ILoggingEvent> appender) {
        Logger logger = context.getLogger(name);
        logger.setAdditive(false);
        logger.setLevel(Level.TRACE);
        if (logger.getAppender(appender.getName()) == null) {
            logger.addAppender(appender);
        }
        return logger;
    }

    /** An event of the logger {@code test}, on this thread, now. */
    public static ILoggingEvent event(LoggerContext context, Level level, String message) {
        LoggingEvent event = new LoggingEvent();
        event.setLoggerContext(context);
        event.setLoggerName("test");
        event.setLevel(level);
        event.setMessage(message);
        event.setThreadName(Thread.currentThread().getName());
        event.setTimeStamp(System.currentTimeMillis());
        return event;
    }

    /** The lines of a UTF-8 file. */
    public static List<String> lines(Path file) throws IOException {
        return Files.readAllLines(file, StandardCharsets.UTF_8);
    }

    /** Every status of {@code context}, one a line (for an assertion's description). */
    public static String statuses(LoggerContext context) {
        return context.getStatusManager().getCopyOfStatusList().stream().map(Status::toString)
                .collect(Collectors.joining("\n"));
    }

    /** The messages of {@code context}'s statuses of {@code level} ({@link Status#INFO}, {@code WARN}, {@code ERROR}). */
    public static List<String> statusMessages(LoggerContext context, int level) {
        return context.getStatusManager().getCopyOfStatusList().stream().filter(s -> s.getLevel() == level)
                .map(Status::getMessage).collect(Collectors.toList());
    }

    /** The messages of {@code context}'s WARN and ERROR statuses. */
    public static List<String> warnings(LoggerContext context) {
        return context.getStatusManager().getCopyOfStatusList().stream().filter(s -> s.getLevel() >= Status.WARN)
                .map(Status::getMessage).toList();
    }
}
