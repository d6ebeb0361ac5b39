package io.github.lockfreelog.autoconfigure.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.LoggerContextListener;
import ch.qos.logback.core.Appender;
import io.github.lockfreelog.files.FileIdentity;
import io.github.lockfreelog.logback.LockFreeConsoleAppender;
import io.github.lockfreelog.logback.LockFreeFileAppender;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import org.slf4j.LoggerFactory;
import org.springframework.boot.logging.LogFile;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.util.StringUtils;

/**
 * Owns the starter's lock-free appender and its engine across the application runs of one Logback context: the
 * starter, not Logback, decides when the engine starts and ends. Logback sees an ordinary appender that it may stop (a
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

    /** Why there is no appender when no log file is configured. */
    static final String NO_LOG_FILE = "no log file is configured: set logging.file.name, logging.file.path or "
            + "lockfreelog.file to write one lock-free";

    private final LoggerContext loggerContext;
    private final RemovedProperties removed;
    /** What Spring Boot runs at JVM shutdown, after it has stopped Logback: one object, as Spring Boot keeps a set. */
    private final Runnable shutdownHandler = this::shutdown;
    private LockFreeFileAppender appender;
    private String identity;
    /** The lock-free console ({@code lockfreelog.console.enabled}), or {@code null}. */
    private LockFreeConsoleAppender console;
    private String consoleIdentity;
    private List<String> loggers = List.of();
    private ResetWatcher watcher;
    private volatile String absence = NO_LOG_FILE;
    /** Open application contexts that end the engine when the last of them closes (no logging shutdown hook). */
    private final Set<Object> closeWhenClosed = Collections.newSetFromMap(new IdentityHashMap<>());

    private LockFreeLogRuntime(LoggerContext loggerContext) {
        this.loggerContext = loggerContext;
        this.removed = RemovedProperties.load(LockFreeLogRuntime.class.getClassLoader());
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
        return appender;
    }

    @Override
    public synchronized LockFreeConsoleAppender console() {
        return console;
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
    public synchronized void loggingInitialized(ConfigurableEnvironment environment) {
        keepInContext();
        if ((appender != null || console != null) && watcher != null && watcher.untouched()) {
            return; // Spring Boot left logging as it was for this run, and so does the starter
        }
        StarterProperties starter = StarterProperties.of(environment);
        if (!starter.enabled()) {
            end("the starter is turned off (lockfreelog.enabled=false, or spring.autoconfigure.exclude names it)");
            closeConsole();
            return;
        }
        removed.check(environment);
        List<String> wantedLoggers = starter.loggers();
        detachFromLoggers();
        loggers = wantedLoggers;
        applyFile(starter, environment);
        applyConsole(starter, environment);
        attachToLoggers();
        if (watcher != null) {
            loggerContext.removeListener(watcher);
        }
        watcher = new ResetWatcher();
        loggerContext.addListener(watcher);
    }

    /** The file's part of a run: the lock-free file the settings ask for, or why there is none ({@link #absence}). */
    private void applyFile(StarterProperties starter, ConfigurableEnvironment environment) {
        LockFreeLogProperties properties = starter.properties();
        String file = StringUtils.hasText(properties.getFile()) ? properties.getFile()
                : (LogFile.get(environment) != null ? LogFile.get(environment).toString() : null);
        if (file == null) {
            endFile(NO_LOG_FILE);
            if (!properties.getConsole().isEnabled()) {
                LoggerFactory.getLogger(LockFreeLogRuntime.class).info("lockfreelog: {}", NO_LOG_FILE);
            }
            return;
        }
        Path target = FileIdentity.canonical(Paths.get(file));
        LogFileWriters writers = LogFileWriters.of(loggerContext, target, appender);
        if (writers.declared() != null) {
            endFile("the Logback configuration writes " + target + " with its own lock-free appender '"
                    + writers.declared().getName() + "'");
            return;
        }
        if (!writers.others().isEmpty()) {
            endFile("the Logback configuration" + starter.configurationName() + " writes " + target
                    + " with its own appender " + writers.describeOthers() + ", so lockfreelog leaves it as configured");
            LoggerFactory.getLogger(LockFreeLogRuntime.class).info("lockfreelog: {}. To write that file lock-free, "
                    + "declare io.github.lockfreelog.logback.LockFreeFileAppender for it in that configuration, or"
                    + " set lockfreelog.file to another file; lockfreelog.enabled=false turns the starter off.", absence);
            return;
        }
        FileFormat format = (writers.bootFile() != null) ? FileFormat.of(writers.bootFile(), loggerContext, environment)
                : FileFormat.of(loggerContext, target, environment);
        String wanted = target + "|" + format.identity() + "|" + AppenderSettings.engineIdentity(properties);
        if (appender != null && wanted.equals(identity)) {
            appender.start(); // the same file, format and engine: go on over the running engine and its counters
        } else {
            closeFile();
            appender = StarterAppenderFactory.create(loggerContext, target, starter, format, environment);
            identity = wanted;
        }
        if (writers.bootFile() != null) {
            replace(writers.bootFile());
        }
        absence = null;
    }

    /**
     * The console's part of a run ({@code lockfreelog.console.enabled}): the lock-free console in place of Spring
     * Boot's {@code CONSOLE}; a console of the user's own, or a journal that cannot be made, leaves the console as it
     * is, with one line that says why.
     */
    private void applyConsole(StarterProperties starter, ConfigurableEnvironment environment) {
        LockFreeLogProperties properties = starter.properties();
        if (!properties.getConsole().isEnabled()) {
            closeConsole();
            return;
        }
        org.slf4j.Logger log = LoggerFactory.getLogger(LockFreeLogRuntime.class);
        ConsoleTakeOver consoles = ConsoleTakeOver.of(loggerContext, console);
        if (consoles.declared() != null) {
            closeConsole(); // the configuration's own lock-free console is used as it is
            return;
        }
        if (consoles.bootConsole() == null) {
            closeConsole();
            log.info("lockfreelog: lockfreelog.console.enabled is set, but the Logback configuration{} has no Spring Boot"
                    + " CONSOLE appender to replace{}; the console is left as configured. To write it lock-free,"
                    + " declare io.github.lockfreelog.logback.LockFreeConsoleAppender in that configuration.",
                    starter.configurationName(), consoles.others().isEmpty() ? "" : " (it has its own: "
                            + consoles.describeOthers() + ")");
            return;
        }
        String wanted = consoles.formatIdentity(loggerContext) + "|" + properties.getConsole().getJournal() + "|"
                + AppenderSettings.engineIdentity(properties);
        if (console != null && wanted.equals(consoleIdentity)) {
            console.start();
        } else {
            closeConsole();
            ConsoleTakeOver.Started started = consoles.start(loggerContext, starter, environment);
            if (started.appender() == null) {
                log.warn("lockfreelog: the console stays Spring Boot's own: the lock-free console could not start ({})."
                        + " Set lockfreelog.console.journal to a folder this application may write (a volume, with a"
                        + " read-only root file system).", started.failure());
                return;
            }
            console = started.appender();
            consoleIdentity = wanted;
        }
        replace(consoles.bootConsole());
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
        closeFile();
        closeConsole();
        if (watcher != null) {
            loggerContext.removeListener(watcher);
        }
        watcher = null;
        loggers = List.of();
    }

    private void closeFile() {
        if (appender != null) {
            detach(appender);
            appender.close();
        }
        appender = null;
        identity = null;
    }

    private void closeConsole() {
        if (console != null) {
            detach(console);
            console.close();
        }
        console = null;
        consoleIdentity = null;
    }

    private void endFile(String why) {
        closeFile();
        absence = why;
    }

    private void end(String why) {
        close();
        absence = why;
    }

    private synchronized void afterReset(ResetWatcher from) {
        if (from == watcher) {
            if (appender != null) {
                appender.start();
            }
            if (console != null) {
                console.start();
            }
            attachToLoggers();
        }
    }

    /** Takes one of Spring Boot's appenders (its file or console) off every logger and stops it: ours writes for it. */
    private void replace(Appender<ILoggingEvent> boots) {
        for (Logger logger : loggerContext.getLoggerList()) {
            logger.detachAppender(boots);
        }
        boots.stop();
    }

    private void attachToLoggers() {
        for (String name : loggers) {
            Logger logger = loggerContext.getLogger(name);
            for (Appender<ILoggingEvent> ours : ours()) {
                if (!logger.isAttached(ours)) {
                    logger.addAppender(ours);
                }
            }
        }
    }

    private void detachFromLoggers() {
        ours().forEach(this::detach);
    }

    private void detach(Appender<ILoggingEvent> ours) {
        for (Logger logger : loggerContext.getLoggerList()) {
            logger.detachAppender(ours);
        }
    }

    /** The appenders the starter runs now: the file's, the console's, either or none. */
    private List<Appender<ILoggingEvent>> ours() {
        List<Appender<ILoggingEvent>> ours = new java.util.ArrayList<>(2);
        if (appender != null) {
            ours.add(appender);
        }
        if (console != null) {
            ours.add(console);
        }
        return ours;
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
