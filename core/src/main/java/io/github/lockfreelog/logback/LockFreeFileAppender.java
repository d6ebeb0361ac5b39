package io.github.lockfreelog.logback;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.core.util.FileSize;
import io.github.lockfreelog.diagnostics.AppenderStatistics;
import io.github.lockfreelog.diagnostics.DropReason;
import io.github.lockfreelog.diagnostics.PageFaults;
import io.github.lockfreelog.diagnostics.StatusReporter;
import io.github.lockfreelog.engine.EngineConfig;
import io.github.lockfreelog.engine.JournalEngine;
import io.github.lockfreelog.engine.SettingProblem;
import io.github.lockfreelog.files.FileClaims;
import io.github.lockfreelog.files.FileIdentity;
import io.github.lockfreelog.files.PrivateFolders;
import io.github.lockfreelog.journal.JournalSlots;
import io.github.lockfreelog.logback.encoding.EncoderSafety;
import io.github.lockfreelog.logback.encoding.PatternEncoding;
import io.github.lockfreelog.logback.rolling.RollingLogSink;
import io.github.lockfreelog.sink.FileLogSink;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
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
 */
public class LockFreeFileAppender extends LockFreeAppenderBase {

    private String file;
    private String fileNamePattern;
    private FileSize maxFileSize;
    private int maxHistory;
    private FileSize totalSizeCap;
    private boolean cleanHistoryOnStart;
    /** Whether the engine runs on while this appender is stopped ({@link #setKeepEngineOnStop}). */
    private volatile boolean engineKept;
    /** Wall clock for time-based rolling; tests replace it. */
    LongSupplier clock = System::currentTimeMillis;

