package io.github.lockfreelog.autoconfigure.takeover;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import io.github.lockfreelog.logback.LockFreeAppenderBase;
import java.util.List;

/**
 * One appender the starter runs, the file's or the console's, with what it was made from ({@code identity}): a run
 * that asks for the same goes on over the running appender, its engine and its counters; another gets a new one.
 * Only {@code LockFreeLogRuntime} uses it, under its lock.
 *
 * @param <A> the appender's type
 */
public final class ManagedAppender<A extends LockFreeAppenderBase> {

    private final LoggerContext loggerContext;
    private A appender;
    private String identity;

    public ManagedAppender(LoggerContext loggerContext) {
        this.loggerContext = loggerContext;
    }

    /** The appender running now, or {@code null}. */
    public A get() {
        return appender;
    }

    /** Starts the running appender again when it was made from {@code wanted}; returns whether it was. */
    boolean resume(String wanted) {
        if (appender == null || !wanted.equals(identity)) {
            return false;
        }
        appender.start(); // the same settings: go on over the running engine and its counters
        return true;
    }

    /** Makes {@code created}, made from {@code wanted}, the running appender, in place of one running before. */
    void replaceWith(A created, String wanted) {
        close();
        appender = created;
        identity = wanted;
    }

    /** Starts the appender again after a Logback reset stopped it; its engine ran on. */
    public void restart() {
        if (appender != null) {
            appender.start();
        }
    }

    /** Attaches the appender to each of {@code loggers} it is not attached to yet. */
    public void attach(List<String> loggers) {
        if (appender == null) {
            return;
        }
        for (String name : loggers) {
            Logger logger = loggerContext.getLogger(name);
            if (!logger.isAttached(appender)) {
                logger.addAppender(appender);
            }
        }
    }

    /** Takes the appender off every logger. */
    public void detach() {
        if (appender != null) {
            detach(loggerContext, appender);
        }
    }

    /** Takes the appender off its loggers and ends its engine (it drains first); nothing when none runs. */
    public void close() {
        if (appender != null) {
            detach();
            appender.close();
        }
        appender = null;
        identity = null;
    }

    /** Takes one of Spring Boot's appenders (its file or console) off every logger and stops it: ours writes for it. */
    static void replace(LoggerContext loggerContext, Appender<ILoggingEvent> boots) {
        detach(loggerContext, boots);
        boots.stop();
    }

    private static void detach(LoggerContext loggerContext, Appender<ILoggingEvent> appender) {
        for (Logger logger : loggerContext.getLoggerList()) {
            logger.detachAppender(appender);
        }
    }
}
