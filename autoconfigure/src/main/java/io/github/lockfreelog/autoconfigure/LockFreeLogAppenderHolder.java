package io.github.lockfreelog.autoconfigure;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.PatternLayout;
import ch.qos.logback.classic.filter.ThresholdFilter;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.LoggerContextListener;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.FileAppender;
import ch.qos.logback.core.encoder.Encoder;
import ch.qos.logback.core.encoder.LayoutWrappingEncoder;
import ch.qos.logback.core.pattern.DynamicConverter;
import ch.qos.logback.core.status.Status;
import ch.qos.logback.core.util.Duration;
import ch.qos.logback.core.util.FileSize;
import io.github.lockfreelog.autoconfigure.actuate.LockFreeLogAppenders;
import io.github.lockfreelog.logback.LockFreeFileAppender;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.springframework.beans.BeanUtils;
import org.springframework.boot.logging.LoggingSystem;
import org.springframework.boot.logging.logback.StructuredLogEncoder;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;

/**
 * Holds the one appender the starter attaches, for the life of the JVM, so that it outlives
 * Logback resets, Spring Boot re-initialising logging and a second {@code SpringApplication.run}.
 * Equal {@link LockFreeLogSettings} reuse the running instance; different ones replace it.
 *
 * <p>Start-up only: methods synchronise on the class, never on the logging path.
 */
public final class LockFreeLogAppenderHolder {

    /** Name of the appender the starter attaches. */
    public static final String APPENDER_NAME = "LOCKFREE_FILE";

    /**
     * Spring Boot's converters, so that {@code logging.pattern.file} values written for Boot work here too; by
     * name, as each is instantiated where present (native images: {@link LockFreeLogRuntimeHints}).
     */
    static final Map<String, String> BOOT_CONVERTERS = Map.of(
            "clr", "org.springframework.boot.logging.logback.ColorConverter",
            "correlationId", "org.springframework.boot.logging.logback.CorrelationIdConverter",
            "esb", "org.springframework.boot.logging.logback.EnclosedInSquareBracketsConverter",
            "wex", "org.springframework.boot.logging.logback.WhitespaceThrowableProxyConverter",
            "wEx", "org.springframework.boot.logging.logback.ExtendedWhitespaceThrowableProxyConverter");

    private static final String PARSER_PACKAGE = "ch.qos.logback.core.pattern.parser.";

    private static SpringBootLockFreeFileAppender appender;
    private static LockFreeLogSettings settings;
    private static LoggerContext context;
    /** True between "Spring Boot is about to reset Logback" and the next attach: resets must not re-attach. */
    private static boolean suspended;
    private static final ReattachOnReset RESET_LISTENER = new ReattachOnReset();
    /** Open application contexts that stop the appender when they close (no logging shutdown hook). */
    private static final Set<Object> STOP_WHEN_CLOSED = Collections.newSetFromMap(new IdentityHashMap<>());

    private LockFreeLogAppenderHolder() {
    }

    /**
     * Makes sure the appender for these settings runs and is attached to its loggers.
     *
     * @param settings resolved settings; {@code null} (no log file set) detaches and stops the appender
     * @param environment the Spring environment, which Spring Boot's structured log formats read
     * @return the appender the starter runs, or {@code null} when there is none
     * @throws InvalidLockFreeLogPropertyException when the pattern is not valid or the appender cannot start
     */
    static synchronized LockFreeFileAppender attach(LoggerContext loggerContext, LockFreeLogSettings settings,
            Environment environment) {
        suspended = false;
        if (settings == null || declaredAppenderFor(loggerContext, settings.file()) != null) {
            // Nothing to write, or the Logback configuration already writes this file with its own appender.
            detachAndStop();
            return null;
        }
        if (appender == null || !appender.isStarted() || context != loggerContext
                || !settings.equals(LockFreeLogAppenderHolder.settings)) {
            detachAndStop();
            appender = start(loggerContext, settings, environment);
            LockFreeLogAppenderHolder.settings = settings;
            context = loggerContext;
        }
        attachToLoggers();
        if (settings.replaceBootFileAppender() && settings.bootLogFile() != null) {
            removeFileAppenders(loggerContext, settings.bootLogFile());
        }
        if (!loggerContext.getCopyOfListenerList().contains(RESET_LISTENER)) {
            loggerContext.addListener(RESET_LISTENER);
        }
        return appender;
    }

    /**
     * Called when Spring Boot is about to reset Logback (a new {@code SpringApplication.run} after the
     * previous context closed): takes the appender off its loggers so that the reset does not stop it.
     * The next {@link #attach} puts it back; logging is suppressed by Spring Boot in between.
     */
    static synchronized void suspendForReinitialisation(LoggerContext loggerContext) {
        if (appender != null && context == loggerContext
                && loggerContext.getObject(LoggingSystem.class.getName()) == null) {
            suspended = true;
            detachFromLoggers();
        }
    }

