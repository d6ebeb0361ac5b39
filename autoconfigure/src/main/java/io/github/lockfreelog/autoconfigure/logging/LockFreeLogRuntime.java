package io.github.lockfreelog.autoconfigure.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.LoggerContextListener;
import io.github.lockfreelog.autoconfigure.properties.InvalidLockFreeLogPropertyException;
import io.github.lockfreelog.autoconfigure.properties.StarterProperties;
import io.github.lockfreelog.autoconfigure.takeover.ConsoleTakeOver;
import io.github.lockfreelog.autoconfigure.takeover.FileTakeOver;
import io.github.lockfreelog.autoconfigure.takeover.KafkaTakeOver;
import io.github.lockfreelog.autoconfigure.takeover.ManagedAppender;
import io.github.lockfreelog.autoconfigure.takeover.StarterOtlpAppender;
import io.github.lockfreelog.logback.LockFreeAppenderBase;
import io.github.lockfreelog.logback.LockFreeConsoleAppender;
import io.github.lockfreelog.logback.LockFreeFileAppender;
import java.util.Collection;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import org.slf4j.LoggerFactory;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.util.ClassUtils;

/**
 * Owns the starter's lock-free appenders (the file's and, with {@code lockfreelog.console.enabled}, the console's,
 * each a {@link ManagedAppender}) and their engines across the application runs of one Logback context: the
 * starter, not Logback, decides when an engine starts and ends. Logback sees an ordinary appender that it may stop (a
 * reset stops every appender); the engine behind it keeps running ({@link LockFreeFileAppender#setKeepEngineOnStop}),
 * and a listener on the Logback context attaches the same appender again right after a reset, so its journal stays
 * mapped and its counters go on.
 *
 * <p>The runtime is kept where Logback keeps its context's objects ({@link LoggerContext#putObject}, under
 * {@link #KEY}), put back there after a reset (which clears them), and held by
 * {@link LockFreeLogApplicationListener} through each run, which also registers it as a bean. {@link #loggingInitialized}
 * is the one attach path, called right after Spring Boot has initialised logging for a {@code SpringApplication} run.
 * A run during which Spring Boot left logging as it was (another application started while the first is running)
 * leaves the appender as it is too. The engine ends at JVM shutdown (after Spring Boot has stopped Logback), when the
 * last application context closes where no logging shutdown hook runs, or when a later run turns the starter off.
 *
 * <p>Start-up only: methods synchronise on the instance, never on the logging path.
 */
public final class LockFreeLogRuntime implements StarterAppender {

    /** Key of the runtime among its Logback context's objects. */
    public static final String KEY = LockFreeLogRuntime.class.getName();

    /** Whether lockfreelog-otlp is on the class path: only then is {@link StarterOtlpAppender} loaded. */
    private static final boolean OTLP_PRESENT = ClassUtils.isPresent(StarterOtlpAppender.APPENDER_CLASS,
            LockFreeLogRuntime.class.getClassLoader());

    private final LoggerContext loggerContext;
    /** What Spring Boot runs at JVM shutdown, after it has stopped Logback: one object, as Spring Boot keeps a set. */
    private final Runnable shutdownHandler = this::shutdown;
    /** The lock-free file, when the settings ask for one. */
    private final ManagedAppender<LockFreeFileAppender> file;
    /** The lock-free console ({@code lockfreelog.console.enabled}). */
    private final ManagedAppender<LockFreeConsoleAppender> console;
    /** The Kafka sink ({@code lockfreelog.kafka.*}), typed by core's base class so that this class names no Kafka type. */
    private final ManagedAppender<LockFreeAppenderBase> kafka;
    /** The OTLP sink (Spring Boot's OTLP logging endpoint), typed by core's base class, as the Kafka sink. */
    private final ManagedAppender<LockFreeAppenderBase> otlp;
    /** {@code lockfreelog.loggers} of the latest run. */
    private List<String> loggers = List.of();
    /** Whether the file appender writes in place of Spring Boot's {@code FILE} (else a file of the starter's own). */
    private boolean fileReplacesBoots;
    private ResetWatcher watcher;
    private volatile String absence = FileTakeOver.NO_LOG_FILE;
    /** Open application contexts that end the engine when the last of them closes (no logging shutdown hook). */
    private final Set<Object> closeWhenClosed = Collections.newSetFromMap(new IdentityHashMap<>());

