package io.github.lockfreelog.testing;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.core.status.ErrorStatus;
import ch.qos.logback.core.status.InfoStatus;
import ch.qos.logback.core.status.Status;
import ch.qos.logback.core.status.WarnStatus;
import ch.qos.logback.core.util.FileSize;
import io.github.lockfreelog.diagnostics.StatusReporter;
import io.github.lockfreelog.logback.LockFreeFileAppender;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/** Small fixtures: an appender on its own LoggerContext, events, and reading the log back. */
public final class TestAppenders {

    private TestAppenders() {
    }

    /** A fresh LoggerContext as Logback's own initialisation would leave it (with an MDC adapter). */
    public static LoggerContext newContext() {
        LoggerContext context = new LoggerContext();
        context.setMDCAdapter(new ch.qos.logback.classic.util.LogbackMDCAdapter());
        return context;
    }

    public static LockFreeFileAppender create(LoggerContext context, Path logFile, Consumer<LockFreeFileAppender> settings) {
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(context);
        encoder.setPattern("%m%n");
        encoder.start();
        LockFreeFileAppender appender = new LockFreeFileAppender();
        appender.setContext(context);
        appender.setName("TEST");
        appender.setFile(logFile.toString());
        appender.setEncoder(encoder);
        appender.setBufferSize(FileSize.valueOf("64KB"));
        appender.setBufferCount(3);
        settings.accept(appender);
        return appender;
    }

    public static LockFreeFileAppender start(LoggerContext context, Path logFile, Consumer<LockFreeFileAppender> settings) {
        LockFreeFileAppender appender = create(context, logFile, settings);
        appender.start();
        if (!appender.isStarted()) {
            throw new AssertionError("appender did not start: " + statuses(context));
        }
        return appender;
    }

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

    public static List<String> lines(Path file) throws IOException {
        return Files.readAllLines(file, StandardCharsets.UTF_8);
    }

    /** Reports an engine part's statuses to the context's status manager, as the appender does. */
    public static StatusReporter status(LoggerContext context) {
        return new StatusReporter() {
            @Override
            public void info(String message) {
                context.getStatusManager().add(new InfoStatus(message, context));
            }

            @Override
            public void warn(String message, Throwable cause) {
                context.getStatusManager().add(new WarnStatus(message, context, cause));
            }

            @Override
            public void error(String message, Throwable cause) {
                context.getStatusManager().add(new ErrorStatus(message, context, cause));
            }
        };
    }

    public static String statuses(LoggerContext context) {
        return context.getStatusManager().getCopyOfStatusList().stream().map(Status::toString)
                .collect(Collectors.joining("\n"));
    }

    public static List<String> statusMessages(LoggerContext context, int level) {
        return context.getStatusManager().getCopyOfStatusList().stream().filter(s -> s.getLevel() == level)
                .map(Status::getMessage).collect(Collectors.toList());
    }
}