    /** Takes the starter's appender off every logger and stops it (it drains first). Safe to call at any time. */
    public static synchronized void detachAndStop() {
        if (appender != null) {
            detachFromLoggers();
            appender.stopNow();
            context.removeListener(RESET_LISTENER);
        }
        appender = null;
        settings = null;
        context = null;
        suspended = false;
    }

    /** Registers an open application context whose close is to stop the appender. */
    static synchronized void stopWhenClosed(Object context) {
        STOP_WHEN_CLOSED.add(context);
    }

    /** The application context registered with {@link #stopWhenClosed} closed: the last one stops the appender. */
    static synchronized void closed(Object context) {
        if (STOP_WHEN_CLOSED.remove(context) && STOP_WHEN_CLOSED.isEmpty()) {
            detachAndStop();
        }
    }

    /** The appender the starter runs now, or {@code null}. */
    public static synchronized LockFreeFileAppender current() {
        return appender;
    }

    static synchronized void reattachAfterReset() {
        if (appender != null && appender.isStarted() && !suspended) {
            attachToLoggers();
        }
    }

    private static SpringBootLockFreeFileAppender start(LoggerContext loggerContext, LockFreeLogSettings settings,
            Environment environment) {
        Encoder<ILoggingEvent> encoder = (settings.structuredFormat() != null)
                ? structuredEncoder(loggerContext, settings, environment) : patternEncoder(loggerContext, settings);
        SpringBootLockFreeFileAppender created = new SpringBootLockFreeFileAppender();
        created.setContext(loggerContext);
        created.setName(APPENDER_NAME);
        created.setFile(settings.file());
        created.setJournal(settings.journal());
        created.setEncoder(encoder);
        created.setBufferSize(new FileSize(settings.bufferSize()));
        created.setBufferCount(settings.bufferCount());
        created.setBackpressure(settings.backpressure());
        created.setMaxBlockTime(Duration.buildByMilliseconds(settings.maxBlockTime().toMillis()));
        if (settings.maxEventSize() != null) {
            created.setMaxEventSize(new FileSize(settings.maxEventSize()));
        }
        created.setFlushInterval(Duration.buildByMilliseconds(settings.flushInterval().toMillis()));
        created.setDropBelowLevel(settings.dropBelowLevel());
        if (settings.threshold() != null) {
            // As Spring Boot's file appender: logging.threshold.file keeps lower levels out of the file.
            ThresholdFilter threshold = new ThresholdFilter();
            threshold.setContext(loggerContext);
            threshold.setLevel(settings.threshold());
            threshold.start();
            created.addFilter(threshold);
        }
        LockFreeLogRolling rolling = settings.rolling();
        if (rolling != null) {
            created.setFileNamePattern(rolling.fileNamePattern());
            if (rolling.maxFileSize() > 0) {
                created.setMaxFileSize(new FileSize(rolling.maxFileSize()));
            }
            created.setMaxHistory(rolling.maxHistory());
            if (rolling.totalSizeCap() > 0) {
                created.setTotalSizeCap(new FileSize(rolling.totalSizeCap()));
            }
            created.setCleanHistoryOnStart(rolling.cleanHistoryOnStart());
        }
        created.start();
        if (!created.isStarted()) {
            encoder.stop();
            List<String> errors = errorsFrom(loggerContext, created);
            if (rolling != null && errors.stream().anyMatch(e -> e.contains("fileNamePattern"))) {
                throw new InvalidLockFreeLogPropertyException(rolling.fileNamePatternProperty(), rolling.fileNamePattern(),
                        "a Logback file name pattern the appender accepts: " + String.join("; ", errors));
            }
            throw new InvalidLockFreeLogPropertyException(LockFreeLogProperties.PREFIX + ".file", settings.file(),
                    "a file (and journal) the application can create and write: " + String.join("; ", errors));
        }
        return created;
    }

    private static Encoder<ILoggingEvent> patternEncoder(LoggerContext loggerContext, LockFreeLogSettings settings) {
        PatternLayout layout = new PatternLayout();
        layout.setContext(loggerContext);
        layout.setPattern(settings.pattern());
        BOOT_CONVERTERS.forEach((word, type) -> converter(type).ifPresent(s -> layout.getInstanceConverterMap().put(word, s)));
        long startedAt = System.currentTimeMillis();
        layout.start();
        // The pattern parser reports unknown conversion words under its own origin.
        List<String> layoutErrors = loggerContext.getStatusManager().getCopyOfStatusList().stream()
                .filter(s -> s.getLevel() == Status.ERROR && s.getTimestamp() >= startedAt && (s.getOrigin() == layout
                        || (s.getOrigin() != null && s.getOrigin().getClass().getName().startsWith(PARSER_PACKAGE))))
                .map(Status::getMessage)
                .collect(Collectors.toList());
        if (!layout.isStarted() || !layoutErrors.isEmpty()) {
            throw new InvalidLockFreeLogPropertyException(settings.patternProperty(), settings.pattern(),
                    "a valid Logback pattern (" + String.join("; ", layoutErrors) + ")");
        }
        LayoutWrappingEncoder<ILoggingEvent> encoder = new LayoutWrappingEncoder<>();
        encoder.setContext(loggerContext);
        encoder.setLayout(layout);
        encoder.setCharset(settings.charset());
        encoder.start();
        return encoder;
    }