    private LockFreeLogRuntime(LoggerContext loggerContext) {
        this.loggerContext = loggerContext;
        this.file = new ManagedAppender<>(loggerContext);
        this.console = new ManagedAppender<>(loggerContext);
        this.kafka = new ManagedAppender<>(loggerContext);
        this.otlp = new ManagedAppender<>(loggerContext);
    }

    /** The runtime kept in this Logback context; a new one, kept there, when there is none. */
    static LockFreeLogRuntime in(LoggerContext loggerContext) {
        synchronized (loggerContext) {
            if (loggerContext.getObject(KEY) instanceof LockFreeLogRuntime kept) {
                return kept;
            }
            LockFreeLogRuntime created = new LockFreeLogRuntime(loggerContext);
            loggerContext.putObject(KEY, created);
            return created;
        }
    }

    /** Keeps this runtime among its Logback context's objects again, after a reset or a stop cleared them. */
    void keepInContext() {
        synchronized (loggerContext) {
            if (loggerContext.getObject(KEY) == null) {
                loggerContext.putObject(KEY, this);
            }
        }
    }

    @Override
    public synchronized LockFreeFileAppender appender() {
        return file.get();
    }

    @Override
    public synchronized LockFreeConsoleAppender console() {
        return console.get();
    }

    @Override
    public synchronized LockFreeAppenderBase kafka() {
        return kafka.get();
    }

    @Override
    public synchronized LockFreeAppenderBase otlp() {
        return otlp.get();
    }

    @Override
    public String absence() {
        return absence;
    }

    /** What Spring Boot's shutdown handlers are to run for this runtime. */
    Runnable shutdownHandler() {
        return shutdownHandler;
    }

    /**
     * Spring Boot has initialised logging for a run with this environment: attach the appender its settings ask for,
     * keep the running one when they are the same, or end it when they ask for none.
     *
     * @throws InvalidLockFreeLogPropertyException when a property's value cannot be used
     */
    public void loggingInitialized(ConfigurableEnvironment environment) {
        loggingInitialized(environment, List.of());
    }

    /**
     * As {@link #loggingInitialized(ConfigurableEnvironment)}, for a run of the application's {@code sources}
     * ({@code SpringApplication.getAllSources()}): an {@code @EnableAutoConfiguration} or {@code @SpringBootApplication}
     * among them that excludes the auto-configuration turns the starter off, as {@code spring.autoconfigure.exclude} does.
     *
     * @throws InvalidLockFreeLogPropertyException when a property's value cannot be used
     */
    public synchronized void loggingInitialized(ConfigurableEnvironment environment, Collection<?> sources) {
        keepInContext();
        if ((file.get() != null || console.get() != null || kafka.get() != null || otlp.get() != null)
                && watcher != null && watcher.untouched()) {
            return; // Spring Boot left logging as it was for this run, and so does the starter
        }
        StarterProperties starter = StarterProperties.of(environment, sources);
        if (!starter.enabled()) {
            end("the starter is turned off: " + starter.off());
            return;
        }
        List<String> wantedLoggers = starter.loggers();
        detachFromLoggers();
        loggers = wantedLoggers;
        FileTakeOver.Outcome fileOutcome = FileTakeOver.apply(loggerContext, file, starter, environment);
        absence = fileOutcome.absence();
        fileReplacesBoots = fileOutcome.replacesBoots();
        ConsoleTakeOver.apply(loggerContext, console, starter, environment);
        KafkaTakeOver.apply(loggerContext, kafka, starter, environment);
        if (OTLP_PRESENT) {
            StarterOtlpAppender.apply(otlp, loggerContext, starter, environment);
        }
        attachToLoggers();
        warnWhereLoggersCannotNarrow();
        if (watcher != null) {
            loggerContext.removeListener(watcher);
        }
        watcher = new ResetWatcher();
        loggerContext.addListener(watcher);
    }

    /** What the starter's shutdown handler runs at JVM shutdown, after Spring Boot has stopped Logback: ends the engine. */
    public void shutdown() {
        close();
    }

