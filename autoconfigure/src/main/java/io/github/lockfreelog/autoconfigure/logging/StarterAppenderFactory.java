package io.github.lockfreelog.autoconfigure.logging;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.core.status.Status;
import io.github.lockfreelog.engine.SettingProblem;
import io.github.lockfreelog.logback.LockFreeFileAppender;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.util.StringUtils;

/**
 * Creates and starts the starter's appender from a run's settings, or fails with a report in property names: the
 * appender's own check of its settings, then its start (which may refuse the file or the journal).
 */
final class StarterAppenderFactory {

    private StarterAppenderFactory() {
    }

    /**
     * A started appender named {@link StarterAppender#NAME} writing {@code file}, its engine kept across Logback's
     * stops.
     *
     * @throws InvalidLockFreeLogPropertyException when a setting is not allowed, or the appender cannot start
     */
    static LockFreeFileAppender create(LoggerContext loggerContext, Path file, StarterProperties starter,
            FileFormat format, ConfigurableEnvironment environment) {
        LockFreeLogProperties.File properties = starter.properties().getFile();
        LockFreeFileAppender created = new LockFreeFileAppender();
        created.setContext(loggerContext);
        created.setName(StarterAppender.NAME);
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
            boolean journal = StringUtils.hasText(properties.getJournal())
                    && errors.stream().anyMatch(e -> e.contains(Objects.toString(properties.getJournal())));
            throw InvalidLockFreeLogPropertyException.of(environment,
                    journal ? AppenderSettings.FILE + "journal" : starter.fileProperty(),
                    journal ? properties.getJournal() : file.toString(),
                    (journal ? "a journal" : "a file (and journal folder)") + " this application can create, lock and"
                            + " write: " + AppenderSettings.inPropertyNames(String.join("; ", errors), AppenderSettings.FILE));
        }
        return created;
    }
}
