package io.github.lockfreelog.logback;

import ch.qos.logback.core.util.FileSize;
import io.github.lockfreelog.diagnostics.StatusReporter;
import io.github.lockfreelog.engine.EngineConfig;
import io.github.lockfreelog.engine.JournalEngine;
import io.github.lockfreelog.engine.SettingProblem;
import io.github.lockfreelog.files.FileIdentity;
import io.github.lockfreelog.journal.JournalSlots;
import io.github.lockfreelog.logback.rolling.RollingLogSink;
import io.github.lockfreelog.sink.FileLogSink;
import io.github.lockfreelog.sink.LogTarget;
import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * A Logback appender that writes a log file without a lock: each calling thread encodes its own
 * event, reserves space in a memory-mapped journal with one atomic operation, copies the bytes
 * and returns. Once {@code append} has returned the event survives the death of the JVM; a
 * background thread moves it to the log file. See the project README for every setting.
 *
 * <pre>{@code
 * <appender name="FILE" class="io.github.lockfreelog.logback.LockFreeFileAppender">
 *   <file>logs/app.log</file>
 *   <encoder><pattern>%d %5p [%t] %c - %m%n</pattern></encoder>
 * </appender>
 * }</pre>
 *
 * <p>This class orders the steps; the shared settings are {@link LockFreeAppenderBase}'s, and the work of each
 * step is a small class's: {@code AppenderFiles} (claims, folders, permissions), {@code EventWriter} (encoding),
 * {@code LogbackStatusReporter} (the engine's statuses), {@code RecoveryReport} and {@code RollingSettings}.
 */
public class LockFreeFileAppender extends LockFreeAppenderBase {

    private String file;
    private String fileNamePattern;
    private FileSize maxFileSize;
    private int maxHistory;
    private FileSize totalSizeCap;
    private boolean cleanHistoryOnStart;
    /** Wall clock for time-based rolling; tests replace it. */
    LongSupplier clock = System::currentTimeMillis;


    @Override
    protected JournalEngine startEngine(String suffix) {
        Path logFile;
        try {
            // real paths: what is written is fixed at start, whatever links on the way are swapped later
            logFile = FileIdentity.realFile(Paths.get(file));
        } catch (IOException | RuntimeException e) {
            addError("Cannot create the directory of the log file " + file + " or of the journal" + suffix + ": " + e);
            return null;
        }
        AppenderFiles files = newClaims();
        Path journalFile;
        if (isJournalSet()) {
            try {
                journalFile = AppenderFiles.journalOf(getJournal());
            } catch (RuntimeException e) {
                addError("Cannot use the journal " + getJournal() + suffix + ": " + e);
                return null;
            }
            journalFile = files.placeJournal(journalFile, suffix); // in an open folder: in this user's own inside it
        } else {
            journalFile = files.defaultJournal(logFile, suffix); // in an open folder: in this user's own inside it
        }
        if (journalFile == null) {
            return null;
        }
        if (!files.claim(logFile, journalFile, isJournalSet(), String.valueOf(name), suffix)) {
            return null;
        }
        files.describeFileSystems(logFile, journalFile, suffix);
        // the default journal is the first of several slots, so that other processes may log to the same file
        int slots = isJournalSet() ? 1 : JournalSlots.DEFAULT_SLOTS;
        EngineConfig config = engineConfig().logFile(logFile).journalFile(journalFile).journalSlots(slots).build();
        try {
            StatusReporter status = new LogbackStatusReporter(this, suffix);
            RollingLogSink.Settings rolling = rollingSettings().sinkSettings();
            return JournalEngine.start(config, status, () -> sinkDecorator().apply(rolling == null
                    ? new FileLogSink(logFile, status)
                    : new RollingLogSink(logFile, rolling, getContext(), clock, status, String.valueOf(name))));
        } catch (IOException | RuntimeException e) {
            files.release();
            addError("Could not start" + suffix + " with file " + logFile + " and journal " + journalFile + ": " + e, e);
            return null;
        }
    }

    @Override
    protected LogTarget target() {
        return LogTarget.FILE;
    }

    @Override
    protected String targetName() {
        return file;
    }

    /**
     * Checks every setting that needs no file system access, each once.
     *
     * @return the settings whose values cannot be used, in the order of the settings; empty when all can
     */
    @Override
    public List<SettingProblem> checkSettings() {
        List<SettingProblem> problems = new ArrayList<>();
        if (file == null || file.isBlank()) {
            problems.add(new SettingProblem("file", null, "the path of the log file"));
        }
        addSharedProblems(problems);
        rollingSettings().addProblems(problems);
        return problems;
    }

    private RollingSettings rollingSettings() {
        return new RollingSettings(fileNamePattern, maxFileSize, maxHistory, totalSizeCap, cleanHistoryOnStart);
    }

    // ---- settings of the log file and its rolling --------------------------------------------

    public String getFile() {
        return file;
    }

    /** Path of the log file. */
    public void setFile(String file) {
        this.file = file;
    }

    public String getFileNamePattern() {
        return fileNamePattern;
    }

    /**
     * Name pattern of rolled files, in Logback's syntax: {@code %d{...}} for the period (required),
     * {@code %i} for the index within a period (required with maxFileSize), {@code .gz} or
     * {@code .zip} at the end to compress. Unset means the file never rolls.
     */
    public void setFileNamePattern(String fileNamePattern) {
        this.fileNamePattern = fileNamePattern;
    }

    public FileSize getMaxFileSize() {
        return maxFileSize;
    }

    /** Size at which the live file rolls (between whole events). */
    public void setMaxFileSize(FileSize maxFileSize) {
        this.maxFileSize = maxFileSize;
    }

    public int getMaxHistory() {
        return maxHistory;
    }

    /** Number of periods of archives to keep; 0 keeps all. */
    public void setMaxHistory(int maxHistory) {
        this.maxHistory = maxHistory;
    }

    public FileSize getTotalSizeCap() {
        return totalSizeCap;
    }

    /** Total size of archives above which the oldest are deleted; unset means no cap. */
    public void setTotalSizeCap(FileSize totalSizeCap) {
        this.totalSizeCap = totalSizeCap;
    }

    public boolean isCleanHistoryOnStart() {
        return cleanHistoryOnStart;
    }

    /** Whether to apply maxHistory and totalSizeCap at start as well as after each roll. */
    public void setCleanHistoryOnStart(boolean cleanHistoryOnStart) {
        this.cleanHistoryOnStart = cleanHistoryOnStart;
    }
}
