package io.github.lockfreelog.autoconfigure.takeover;

import ch.qos.logback.classic.LoggerContext;
import io.github.lockfreelog.autoconfigure.properties.LockFreeLogProperties;
import io.github.lockfreelog.autoconfigure.properties.StarterProperties;
import io.github.lockfreelog.files.FileIdentity;
import io.github.lockfreelog.logback.LockFreeFileAppender;
import java.nio.file.Path;
import java.nio.file.Paths;
import org.springframework.core.env.ConfigurableEnvironment;

/**
 * The file's part of a run: the lock-free file in place of Spring Boot's {@code FILE} (or a file of the starter's
 * own, {@code lockfreelog.file.name}), kept over the running one when its file, format and engine settings are the
 * same; or, where there is none, why: no log file configured, the Logback configuration writes it itself, or the
 * lock-free appender was refused (then Spring Boot's own {@code FILE} stays, and the application starts all the same).
 */
public final class FileTakeOver {

    /** Why there is no appender when no log file is configured. */
    public static final String NO_LOG_FILE = "no log file is configured: set logging.file.name, logging.file.path or "
            + "lockfreelog.file.name to write one lock-free";

    /**
     * What a run's file part left.
     *
     * @param absence why there is no lock-free file, or {@code null} when there is one
     * @param replacesBoots whether the lock-free file writes in place of Spring Boot's {@code FILE}
     */
    public record Outcome(String absence, boolean replacesBoots) {
    }

    private FileTakeOver() {
    }

    /** The file's part of a run: the lock-free file the settings ask for, or why there is none. */
    public static Outcome apply(LoggerContext loggerContext, ManagedAppender<LockFreeFileAppender> file, StarterProperties starter,
            ConfigurableEnvironment environment) {
        LockFreeLogProperties properties = starter.properties();
        String fileName = starter.fileName();
        if (fileName == null) {
            if (!properties.getConsole().isEnabled()) {
                RunLog.get().info("lockfreelog: {}", NO_LOG_FILE);
            }
            return none(file, NO_LOG_FILE);
        }
        Path target = FileIdentity.canonical(Paths.get(fileName));
        LogFileWriters writers = LogFileWriters.of(loggerContext, target, file.get());
        if (writers.declared() != null) {
            return none(file, "the Logback configuration" + starter.configurationName() + " writes " + target
                    + " with its own lock-free appender '" + writers.declared().getName() + "'");
        }
        if (!writers.others().isEmpty()) {
            String why = "the Logback configuration" + starter.configurationName() + " writes " + target
                    + " with its own appender " + writers.describeOthers() + ", so lockfreelog leaves it as configured";
            RunLog.get().info("lockfreelog: {}. To write that file lock-free, "
                    + "declare io.github.lockfreelog.logback.LockFreeFileAppender for it in that configuration;"
                    + " lockfreelog.enabled=false turns the starter off.", why);
            return none(file, why);
        }
        FileFormat format = (writers.bootFile() != null) ? FileFormat.of(writers.bootFile(), loggerContext, environment)
                : FileFormat.of(loggerContext, target, environment);
        String wanted = target + "|" + format.identity() + "|" + AppenderSettings.engineIdentity(properties.getFile());
        if (!file.resume(wanted)) { // the same file, format and engine go on over the running one
            file.close();
            StarterAppenderFactory.Started started = StarterAppenderFactory.create(loggerContext, target, starter, format,
                    environment);
            if (started.appender() == null) {
                return refused(file, target, writers.bootFile() != null, started);
            }
            file.replaceWith(started.appender(), wanted);
        }
        boolean replacesBoots = writers.bootFile() != null;
        if (replacesBoots) {
            ManagedAppender.replace(loggerContext, writers.bootFile());
        }
        return new Outcome(null, replacesBoots);
    }

    /**
     * The lock-free file could not start (its file or journal refused): the application starts all the same. Where it
     * was to take the place of Spring Boot's {@code FILE}, that appender stays and writes the log; a file of the
     * starter's own ({@code lockfreelog.file.name}) is not written, and the console still shows every line. One line
     * says what was refused and what to set; the endpoint and health give it as the reason there is no appender.
     */
    private static Outcome refused(ManagedAppender<LockFreeFileAppender> file, Path target, boolean bootsFile,
            StarterAppenderFactory.Started started) {
        String what = "the lock-free appender for " + target + " was refused: " + started.failure();
        String remedy = "Mend that, or set " + started.property() + " to a place of this application's user, closed to"
                + " others, that it may create and write; the next start then writes the log lock-free.";
        org.slf4j.Logger log = RunLog.get();
        if (bootsFile) {
            log.warn("lockfreelog: Spring Boot's own FILE appender writes {}, not lock-free: {}. {}", target, what, remedy);
            return none(file, what + "; Spring Boot's own FILE appender writes the log");
        }
        log.error("lockfreelog: {} is not written: {}. Every line still reaches the console. {}", target, what, remedy);
        return none(file, what + "; the log file is not written");
    }

    /** No lock-free file this run: the running one, if any, ends. */
    private static Outcome none(ManagedAppender<LockFreeFileAppender> file, String why) {
        file.close();
        return new Outcome(why, false);
    }
}
