package io.github.lockfreelog.testing;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.core.status.ErrorStatus;
import ch.qos.logback.core.status.InfoStatus;
import ch.qos.logback.core.status.WarnStatus;
import ch.qos.logback.core.util.FileSize;
import io.github.lockfreelog.diagnostics.StatusReporter;
import io.github.lockfreelog.logback.LockFreeFileAppender;
import io.github.lockfreelog.testsupport.TestLogback;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * The file appender on a context of the test's own, and a status reporter into that context: the fixtures that
 * build core's types (the Logback-only ones are {@link TestLogback}, in the test support module).
 */
public final class TestAppenders {

    private TestAppenders() {
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
            throw new AssertionError("appender did not start: " + TestLogback.statuses(context));
        }
        return appender;
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
}
