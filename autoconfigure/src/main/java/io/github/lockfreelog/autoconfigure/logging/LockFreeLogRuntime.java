package io.github.lockfreelog.autoconfigure.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.LoggerContextListener;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.status.Status;
import ch.qos.logback.core.util.Duration;
import ch.qos.logback.core.util.FileSize;
import io.github.lockfreelog.autoconfigure.InvalidLockFreeLogPropertyException;
import io.github.lockfreelog.autoconfigure.LockFreeLogAutoConfiguration;
import io.github.lockfreelog.autoconfigure.LockFreeLogProperties;
import io.github.lockfreelog.engine.SettingProblem;
import io.github.lockfreelog.files.FileIdentity;
import io.github.lockfreelog.logback.LockFreeFileAppender;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.logging.LogFile;
import org.springframework.boot.logging.LogLevel;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.util.StringUtils;

/**
 * Owns the lock-free appender for the life of the JVM: the starter, not Logback, decides when its engine starts and
 * ends. Logback sees an ordinary appender that it may stop (a reset stops every appender); the engine behind it keeps
 * running ({@link LockFreeFileAppender#setKeepEngineOnStop}), and a listener on the Logback context attaches the same
 * appender again right after a reset, so its journal stays mapped and its counters go on.
 *
 * <p>{@link #loggingInitialized} is the one attach path, called by {@link LockFreeLogApplicationListener} right after
 * Spring Boot has initialised logging for a {@code SpringApplication} run. A run during which Spring Boot left logging
 * as it was (another application started while the first is running) leaves the appender as it is too. The engine
 * ends at JVM shutdown (after Spring Boot has stopped Logback), when the last application context closes where no
 * logging shutdown hook runs, or when a later run turns the starter off.
 *
 * <p>Start-up only: methods synchronise on the instance, never on the logging path.
 */
public final class LockFreeLogRuntime {

    /** Name of the appender the starter attaches. */
    public static final String APPENDER_NAME = "LOCKFREE_FILE";

    /** Why there is no appender when no log file is configured. */
    static final String NO_LOG_FILE = "no log file is configured: set logging.file.name, logging.file.path or "
            + "lockfreelog.file to write one lock-free";

    private static final LockFreeLogRuntime INSTANCE = new LockFreeLogRuntime();

    /** Properties the starter no longer reads, with what to set instead; naming one fails start-up. */
    private static final Map<String, String> REMOVED = Map.of(
            "lockfreelog.pattern", "logging.pattern.file",
            "lockfreelog.structured-format", "logging.structured.format.file",
            "lockfreelog.charset", "logging.charset.file",
            "lockfreelog.replace-boot-file-appender", "lockfreelog.file set to another file than Spring Boot's",
            "lockfreelog.rolling.enabled", "nothing: Spring Boot's log file always rolls",
            "lockfreelog.rolling.file-name-pattern", "logging.logback.rollingpolicy.file-name-pattern",
            "lockfreelog.rolling.max-file-size", "logging.logback.rollingpolicy.max-file-size",
            "lockfreelog.rolling.max-history", "logging.logback.rollingpolicy.max-history",
            "lockfreelog.rolling.total-size-cap", "logging.logback.rollingpolicy.total-size-cap",
            "lockfreelog.rolling.clean-history-on-start", "logging.logback.rollingpolicy.clean-history-on-start");

    private static final String P = LockFreeLogProperties.PREFIX + ".";

    /** The appender's settings (as in logback.xml) and the properties they come from. */
    private static final Map<String, String> PROPERTIES = Map.ofEntries(
            Map.entry("bufferSize", P + "buffer-size"), Map.entry("bufferCount", P + "buffer-count"),
            Map.entry("maxEventSize", P + "max-event-size"), Map.entry("maxBlockTime", P + "max-block-time"),
            Map.entry("flushInterval", P + "flush-interval"), Map.entry("backpressure", P + "backpressure"),
            Map.entry("dropBelowLevel", P + "drop-below-level"), Map.entry("journal", P + "journal"),
            Map.entry("fileNamePattern", "logging.logback.rollingpolicy.file-name-pattern"),
            Map.entry("maxFileSize", "logging.logback.rollingpolicy.max-file-size"),
            Map.entry("maxHistory", "logging.logback.rollingpolicy.max-history"),
            Map.entry("totalSizeCap", "logging.logback.rollingpolicy.total-size-cap"));

