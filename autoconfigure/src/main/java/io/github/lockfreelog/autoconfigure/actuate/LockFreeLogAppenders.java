package io.github.lockfreelog.autoconfigure.actuate;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import io.github.lockfreelog.autoconfigure.logging.StarterAppender;
import io.github.lockfreelog.logback.LockFreeAppenderBase;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Every lock-free appender ({@link LockFreeAppenderBase}: file or console) attached to a logger of
 * the Logback context: the starter's own and those declared in the Logback configuration. Read afresh on each call, so appenders added by
 * a later reconfiguration are seen, and none is held: a detached appender can be collected.
 *
 * <p>What it knows of the starter's own appender it asks a {@link StarterAppender} (the starter's
 * runtime, where a {@code SpringApplication} run has one): which appender is the starter's, and,
 * when none is attached, why ({@link #absence()}: the starter knows whether it was given a log
 * file, or left the file to an appender of the Logback configuration).
 */
public class LockFreeLogAppenders {

    /** Name of the appender the starter attaches. */
    public static final String STARTER_APPENDER_NAME = StarterAppender.NAME;

    /** Why there is no appender, as the one-argument constructor says it. */
    public static final String NO_LOG_FILE = "no log file is configured: set logging.file.name, logging.file.path "
            + "or lockfreelog.file.name";

    /** Why there is no appender when the starter says it runs one but none is attached to a logger now. */
    static final String NONE_ATTACHED = "no lock-free appender is attached to a logger of the Logback context";


    private final LoggerContext loggerContext;

    private final StarterAppender starter;

    /**
     * Appenders of a context where the starter runs none of its own: with none attached,
     * {@link #absence()} is {@link #NO_LOG_FILE}.
     *
     * @param loggerContext the Logback context whose loggers are searched
     */
    public LockFreeLogAppenders(LoggerContext loggerContext) {
        this(loggerContext, () -> NO_LOG_FILE);
    }

    /**
     * Appenders of a context where the starter may run one of its own.
     *
     * @param loggerContext the Logback context whose loggers are searched
     * @param starter the starter's appender, asked on each read: which it is, or why there is none
     * (for example, "logback-spring.xml writes /x/app.log with its own appender FILE")
     */
    public LockFreeLogAppenders(LoggerContext loggerContext, StarterAppender starter) {
        this.loggerContext = Objects.requireNonNull(loggerContext, "loggerContext");
        this.starter = Objects.requireNonNull(starter, "starter");
    }

    /** The appenders, by name (sorted), each with the loggers it is attached to. */
    public Map<LockFreeAppenderBase, List<String>> attachments() {
        return attachments(loggerContext);
    }

    /** The appenders, sorted by name. */
    public List<LockFreeAppenderBase> all() {
        return List.copyOf(attachments().keySet());
    }

    /** The appender with this name attached now, or {@code null}. */
    public LockFreeAppenderBase get(String name) {
        for (Logger logger : loggerContext.getLoggerList()) {
            for (Iterator<Appender<ILoggingEvent>> it = logger.iteratorForAppenders(); it.hasNext();) {
                if (it.next() instanceof LockFreeAppenderBase appender && name != null && name.equals(appender.getName())) {
                    return appender;
                }
            }
        }
        return null;
    }

    /**
     * Why no lock-free appender is attached to a logger, or {@code null} when one is: the reason the
     * starter gave, or {@link #NONE_ATTACHED} when the starter says it runs one (which is then
     * detached: a Logback reset in progress, or a configuration that took it off).
     */
    public String absence() {
        return find(loggerContext).isEmpty() ? whyNone() : null;
    }

    /** What {@link #absence()} says, for a caller that already found no appender attached. */
    String whyNone() {
        String reason = starter.absence();
        return (reason != null) ? reason : NONE_ATTACHED;
    }

    /** Whether the starter says it runs an appender of its own ({@link #STARTER_APPENDER_NAME}), attached now or not. */
    boolean starterRunsAppender() {
        return starter.absence() == null;
    }

    /**
     * Whether this appender is the one the starter attached (rather than one from the Logback
     * configuration).
     */
    public boolean isAutoConfigured(LockFreeAppenderBase appender) {
        return appender != null && (appender == starter.appender() || appender == starter.console()
                || appender == starter.kafka() || appender == starter.otlp());
    }

    /** Every lock-free appender attached to a logger of this context, sorted by name. */
    public static List<LockFreeAppenderBase> find(LoggerContext loggerContext) {
        return List.copyOf(attachments(loggerContext).keySet());
    }

    private static Map<LockFreeAppenderBase, List<String>> attachments(LoggerContext loggerContext) {
        Map<LockFreeAppenderBase, List<String>> byIdentity = new IdentityHashMap<>();
        for (Logger logger : loggerContext.getLoggerList()) {
            for (Iterator<Appender<ILoggingEvent>> it = logger.iteratorForAppenders(); it.hasNext();) {
                if (it.next() instanceof LockFreeAppenderBase appender) {
                    byIdentity.computeIfAbsent(appender, a -> new ArrayList<>()).add(logger.getName());
                }
            }
        }
        Map<LockFreeAppenderBase, List<String>> sorted = new LinkedHashMap<>();
        byIdentity.entrySet().stream()
                .sorted(Comparator.comparing(e -> String.valueOf(e.getKey().getName())))
                .forEach(e -> sorted.put(e.getKey(), List.copyOf(e.getValue())));
        return sorted;
    }
}
