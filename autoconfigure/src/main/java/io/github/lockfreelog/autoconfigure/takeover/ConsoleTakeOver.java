package io.github.lockfreelog.autoconfigure.takeover;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.encoder.Encoder;
import ch.qos.logback.core.filter.Filter;
import ch.qos.logback.core.status.Status;
import io.github.lockfreelog.autoconfigure.properties.InvalidLockFreeLogPropertyException;
import io.github.lockfreelog.autoconfigure.properties.LockFreeLogProperties;
import io.github.lockfreelog.autoconfigure.properties.StarterProperties;
import io.github.lockfreelog.engine.SettingProblem;
import io.github.lockfreelog.logback.LockFreeConsoleAppender;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.springframework.boot.logging.logback.StructuredLogEncoder;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.util.StringUtils;

/**
 * The console's part of a run: which console appenders the Logback context has, sorted into the cases the starter
 * treats differently (Spring Boot's own {@code CONSOLE}, replaced; a {@link LockFreeConsoleAppender} the configuration
 * declares, used as it is; any other console appender, the user's, left alone), and the lock-free console that takes
 * the place of Spring Boot's, with its encoder, filters (the threshold) and so its charset.
 *
 * @param bootConsole Spring Boot's own console appender, or {@code null}
 * @param declared a lock-free console appender of the Logback configuration, or {@code null}
 * @param others the other console appenders, each with the loggers it is attached to
 */