    private volatile JournalEngine engine;
    /** Events that arrived while no engine ran (start failed, or was never called): counted as dropped, reason stopped. */
    private final LongAdder droppedWhileNotRunning = new LongAdder();
    /**
     * While it runs: this appender's claims ({@link FileClaims}) on its log file and, when set
     * explicitly, its journal, so that no other appender of the JVM uses either, by any path.
     */
    private final List<FileClaims.Claim> journalInUse = new ArrayList<>();
    private int dropBelow = Integer.MAX_VALUE;
    /** Set only for an encoder that may not be called by many threads at once. */
    private Object encoderGuard;
    /** Allocation-free encoding for a plain pattern encoder, or {@code null}. */
    private PatternEncoding patternEncoding;

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
        dropBelow = (getDropBelowLevel() != null && !getDropBelowLevel().isBlank())
                ? Level.toLevel(getDropBelowLevel().trim()).toInt() : Integer.MAX_VALUE;
        warnAboutSettings(suffix);
        Path logFile;
        Path journalFile;
        try {
            // real paths: what is written is fixed at start, whatever links on the way are swapped later
            logFile = FileIdentity.realFile(Paths.get(file));
            journalFile = journalPath(logFile);
        } catch (IOException | RuntimeException e) {
            addError("Cannot create the directory of the log file " + file + " or of the journal" + suffix + ": " + e);
            return;
        }
        if (!claim(logFile, "log file", "<file>", suffix)
                || (isJournalSet() && !claim(journalFile, "journal", "<journal>", suffix))) {
            releaseClaims();
            return;
        }
        if (!checkWritable(logFile, false, suffix) || !checkWritable(journalFile, true, suffix)) {
            releaseClaims();
            return;
        }
        encoderGuard = EncoderSafety.isThreadSafe(getEncoder(), getEncoderThreadSafe()) ? null : new Object();
        patternEncoding = encoderGuard == null ? PatternEncoding.of(getEncoder()) : null;
        if (encoderGuard != null) {
            addWarn("The encoder " + getEncoder().getClass().getName() + suffix + " is not known to be safe for"
                    + " concurrent use, so events are encoded one at a time; set <encoderThreadSafe>true</encoderThreadSafe>"
                    + " if it is");
        }
        // the default journal is the first of several slots, so that other processes may log to the same file
        int slots = isJournalSet() ? 1 : JournalSlots.DEFAULT_SLOTS;
        EngineConfig config = engineConfig().logFile(logFile).journalFile(journalFile).journalSlots(slots).build();
        try {
            Status status = new Status(suffix);
            RollingLogSink.Settings rolling = rollingSettings();
            engine = JournalEngine.start(config, status, () -> sinkDecorator().apply(rolling == null
                    ? new FileLogSink(logFile, status)
                    : new RollingLogSink(logFile, rolling, getContext(), clock, status, String.valueOf(name))));
        } catch (IOException | RuntimeException e) {
            releaseClaims();
            addError("Could not start" + suffix + " with file " + logFile + " and journal " + journalFile + ": " + e, e);
            return;
        }
        engineKept = isKeepEngineOnStop();
        super.start();
        reportRecovery();
    }

    /**
     * After recovering events from the journal of an unclean stop, the first line this appender writes
     * says so: one INFO event, encoded like every other, so that whoever reads the log sees where the
     * recovered lines end and why they are there.
     */
    private void reportRecovery() {
        AppenderStatistics recovered = engine.statistics();
        String journalFile = recovered.journal();
        if (recovered.recoveredFrames() == 0) {
            if (recovered.skippedFrames() > 0) {
                addInfo("Skipped " + recovered.skippedFrames() + " unfinished event(s) in the journal " + journalFile
                        + " of an unclean stop (appender \"" + name + "\")");
            }
            return;
        }
        String message = "Recovered " + recovered.recoveredFrames() + " event(s) from the journal(s) of an unclean stop"
                + (recovered.skippedFrames() > 0
                        ? "; skipped " + recovered.skippedFrames() + " unfinished event(s) that no caller had finished"
                        : "") + "; journal in use: " + journalFile;
        addInfo(message + " (appender \"" + name + "\")");
        if (getContext() instanceof LoggerContext loggerContext) {
            Logger logger = loggerContext.getLogger(RECOVERY_LOGGER);
            append(new LoggingEvent(Logger.FQCN, logger, Level.INFO, message, null, null)); // past any filter: always written
        }
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
        checkRolling(problems);
        return problems;
    }

    private void checkRolling(List<SettingProblem> problems) {
        boolean rollingAsked = maxFileSize != null || maxHistory != 0 || totalSizeCap != null || cleanHistoryOnStart;
        if (fileNamePattern == null || fileNamePattern.isBlank()) {
            if (rollingAsked) {
                problems.add(new SettingProblem("fileNamePattern", null, "one: rolling settings need one, e.g. "
                        + "<fileNamePattern>logs/app.%d{yyyy-MM-dd}.%i.log.gz</fileNamePattern>"));
            }
            return;
        }
        if (!fileNamePattern.contains("%d")) {
            problems.add(new SettingProblem("fileNamePattern", fileNamePattern,
                    "a pattern with a date token such as %d{yyyy-MM-dd}"));
        } else if (maxFileSize != null && !fileNamePattern.contains("%i")) {
            problems.add(new SettingProblem("fileNamePattern", fileNamePattern,
                    "a pattern with the index token %i, as maxFileSize is set"));
        }
        if (maxFileSize != null && maxFileSize.getSize() <= 0) {
            problems.add(new SettingProblem("maxFileSize", String.valueOf(maxFileSize.getSize()), "a positive size such as 10MB"));
        }
        if (maxHistory < 0) {
            problems.add(new SettingProblem("maxHistory", String.valueOf(maxHistory), "0 (keep all) or a positive number of periods"));
        }
        if (totalSizeCap != null && totalSizeCap.getSize() < 0) {
            problems.add(new SettingProblem("totalSizeCap", String.valueOf(totalSizeCap.getSize()), "0 (no cap) or a positive size"));
        }
    }

    private RollingLogSink.Settings rollingSettings() {
        if (fileNamePattern == null || fileNamePattern.isBlank()) {
            return null;
        }
        return new RollingLogSink.Settings(fileNamePattern, maxFileSize == null ? 0 : maxFileSize.getSize(), maxHistory,
                totalSizeCap == null ? 0 : totalSizeCap.getSize(), cleanHistoryOnStart);
    }


    /** Claims {@code path} for this appender; reports the appender that holds it already. */
    private boolean claim(Path path, String what, String setting, String suffix) {
        FileClaims.Result result = FileClaims.claim(path, String.valueOf(name));
        if (result.claim() == null) {
            addError("The " + what + " " + path + " is already used by the appender named \"" + result.heldBy() + "\""
                    + " (by this path or another one to the same file)" + suffix + ": give each appender its own "
                    + setting);
            return false;
        }
        journalInUse.add(result.claim());
        return true;
    }

    private void releaseClaims() {
        journalInUse.forEach(FileClaims.Claim::close);
        journalInUse.clear();
    }

    private boolean checkWritable(Path target, boolean ownerOnly, String suffix) {
        Path dir = target.getParent();
        try {
            if (ownerOnly) {
                PrivateFolders.ensure(dir); // the journal's folder: the process's user's, closed to others
            } else {
                Files.createDirectories(dir);
            }
        } catch (PrivateFolders.UnsafeFolderException e) {
            addError("Refused " + e.getMessage() + suffix);
            return false;
        } catch (IOException | RuntimeException e) {
            addError("Cannot create the directory " + dir + suffix + ": " + e);
            return false;
        }
        if (!Files.isWritable(dir) || (Files.exists(target, LinkOption.NOFOLLOW_LINKS) && !Files.isSymbolicLink(target)
                && !Files.isWritable(target))) {
            addError("Cannot write " + target + suffix + ": check the permissions of " + dir);
            return false;
        }
        return true;
    }

    private Path journalPath(Path logFile) {
        if (isJournalSet()) {
            // not created here: its folder is made owner-only, or checked, before anything is put in it
            return FileIdentity.canonical(Paths.get(getJournal()));
        }
        return logFile.resolveSibling(JOURNAL_FOLDER).resolve(logFile.getFileName() + ".journal");
    }


    /**
     * Drains everything committed to the log file, unmaps the journal and leaves it empty; bounded
     * by {@code stopTimeout}. Events that arrive afterwards are counted as dropped ({@code stopped}).
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
        releaseClaims();
    }

    @Override
    public void doAppend(ILoggingEvent event) {
        if (!isStarted()) {
            JournalEngine stopped = engine;
            if (stopped != null) {
                stopped.countStopped(); // counted, not silently ignored
                return;
            }
            droppedWhileNotRunning.increment(); // start failed or never ran: counted too
        }
        super.doAppend(event);
    }

    @Override
    protected void append(ILoggingEvent event) {
        JournalEngine running = engine;
        PatternEncoding fast = patternEncoding;
        if (fast != null) {
            PatternEncoding.Scratch encoded = fast.encode(event);
            if (encoded != null) {
                if (encoded.length > 0) {
                    appendSafely(running, encoded.bytes, encoded.length, event.getLevel().toInt() < dropBelow);
                }
                return;
            }
        }
        byte[] bytes;
        Object guard = encoderGuard;
        if (guard == null) {
            bytes = getEncoder().encode(event);
        } else {
            // Only for an encoder that is not known to be thread-safe (a status warning said so at
            // start, naming encoderThreadSafe): sharing it unguarded would corrupt lines. The lock
            // covers the encoding alone, never the reservation or copy, and the lock-free path
            // (known-safe encoders) never takes this branch.
            synchronized (guard) {
                bytes = getEncoder().encode(event);
            }
        }
        if (bytes == null || bytes.length == 0) {
            return;
        }
        appendSafely(running, bytes, bytes.length, event.getLevel().toInt() < dropBelow);
    }

    /**
     * Hands the bytes to the engine, which counts every outcome and throws nothing; a fault in
     * mapped memory that the JVM delivers only as the engine returns (an {@code InternalError} at
     * the next safepoint) is kept from the application's thread too: the engine counted that event.
     */
    private static void appendSafely(JournalEngine running, byte[] bytes, int length, boolean mayDrop) {
        try {
            running.append(bytes, length, mayDrop);
        } catch (InternalError lateFault) {
            // counted by the engine as dropped (reason io)
        }
    }

    /** An immutable snapshot of this appender's counters. */
    public AppenderStatistics getStatistics() {
        JournalEngine current = engine;
        if (current == null) {
            return notStartedStatistics();
        }
        return current.statistics();
    }

    private AppenderStatistics notStartedStatistics() {
        Map<String, Long> drops = new java.util.LinkedHashMap<>();
        for (DropReason reason : DropReason.values()) {
            drops.put(reason.id(), 0L);
        }
        long dropped = droppedWhileNotRunning.sum();
        drops.put(DropReason.STOPPED.id(), dropped);
        return new AppenderStatistics(String.valueOf(name), file, getJournal(), false, (int) getBufferSize().getSize(),
                getBufferCount(), -1, 0, dropped, 0, 0, 0, dropped, drops, 0, 0, 0, 0, 0, 0, 0, 0, 0, null, 0,
                PageFaults.UNAVAILABLE);
    }

    /** Routes the engine's reports to Logback's status manager, naming this appender. */
    private final class Status implements StatusReporter {
        private final String suffix;

        Status(String suffix) {
            this.suffix = suffix;
        }

        @Override
        public void info(String message) {
            addInfo(message + suffix);
        }

        @Override
        public void warn(String message, Throwable cause) {
            addWarn(message + suffix, cause);
        }

        @Override
        public void error(String message, Throwable cause) {
            addError(message + suffix, cause);
        }
    }

    // ---- settings ---------------------------------------------------------------------------

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