    private LockFreeFileAppender appender;
    private String identity;
    private LoggerContext context;
    private List<String> loggers = List.of();
    private ResetWatcher watcher;
    private volatile String absence = NO_LOG_FILE;
    /** Open application contexts that end the engine when the last of them closes (no logging shutdown hook). */
    private final Set<Object> closeWhenClosed = Collections.newSetFromMap(new IdentityHashMap<>());

    private LockFreeLogRuntime() {
    }

    /** The one runtime of this class loader. */
    public static LockFreeLogRuntime get() {
        return INSTANCE;
    }

    /** The appender the starter runs now, or {@code null}. */
    public synchronized LockFreeFileAppender appender() {
        return appender;
    }

    /** Why the starter runs no appender, or {@code null} when it runs one. */
    public String absence() {
        return absence;
    }

    /**
     * Spring Boot has initialised logging for a run with this environment: attach the appender its settings ask for,
     * keep the running one when they are the same, or end it when they ask for none.
     *
     * @throws InvalidLockFreeLogPropertyException when a property's value cannot be used
     */
    public synchronized void loggingInitialized(ConfigurableEnvironment environment, LoggerContext loggerContext) {
        if (appender != null && context == loggerContext && watcher != null && watcher.untouched()) {
            return; // Spring Boot left logging as it was for this run, and so does the starter
        }
        boolean enabled = Binder.get(environment).bind(P + "enabled", Boolean.class).orElse(true);
        if (!enabled || isExcluded(environment)) {
            close();
            absence = "the starter is turned off (lockfreelog.enabled=false, or spring.autoconfigure.exclude names it)";
            return;
        }
        checkRemoved(environment);
        LockFreeLogProperties properties = Binder.get(environment)
                .bind(LockFreeLogProperties.PREFIX, LockFreeLogProperties.class).orElseGet(LockFreeLogProperties::new);
        String fileProperty = StringUtils.hasText(properties.getFile()) ? P + "file" : "logging.file.name";
        String file = StringUtils.hasText(properties.getFile()) ? properties.getFile()
                : (LogFile.get(environment) != null ? LogFile.get(environment).toString() : null);
        if (file == null) {
            close();
            absence = NO_LOG_FILE;
            LoggerFactory.getLogger(LockFreeLogRuntime.class).info("lockfreelog: {}", NO_LOG_FILE);
            return;
        }
        Path target = FileIdentity.canonical(Paths.get(file));
        LogFileWriters writers = LogFileWriters.of(loggerContext, target, appender);
        if (writers.declared() != null) {
            close();
            absence = "the Logback configuration writes " + target + " with its own lock-free appender '"
                    + writers.declared().getName() + "'";
            return;
        }
        if (!writers.others().isEmpty()) {
            close();
            absence = "the Logback configuration" + configurationName(environment) + " writes " + target
                    + " with its own appender " + writers.describeOthers() + ", so lockfreelog leaves it as configured";
            LoggerFactory.getLogger(LockFreeLogRuntime.class).info("lockfreelog: {}. To write that file lock-free, "
                    + "declare io.github.lockfreelog.logback.LockFreeFileAppender for it in that configuration, or"
                    + " set lockfreelog.file to another file; lockfreelog.enabled=false turns the starter off.", absence);
            return;
        }
        FileFormat format = (writers.bootFile() != null) ? FileFormat.of(writers.bootFile(), loggerContext, environment)
                : FileFormat.of(loggerContext, target, environment);
        List<String> wantedLoggers = loggers(properties, environment);
        String wanted = target + "|" + format.identity() + "|" + engineIdentity(properties);
        if (appender != null && context == loggerContext && wanted.equals(identity)) {
            appender.start(); // the same file, format and engine: go on over the running engine and its counters
        } else {
            close();
            appender = create(loggerContext, target, fileProperty, format, properties, environment);
            identity = wanted;
            context = loggerContext;
        }
        detachFromLoggers();
        loggers = wantedLoggers;
        attachToLoggers();
        if (writers.bootFile() != null) {
            replace(loggerContext, writers.bootFile());
        }
        watcher = new ResetWatcher(loggerContext);
        loggerContext.addListener(watcher);
        absence = null;
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

    /** Takes the appender off its loggers and ends its engine (it drains first). Safe to call at any time. */
    public synchronized void close() {
        if (appender != null) {
            detachFromLoggers();
            appender.close();
        }
        if (watcher != null) {
            watcher.context.removeListener(watcher);
        }
        appender = null;
        identity = null;
        context = null;
        watcher = null;
        loggers = List.of();
    }

    private synchronized void afterReset(ResetWatcher from) {
        if (from == watcher && appender != null) {
            appender.start();
            attachToLoggers();
        }
    }

    private static LockFreeFileAppender create(LoggerContext loggerContext, Path file, String fileProperty,
            FileFormat format, LockFreeLogProperties properties, ConfigurableEnvironment environment) {
        LockFreeFileAppender created = new LockFreeFileAppender();
        created.setContext(loggerContext);
        created.setName(APPENDER_NAME);
        created.setKeepEngineOnStop(true);
        created.setFile(file.toString());
        created.setJournal(properties.getJournal());
        created.setEncoder(format.encoder());
        format.filters().forEach(created::addFilter);
        if (properties.getBufferSize() != null) {
            created.setBufferSize(new FileSize(properties.getBufferSize().toBytes()));
        }
        created.setBufferCount(properties.getBufferCount());
        created.setBackpressure(properties.getBackpressure());
        created.setMaxBlockTime(duration(properties.getMaxBlockTime()));
        if (properties.getMaxEventSize() != null) {
            created.setMaxEventSize(new FileSize(properties.getMaxEventSize().toBytes()));
        }
        created.setFlushInterval(duration(properties.getFlushInterval()));
        created.setDropBelowLevel(level(properties.getDropBelowLevel()));
        FileFormat.Rolling rolling = format.rolling();
        created.setFileNamePattern(rolling.fileNamePattern());
        if (rolling.maxFileSize() > 0) {
            created.setMaxFileSize(new FileSize(rolling.maxFileSize()));
        }
        created.setMaxHistory(rolling.maxHistory());
        if (rolling.totalSizeCap() > 0) {
            created.setTotalSizeCap(new FileSize(rolling.totalSizeCap()));
        }
        created.setCleanHistoryOnStart(rolling.cleanHistoryOnStart());
        List<SettingProblem> problems = created.checkSettings();
        if (!problems.isEmpty()) {
            SettingProblem first = problems.get(0);
            String property = "file".equals(first.setting()) ? fileProperty
                    : PROPERTIES.getOrDefault(first.setting(), P + first.setting());
            throw InvalidLockFreeLogPropertyException.of(environment, property, first.value(), inPropertyNames(first.allowed()));
        }
        long startedAt = System.currentTimeMillis();
        created.start();
        if (!created.isStarted()) {
            List<String> errors = loggerContext.getStatusManager().getCopyOfStatusList().stream()
                    .filter(s -> s.getLevel() == Status.ERROR && s.getTimestamp() >= startedAt)
                    .map(Status::getMessage).collect(Collectors.toList());
            boolean journal = StringUtils.hasText(properties.getJournal())
                    && errors.stream().anyMatch(e -> e.contains(Objects.toString(properties.getJournal())));
            throw InvalidLockFreeLogPropertyException.of(environment, journal ? P + "journal" : fileProperty,
                    journal ? properties.getJournal() : file.toString(),
                    (journal ? "a journal" : "a file (and journal folder)") + " this application can create, lock and"
                            + " write: " + inPropertyNames(String.join("; ", errors)));
        }
        return created;
    }

    /** The allowed values as core words them, with its setting names replaced by the starter's property names. */
    private static String inPropertyNames(String allowed) {
        String result = allowed;
        for (Map.Entry<String, String> entry : PROPERTIES.entrySet()) {
            result = result.replaceAll("\\b" + entry.getKey() + "\\b", entry.getValue());
        }
        return result;
    }

    private static String engineIdentity(LockFreeLogProperties p) {
        return p.getJournal() + "|" + p.getBufferSize() + "|" + p.getBufferCount() + "|" + p.getBackpressure() + "|"
                + p.getMaxBlockTime() + "|" + p.getMaxEventSize() + "|" + p.getFlushInterval() + "|" + p.getDropBelowLevel();
    }

    private static List<String> loggers(LockFreeLogProperties properties, ConfigurableEnvironment environment) {
        List<String> names = (properties.getLoggers() != null)
                ? properties.getLoggers().stream().map(String::trim).toList() : List.of();
        if (names.isEmpty() || names.stream().anyMatch(String::isEmpty)) {
            throw InvalidLockFreeLogPropertyException.of(environment, P + "loggers", properties.getLoggers(),
                    "one or more logger names, e.g. ROOT or com.example");
        }
        return names;
    }

    private static Duration duration(java.time.Duration value) {
        return (value != null) ? Duration.buildByMilliseconds(value.toMillis()) : null;
    }

    /** Spring Boot's level as Logback names it (Logback has no FATAL: it is ERROR there, as in Spring Boot's system). */
    private static String level(LogLevel level) {
        if (level == null) {
            return null;
        }
        return (level == LogLevel.FATAL) ? Level.ERROR.toString() : level.name();
    }

    private static void checkRemoved(ConfigurableEnvironment environment) {
        for (Map.Entry<String, String> removed : REMOVED.entrySet()) {
            var written = InvalidLockFreeLogPropertyException.find(environment, removed.getKey());
            if (written != null) {
                throw new InvalidLockFreeLogPropertyException(removed.getKey(), written.getValue(), written.getOrigin(),
                        "nothing: this property was removed, the lock-free file takes its lines and rolling from Spring"
                                + " Boot's file settings; set " + removed.getValue() + " instead");
            }
        }
    }

    /** Whether {@code spring.autoconfigure.exclude} names the auto-configuration: then the starter is off. */
    static boolean isExcluded(ConfigurableEnvironment environment) {
        String name = LockFreeLogAutoConfiguration.class.getName();
        return Binder.get(environment).bind("spring.autoconfigure.exclude", Bindable.listOf(String.class))
                .orElse(List.of()).stream().anyMatch(excluded -> excluded != null && name.equals(excluded.trim()));
    }

    private static String configurationName(ConfigurableEnvironment environment) {
        String location = environment.getProperty("logging.config");
        return StringUtils.hasText(location) ? " (" + location.trim() + ")" : "";
    }

    /** Takes Spring Boot's file appender off the root logger and stops it: the lock-free appender writes its file. */
    private static void replace(LoggerContext loggerContext, Appender<ILoggingEvent> bootFile) {
        for (Logger logger : loggerContext.getLoggerList()) {
            logger.detachAppender(bootFile);
        }
        bootFile.stop();
    }

    private void attachToLoggers() {
        for (String name : loggers) {
            Logger logger = context.getLogger(name);
            if (!logger.isAttached(appender)) {
                logger.addAppender(appender);
            }
        }
    }

    private void detachFromLoggers() {
        if (appender == null || context == null) {
            return;
        }
        for (Logger logger : context.getLoggerList()) {
            logger.detachAppender(appender);
        }
    }

    /**
     * Watches the Logback context the appender is attached to: after a plain reset (a reconfiguration) it attaches
     * the appender again; a stop (Spring Boot configuring logging anew, or shutting down) marks logging as touched,
     * so the next run applies its settings. Logback drops its listeners when it stops; a new watcher comes with the
     * next attach.
     */
    private final class ResetWatcher implements LoggerContextListener {

        private final LoggerContext context;
        private volatile boolean stopped;

        ResetWatcher(LoggerContext context) {
            this.context = context;
        }

        /** Whether Logback was neither stopped nor left without this watcher since the attach. */
        boolean untouched() {
            return !stopped && context.getCopyOfListenerList().contains(this);
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
            if (!stopped) {
                afterReset(this);
            }
        }

        @Override
        public void onStop(LoggerContext context) {
            stopped = true;
        }

        @Override
        public void onLevelChange(Logger logger, Level level) {
        }
    }
}