    /** Registers an open application context whose close is to end the engine (no logging shutdown hook). */
    synchronized void closeWhenClosed(Object applicationContext) {
        closeWhenClosed.add(applicationContext);
    }

    /** An application context registered with {@link #closeWhenClosed} closed: the last one ends the engine. */
    synchronized void closed(Object applicationContext) {
        if (closeWhenClosed.remove(applicationContext) && closeWhenClosed.isEmpty()) {
            close();
        }
    }

    /** Takes the appenders off their loggers and ends their engines (they drain first). Safe to call at any time. */
    public synchronized void close() {
        file.close();
        console.close();
        kafka.close();
        otlp.close();
        if (watcher != null) {
            loggerContext.removeListener(watcher);
        }
        watcher = null;
        loggers = List.of();
        fileReplacesBoots = false;
    }

    private void end(String why) {
        close();
        absence = why;
    }

    private synchronized void afterReset(ResetWatcher from) {
        if (from == watcher) {
            file.restart();
            console.restart();
            kafka.restart();
            otlp.restart();
            attachToLoggers();
        }
    }

    /**
     * Attaches each appender so that each line reaches it exactly once ({@link AttachPoints}): one that takes the place
     * of Spring Boot's {@code FILE} or {@code CONSOLE} goes where that appender was (the root) and to the listed
     * loggers cut off from it, so that no line Spring Boot's appender would have written is lost; a file of the
     * starter's own goes to the listed loggers alone.
     */
    private void attachToLoggers() {
        file.attach(AttachPoints.exactlyOnce(loggerContext, fileReplacesBoots ? AttachPoints.withRoot(loggers) : loggers));
        console.attach(AttachPoints.exactlyOnce(loggerContext, AttachPoints.withRoot(loggers)));
        kafka.attach(AttachPoints.exactlyOnce(loggerContext, loggers));
        otlp.attach(AttachPoints.exactlyOnce(loggerContext, loggers));
    }

    /** One WARN line where {@code lockfreelog.loggers} leaves out the root of an appender that replaces Spring Boot's. */
    private void warnWhereLoggersCannotNarrow() {
        boolean bootsFile = file.get() != null && fileReplacesBoots;
        if (AttachPoints.namesRoot(loggers) || (!bootsFile && console.get() == null)) {
            return;
        }
        String replaced = bootsFile ? (console.get() != null ? "FILE and CONSOLE appenders" : "FILE appender")
                : "CONSOLE appender";
        LoggerFactory.getLogger(LockFreeLogRuntime.class).warn("lockfreelog: lockfreelog.loggers={} does not narrow what"
                + " Spring Boot's {} wrote: the lock-free appender takes its place for every logger it wrote (ROOT), so"
                + " that no line is lost or written twice. To write only these loggers lock-free, give them a file of"
                + " their own with lockfreelog.file.name in place of logging.file.name (Spring Boot then writes no file);"
                + " else remove lockfreelog.loggers.", loggers, replaced);
    }

    private void detachFromLoggers() {
        file.detach();
        console.detach();
        kafka.detach();
        otlp.detach();
    }

    /**
     * Watches the Logback context the appender is attached to: after a plain reset (a reconfiguration) it keeps the
     * runtime among the context's objects again and attaches the appender again; a stop (Spring Boot configuring
     * logging anew, or shutting down) marks logging as touched, so the next run applies its settings. Logback drops
     * its listeners when it stops; a new watcher comes with the next attach.
     */
    private final class ResetWatcher implements LoggerContextListener {

        private volatile boolean stopped;

        /** Whether Logback was neither stopped nor left without this watcher since the attach. */
        boolean untouched() {
            return !stopped && loggerContext.getCopyOfListenerList().contains(this);
        }

        @Override
        public boolean isResetResistant() {
            return true;
        }

        @Override
        public void onStart(LoggerContext context) {
        }

        @Override
        public void onReset(LoggerContext context) {
            keepInContext();
            if (!stopped) {
                afterReset(this);
            }
        }

        @Override
        public void onStop(LoggerContext context) {
            stopped = true;
            keepInContext();
        }

        @Override
        public void onLevelChange(Logger logger, Level level) {
        }
    }
}
