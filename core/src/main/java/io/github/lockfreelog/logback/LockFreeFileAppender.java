package io.github.lockfreelog.logback;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.util.FileSize;
import io.github.lockfreelog.diagnostics.AppenderStatistics;
import io.github.lockfreelog.diagnostics.StatusReporter;
import io.github.lockfreelog.engine.EngineConfig;
import io.github.lockfreelog.engine.JournalEngine;
import io.github.lockfreelog.engine.SettingProblem;
import io.github.lockfreelog.files.FileIdentity;
import io.github.lockfreelog.journal.JournalSlots;
import io.github.lockfreelog.logback.rolling.RollingLogSink;
import io.github.lockfreelog.sink.FileLogSink;
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

    /** Whether the engine runs on while this appender is stopped ({@link #setKeepEngineOnStop}). */
    private volatile boolean engineKept;
    private volatile JournalEngine engine;
    /** Set at start, before {@code super.start()} publishes it to the callers of {@link #doAppend}. */
    private EventWriter writer;
    /** The files this appender claimed at its last start; {@code null} before. */
    private AppenderFiles files;
    private final NotRunningStatistics notRunning = new NotRunningStatistics();

    @Override
    public void start() {
        if (isStarted()) {
            return;
        }
        if (engineKept) {
            super.start(); // stopped by Logback while its owner kept the engine: append again, same engine and counters
            return;
        }
        String suffix = " for the appender named \"" + name + "\"";
        List<SettingProblem> problems = checkSettings();
        if (!problems.isEmpty()) {
            problems.forEach(problem -> addError(problem.message(String.valueOf(name))));
            return;
        }
        warnAboutSettings(suffix);
        Path logFile;
        Path journalFile;
        try {
            // real paths: what is written is fixed at start, whatever links on the way are swapped later
            logFile = FileIdentity.realFile(Paths.get(file));
            journalFile = AppenderFiles.journalOf(logFile, getJournal());
        } catch (IOException | RuntimeException e) {
            addError("Cannot create the directory of the log file " + file + " or of the journal" + suffix + ": " + e);
            return;
        }
        files = new AppenderFiles(this);
        if (!files.claim(logFile, journalFile, isJournalSet(), String.valueOf(name), suffix)) {
            return;
        }
        writer = EventWriter.of(this, suffix);
        // the default journal is the first of several slots, so that other processes may log to the same file
        int slots = isJournalSet() ? 1 : JournalSlots.DEFAULT_SLOTS;
        EngineConfig config = engineConfig().logFile(logFile).journalFile(journalFile).journalSlots(slots).build();
        try {
            StatusReporter status = new LogbackStatusReporter(this, suffix);
            RollingLogSink.Settings rolling = rollingSettings().sinkSettings();
            engine = JournalEngine.start(config, status, () -> sinkDecorator().apply(rolling == null
                    ? new FileLogSink(logFile, status)
                    : new RollingLogSink(logFile, rolling, getContext(), clock, status, String.valueOf(name))));
        } catch (IOException | RuntimeException e) {
            files.release();
            addError("Could not start" + suffix + " with file " + logFile + " and journal " + journalFile + ": " + e, e);
            return;
        }
        engineKept = isKeepEngineOnStop();
        super.start();
        RecoveryReport.report(engine.statistics(), this, name, this::append);
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

    /**
     * Drains everything committed to the log file, unmaps the journal and leaves it empty; bounded
     * by {@code stopTimeout}. Events that arrive afterwards are counted as dropped ({@code stopped}).
     * With {@link #setKeepEngineOnStop keepEngineOnStop} it only stops appending, and {@link #close()} does the rest.
     */
    @Override
    public void stop() {
        if (!isStarted()) {
            return;
        }
        super.stop();
        if (!engineKept) {
            closeEngine();
        }
    }

    /**
     * Stops appending and closes the engine, as {@link #stop()} does without {@link #setKeepEngineOnStop keepEngineOnStop}:
     * for the owner of an appender whose engine outlives Logback's stops.
     */
    public void close() {
        super.stop();
        closeEngine();
    }

    private void closeEngine() {
        engineKept = false;
        JournalEngine running = engine;
        if (running != null) {
            running.stop();
        }
        if (files != null) {
            files.release();
        }
    }

    @Override
    public void doAppend(ILoggingEvent event) {
        if (!isStarted()) {
            JournalEngine stopped = engine;
            if (stopped != null) {
                stopped.countStopped(); // counted, not silently ignored
                return;
            }
            notRunning.countDropped(); // start failed or never ran: counted too
        }
        super.doAppend(event);
    }

    @Override
    protected void append(ILoggingEvent event) {
        writer.write(engine, event);
    }

    /** An immutable snapshot of this appender's counters. */
    public AppenderStatistics getStatistics() {
        JournalEngine current = engine;
        if (current == null) {
            return notRunning.snapshot(String.valueOf(name), file, getJournal(), (int) getBufferSize().getSize(),
                    getBufferCount());
        }
        return current.statistics();
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