    /**
     * Spring Boot's structured log encoder, set up as Spring Boot sets up its own file appender's. It reads
     * the Spring {@link Environment} from the logger context, where Spring Boot puts it while it initialises
     * logging; the environment at hand is put there while the encoder starts (a context built by hand has
     * none there, or a stale one), and what was there before is put back.
     */
    private static Encoder<ILoggingEvent> structuredEncoder(LoggerContext loggerContext, LockFreeLogSettings settings,
            Environment environment) {
        StructuredLogEncoder encoder = new StructuredLogEncoder();
        encoder.setContext(loggerContext);
        encoder.setFormat(settings.structuredFormat());
        encoder.setCharset(settings.charset());
        String key = Environment.class.getName();
        Object previous = loggerContext.getObject(key);
        boolean lend = environment != null && previous != environment;
        if (lend) {
            loggerContext.putObject(key, environment);
        }
        try {
            encoder.start();
        } catch (RuntimeException ex) {
            throw new InvalidLockFreeLogPropertyException(settings.structuredFormatProperty(), settings.structuredFormat(),
                    "ecs, gelf, logstash, or the fully-qualified name of a StructuredLogFormatter class ("
                            + ex.getMessage() + ")");
        } finally {
            if (lend && previous != null) {
                loggerContext.putObject(key, previous);
            } else if (lend) {
                loggerContext.removeObject(key);
            }
        }
        return encoder;
    }

    private static Optional<Supplier<DynamicConverter>> converter(String type) {
        ClassLoader loader = LockFreeLogAppenderHolder.class.getClassLoader();
        if (!ClassUtils.isPresent(type, loader)) {
            return Optional.empty();
        }
        Class<?> converterClass = ClassUtils.resolveClassName(type, loader);
        return Optional.of(() -> (DynamicConverter) BeanUtils.instantiateClass(converterClass));
    }

    private static List<String> errorsFrom(LoggerContext loggerContext, Object origin) {
        return loggerContext.getStatusManager().getCopyOfStatusList().stream()
                .filter(s -> s.getOrigin() == origin && s.getLevel() == Status.ERROR)
                .map(Status::getMessage)
                .collect(Collectors.toList());
    }

    private static void attachToLoggers() {
        for (String name : settings.loggers()) {
            Logger logger = context.getLogger(name);
            if (!logger.isAttached(appender)) {
                logger.addAppender(appender);
            }
        }
    }

    private static void detachFromLoggers() {
        for (Logger logger : context.getLoggerList()) {
            logger.detachAppender(appender);
        }
    }

    /** Removes (and stops) plain file appenders that write {@code file}: Spring Boot's FILE appender. */
    private static void removeFileAppenders(LoggerContext loggerContext, String file) {
        for (Logger logger : loggerContext.getLoggerList()) {
            for (Iterator<Appender<ILoggingEvent>> it = logger.iteratorForAppenders(); it.hasNext();) {
                Appender<ILoggingEvent> candidate = it.next();
                if (candidate instanceof FileAppender<?> fileAppender && fileAppender.getFile() != null
                        && file.equals(LockFreeLogSettings.absolute(fileAppender.getFile()))) {
                    logger.detachAppender(candidate);
                    candidate.stop();
                }
            }
        }
    }

    /** A lock-free appender from the Logback configuration (e.g. logback-spring.xml) that writes {@code file}. */
    private static LockFreeFileAppender declaredAppenderFor(LoggerContext loggerContext, String file) {
        for (LockFreeFileAppender candidate : LockFreeLogAppenders.find(loggerContext)) {
            if (candidate != appender && candidate.getFile() != null
                    && file.equals(LockFreeLogSettings.absolute(candidate.getFile()))) {
                return candidate;
            }
        }
        return null;
    }

    /** Attaches the appender again after a plain Logback reset; survives resets itself. */
    static final class ReattachOnReset implements LoggerContextListener {

        @Override
        public boolean isResetResistant() {
            return true;
        }

        @Override
        public void onStart(LoggerContext context) {
        }

        @Override
        public void onReset(LoggerContext context) {
            reattachAfterReset();
        }

        @Override
        public void onStop(LoggerContext context) {
        }

        @Override
        public void onLevelChange(Logger logger, Level level) {
        }
    }
}
