package io.github.lockfreelog.autoconfigure.actuate;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import io.github.lockfreelog.logback.LockFreeFileAppender;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every {@link LockFreeFileAppender} attached to a logger of the Logback context: the starter's own
 * and those declared in the Logback configuration. Read afresh on each call, so appenders added by
 * a later reconfiguration are seen.
 */
public class LockFreeLogAppenders {

    /** Package of the starter's logging integration, whose own appender class marks the appender it attached. */
    static final String STARTER_PACKAGE = "io.github.lockfreelog.autoconfigure";

    private final LoggerContext loggerContext;

    public LockFreeLogAppenders(LoggerContext loggerContext) {
        this.loggerContext = loggerContext;
    }

    /** The appenders, by name (sorted), each with the loggers it is attached to. */
    public Map<LockFreeFileAppender, List<String>> attachments() {
        return attachments(loggerContext);
    }

    /** The appenders, sorted by name. */
    public List<LockFreeFileAppender> all() {
        return List.copyOf(attachments().keySet());
    }

    /** The appender with this name, or {@code null}. */
    public LockFreeFileAppender get(String name) {
        for (LockFreeFileAppender appender : all()) {
            if (appender.getName() != null && appender.getName().equals(name)) {
                return appender;
            }
        }
        return null;
    }

    /**
     * Whether this appender is the one the starter attached (rather than one from the Logback
     * configuration): the starter's appender is of a class of its own, in {@link #STARTER_PACKAGE}.
     */
    public static boolean isAutoConfigured(LockFreeFileAppender appender) {
        return appender.getClass().getPackageName().equals(STARTER_PACKAGE);
    }

    /** Every lock-free appender attached to a logger of this context, sorted by name. */
    public static List<LockFreeFileAppender> find(LoggerContext loggerContext) {
        return List.copyOf(attachments(loggerContext).keySet());
    }

    private static Map<LockFreeFileAppender, List<String>> attachments(LoggerContext loggerContext) {
        Map<LockFreeFileAppender, List<String>> byIdentity = new IdentityHashMap<>();
        for (Logger logger : loggerContext.getLoggerList()) {
            for (Iterator<Appender<ILoggingEvent>> it = logger.iteratorForAppenders(); it.hasNext();) {
                if (it.next() instanceof LockFreeFileAppender appender) {
                    byIdentity.computeIfAbsent(appender, a -> new ArrayList<>()).add(logger.getName());
                }
            }
        }
        Map<LockFreeFileAppender, List<String>> sorted = new LinkedHashMap<>();
        byIdentity.entrySet().stream()
                .sorted(Comparator.comparing(e -> String.valueOf(e.getKey().getName())))
                .forEach(e -> sorted.put(e.getKey(), List.copyOf(e.getValue())));
        return sorted;
    }
}