public record ConsoleTakeOver(ConsoleAppender<ILoggingEvent> bootConsole, LockFreeConsoleAppender declared,
        Map<Appender<ILoggingEvent>, List<String>> others) {

    /** Name of the starter's console appender. */
    static final String NAME = "LOCKFREE_CONSOLE";

    /** The name Spring Boot gives its console appender, in its defaults and in its {@code console-appender.xml}. */
    static final String BOOT_CONSOLE_APPENDER = "CONSOLE";

    private static final String JOURNAL_PROPERTY = "lockfreelog.console.journal";
    private static final String CONSOLE_LOG_PATTERN = "CONSOLE_LOG_PATTERN";
    private static final String THRESHOLD = "${CONSOLE_LOG_THRESHOLD:-TRACE}";

    /** The console appenders of the context, leaving out {@code ours}. */
    static ConsoleTakeOver of(LoggerContext context, LockFreeConsoleAppender ours) {
        Map<Appender<ILoggingEvent>, List<String>> consoles = LogFileWriters.attached(context, appender -> appender != ours
                && (appender instanceof ConsoleAppender || appender instanceof LockFreeConsoleAppender));
        ConsoleAppender<ILoggingEvent> boot = null;
        LockFreeConsoleAppender declared = null;
        for (Iterator<Map.Entry<Appender<ILoggingEvent>, List<String>>> it = consoles.entrySet().iterator(); it.hasNext();) {
            Map.Entry<Appender<ILoggingEvent>, List<String>> console = it.next();
            if (console.getKey() instanceof LockFreeConsoleAppender lockFree && declared == null) {
                declared = lockFree;
                it.remove();
            } else if (boot == null && isBootsOwn(context, console.getKey(), console.getValue())) {
                @SuppressWarnings("unchecked")
                ConsoleAppender<ILoggingEvent> found = (ConsoleAppender<ILoggingEvent>) console.getKey();
                boot = found;
                it.remove();
            }
        }
        return new ConsoleTakeOver(boot, declared, consoles);
    }

    /**
     * Whether an appender is Spring Boot's own console appender, as its defaults or its {@code console-appender.xml}
     * build it: named {@code CONSOLE}, a {@link ConsoleAppender} on standard output, on the root logger alone, with
     * Spring Boot's console format ({@code CONSOLE_LOG_PATTERN}, or its structured encoder).
     */
    static boolean isBootsOwn(LoggerContext context, Appender<ILoggingEvent> appender, List<String> loggers) {
        if (!BOOT_CONSOLE_APPENDER.equals(appender.getName()) || !(appender instanceof ConsoleAppender<?> console)
                || !loggers.equals(List.of(Logger.ROOT_LOGGER_NAME))
                || !"System.out".equals(console.getTarget())) {
            return false;
        }
        if (console.getEncoder() instanceof StructuredLogEncoder) {
            return true;
        }
        return console.getEncoder() instanceof PatternLayoutEncoder encoder && encoder.getPattern() != null
                && encoder.getPattern().equals(LogFileWriters.bootPattern(context, CONSOLE_LOG_PATTERN));
    }

    /**
     * The console's part of a run ({@code lockfreelog.console.enabled}): the lock-free console in place of Spring
     * Boot's {@code CONSOLE}; a console of the user's own, or a journal that cannot be made, leaves the console as it
     * is, with one line that says why.
     */
    public static void apply(LoggerContext context, ManagedAppender<LockFreeConsoleAppender> console, StarterProperties starter,
            ConfigurableEnvironment environment) {
        LockFreeLogProperties properties = starter.properties();
        if (!properties.getConsole().isEnabled()) {
            console.close();
            return;
        }
        org.slf4j.Logger log = RunLog.get();
        ConsoleTakeOver consoles = of(context, console.get());
        if (consoles.declared() != null) {
            console.close(); // the configuration's own lock-free console is used as it is
            return;
        }
        if (consoles.bootConsole() == null) {
            console.close();
            log.info("lockfreelog: lockfreelog.console.enabled is set, but the Logback configuration{} has no Spring Boot"
                    + " CONSOLE appender to replace{}; the console is left as configured. To write it lock-free,"
                    + " declare io.github.lockfreelog.logback.LockFreeConsoleAppender in that configuration.",
                    starter.configurationName(), consoles.others().isEmpty() ? "" : " (it has its own: "
                            + consoles.describeOthers() + ")");
            return;
        }
        String wanted = consoles.formatIdentity(context) + "|"
                + AppenderSettings.engineIdentity(properties.getConsole());
        if (!console.resume(wanted)) {
            console.close();
            Started started = consoles.start(context, starter, environment);
            if (started.appender() == null) {
                // each failure carries what to do about its own cause; only the setting's name is Spring Boot's
                log.warn("lockfreelog: the console stays Spring Boot's own, as the lock-free console could not start: {}",
                        inPropertyTerms(started.failure()));
                return;
            }
            console.replaceWith(started.appender(), wanted);
        }
        ManagedAppender.replace(context, consoles.bootConsole());
    }

    /** A failure of the appender in the starter's terms: its {@code <journal>} setting is {@code lockfreelog.console.journal}. */
    static String inPropertyTerms(String failure) {
        return failure.replace("<journal>", JOURNAL_PROPERTY).replace("set the journal ", "set " + JOURNAL_PROPERTY + " ")
                .replace("set journal ", "set " + JOURNAL_PROPERTY + " ");
    }

    /** What Spring Boot's console looks like: equal identities make equal consoles, so a running one is kept. */
    String formatIdentity(LoggerContext context) {
        Encoder<ILoggingEvent> encoder = bootConsole.getEncoder();
        String format = (encoder instanceof PatternLayoutEncoder pattern)
                ? "pattern:" + pattern.getPattern() + "|" + pattern.getCharset()
                : "encoder:" + System.identityHashCode(encoder);
        return format + "|" + FileFormat.resolve(context, THRESHOLD, Map.of());
    }

    /** One sentence naming the other console appenders and their loggers. */
    String describeOthers() {
        return LogFileWriters.describe(others);
    }

    /**
     * What starting the lock-free console came to: the appender, started, or why it could not start.
     *
     * @param appender the started appender, or {@code null}
     * @param failure the errors of its start (its journal cannot be created or locked), or {@code null}
     */
    record Started(LockFreeConsoleAppender appender, String failure) {
    }

    /**
     * Starts a lock-free console with Spring Boot's console's encoder and filters, its engine kept across Logback's
     * stops. When it cannot start (its journal cannot be created or locked), Spring Boot's console stays.
     *
     * @throws InvalidLockFreeLogPropertyException when a setting of the engine is not allowed
     */
    Started start(LoggerContext context, StarterProperties starter, ConfigurableEnvironment environment) {
        LockFreeLogProperties.Console properties = starter.properties().getConsole();
        LockFreeConsoleAppender created = new LockFreeConsoleAppender();
        created.setContext(context);
        created.setName(NAME);
        created.setKeepEngineOnStop(true);
        created.setEncoder(bootConsole.getEncoder());
        List<Filter<ILoggingEvent>> filters = bootConsole.getCopyOfAttachedFiltersList();
        filters.forEach(created::addFilter);
        AppenderSettings.applyEngine(created, properties);
        String application = environment.getProperty("spring.application.name");
        if (StringUtils.hasText(application)) {
            created.setApplication(application);
        }
        List<SettingProblem> problems = created.checkSettings();
        if (!problems.isEmpty()) {
            SettingProblem first = problems.get(0);
            String property = AppenderSettings.propertyOf(first, AppenderSettings.CONSOLE,
                    AppenderSettings.CONSOLE + "enabled");
            throw InvalidLockFreeLogPropertyException.of(environment, property, first.value(),
                    AppenderSettings.inPropertyNames(first.allowed(), AppenderSettings.CONSOLE));
        }
        long startedAt = System.currentTimeMillis();
        created.start();
        if (!created.isStarted()) {
            return new Started(null, String.join("; ", context.getStatusManager().getCopyOfStatusList().stream()
                    .filter(s -> s.getLevel() == Status.ERROR && s.getTimestamp() >= startedAt)
                    .map(Status::getMessage).toList()));
        }
        return new Started(created, null);
    }
}
