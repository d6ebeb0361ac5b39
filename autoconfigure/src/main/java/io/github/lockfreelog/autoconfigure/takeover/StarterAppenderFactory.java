package io.github.lockfreelog.autoconfigure.takeover;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.core.status.Status;
import io.github.lockfreelog.autoconfigure.properties.InvalidLockFreeLogPropertyException;
import io.github.lockfreelog.autoconfigure.properties.LockFreeLogProperties;
import io.github.lockfreelog.autoconfigure.properties.StarterProperties;
import io.github.lockfreelog.engine.SettingProblem;
import io.github.lockfreelog.logback.LockFreeFileAppender;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.util.StringUtils;

/**
 * Creates and starts the starter's appender from a run's settings: the appender's own check of its settings, which
 * fails the start with a report in property names, then its start, which may refuse the file or the journal (another
 * user's, open to others, on a file system several hosts mount) and then says why in property names.
 */
public final class StarterAppenderFactory {

    /** Name of the file appender the starter attaches (to those who show it, {@code StarterAppender.NAME}). */
    public static final String NAME = "LOCKFREE_FILE";

    private StarterAppenderFactory() {
    }

    /**
     * What starting the starter's appender came to: the appender, started, or why it could not start (its file or its
     * journal refused, in property names) and the property that chose what was refused.
     *
     * @param appender the started appender, or {@code null}
     * @param property the property whose value was refused ({@code lockfreelog.file.journal}, or the file's), or
     *        {@code null}
     * @param failure the errors of its start, in property names, or {@code null}
     */
    record Started(LockFreeFileAppender appender, String property, String failure) {
    }

    /**
     * A started appender named {@link #NAME} writing {@code file}, its engine kept across Logback's
     * stops; or, when it cannot start (a file or journal folder it refuses, one it may not create), why, so that the
     * application starts all the same.
     *
     * @throws InvalidLockFreeLogPropertyException when a setting is not allowed
     */
    static Started create(LoggerContext loggerContext, Path file, StarterProperties starter,
            FileFormat format, ConfigurableEnvironment environment) {
        LockFreeLogProperties.File properties = starter.properties().getFile();
        LockFreeFileAppender created = new LockFreeFileAppender();
        created.setContext(loggerContext);
        created.setName(NAME);
        created.setKeepEngineOnStop(true);
        created.setFile(file.toString());
        created.setEncoder(format.encoder());
        format.filters().forEach(created::addFilter);
        AppenderSettings.apply(created, properties, format.rolling());
        List<SettingProblem> problems = created.checkSettings();
        if (!problems.isEmpty()) {
            SettingProblem first = problems.get(0);
            throw InvalidLockFreeLogPropertyException.of(environment,
                    AppenderSettings.propertyOf(first, AppenderSettings.FILE, starter.fileProperty()), first.value(),
                    AppenderSettings.inPropertyNames(first.allowed(), AppenderSettings.FILE));
        }
        long startedAt = System.currentTimeMillis();
        created.start();
        if (!created.isStarted()) {
            List<String> errors = loggerContext.getStatusManager().getCopyOfStatusList().stream()
                    .filter(s -> s.getLevel() == Status.ERROR && s.getTimestamp() >= startedAt)
                    .map(Status::getMessage).toList();
            // the journal's setting where what was refused is the journal or its folder, else the file's
            boolean journal = (StringUtils.hasText(properties.getJournal())
                    && errors.stream().anyMatch(e -> e.contains(Objects.toString(properties.getJournal()))))
                    || errors.stream().noneMatch(e -> e.contains("the log file "));
            String failure = errors.isEmpty() ? "it reported no error" : inPropertyTerms(String.join("; ", errors));
            return new Started(null, journal ? AppenderSettings.FILE + "journal" : starter.fileProperty(), failure);
        }
        return new Started(created, null, null);
    }

    /**
     * A failure of the appender's start in the starter's terms: only where it names a setting ({@code <journal>},
     * "set the journal"), never in paths or prose, which may hold the same words.
     */
    static String inPropertyTerms(String failure) {
        String journal = AppenderSettings.FILE + "journal";
        return failure.replace("<journal>", journal).replace("set the journal ", "set " + journal + " ")
                .replace("set journal ", "set " + journal + " ");
    }
}
