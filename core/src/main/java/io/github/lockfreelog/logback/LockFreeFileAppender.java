package io.github.lockfreelog.logback;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.core.UnsynchronizedAppenderBase;
import ch.qos.logback.core.encoder.Encoder;
import ch.qos.logback.core.util.Duration;
import ch.qos.logback.core.util.FileSize;
import io.github.lockfreelog.diagnostics.AppenderStatistics;
import io.github.lockfreelog.diagnostics.StatusReporter;
import io.github.lockfreelog.engine.Backpressure;
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
import io.github.lockfreelog.sink.LogSink;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;
import java.util.function.UnaryOperator;

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
public class LockFreeFileAppender extends UnsynchronizedAppenderBase<ILoggingEvent> {

    public static final String DEFAULT_BUFFER_SIZE = "8MB";
    public static final int DEFAULT_BUFFER_COUNT = 3;
    public static final String DEFAULT_MAX_BLOCK_TIME = "1 second";
    public static final String DEFAULT_FLUSH_INTERVAL = "200 milliseconds";
    /** Below {@link #DEFAULT_MAX_BLOCK_TIME}, so that a stalled writer is passed over before waiting callers give up. */
    public static final String DEFAULT_UNBLOCK_TIMEOUT = "500 milliseconds";
    public static final String DEFAULT_STOP_TIMEOUT = "10 seconds";
    /** Name of the hidden folder, beside the log file, that holds the journal by default. */
    public static final String JOURNAL_FOLDER = JournalSlots.JOURNAL_FOLDER;
    /** Logger name of the line that reports events recovered at start. */
    public static final String RECOVERY_LOGGER = "io.github.lockfreelog.recovery";

    private String file;
    private String journal;
    private Encoder<ILoggingEvent> encoder;
    private FileSize bufferSize = FileSize.valueOf(DEFAULT_BUFFER_SIZE);
    private int bufferCount = DEFAULT_BUFFER_COUNT;
    private Backpressure backpressure = Backpressure.BLOCK;
    private Duration maxBlockTime = Duration.valueOf(DEFAULT_MAX_BLOCK_TIME);
    private FileSize maxEventSize;
    private Duration flushInterval = Duration.valueOf(DEFAULT_FLUSH_INTERVAL);
    private String dropBelowLevel;
    private Duration unblockTimeout = Duration.valueOf(DEFAULT_UNBLOCK_TIMEOUT);
    private Duration stopTimeout = Duration.valueOf(DEFAULT_STOP_TIMEOUT);
    private Boolean encoderThreadSafe;
    private String fileNamePattern;
    private FileSize maxFileSize;
    private int maxHistory;
    private FileSize totalSizeCap;
    private boolean cleanHistoryOnStart;
    private UnaryOperator<LogSink> sinkDecorator = UnaryOperator.identity();
    private boolean keepEngineOnStop;
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
        dropBelow = (dropBelowLevel != null && !dropBelowLevel.isBlank())
                ? Level.toLevel(dropBelowLevel.trim()).toInt() : Integer.MAX_VALUE;
        if (backpressure == Backpressure.BLOCK && unblockTimeout.getMilliseconds() >= maxBlockTime.getMilliseconds()) {
            addWarn("unblockTimeout=" + unblockTimeout + " is not below maxBlockTime=" + maxBlockTime + suffix
                    + ": callers waiting behind a stalled writer give up (dropped, reason timeout) before it is passed"
                    + " over; set unblockTimeout below maxBlockTime");
        }
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
                || (journal != null && !journal.isBlank() && !claim(journalFile, "journal", "<journal>", suffix))) {
            releaseClaims();
            return;
        }
        if (!checkWritable(logFile, false, suffix) || !checkWritable(journalFile, true, suffix)) {
            releaseClaims();
            return;
        }
        encoderGuard = EncoderSafety.isThreadSafe(encoder, encoderThreadSafe) ? null : new Object();
        patternEncoding = encoderGuard == null ? PatternEncoding.of(encoder) : null;
        if (encoderGuard != null) {
            addWarn("The encoder " + encoder.getClass().getName() + suffix + " is not known to be safe for"
                    + " concurrent use, so events are encoded one at a time; set <encoderThreadSafe>true</encoderThreadSafe>"
                    + " if it is");
        }
        // the default journal is the first of several slots, so that other processes may log to the same file
        int slots = journal == null || journal.isBlank() ? JournalSlots.DEFAULT_SLOTS : 1;
        EngineConfig config = engineConfig().logFile(logFile).journalFile(journalFile).journalSlots(slots).build();
        try {
            Status status = new Status(suffix);
            RollingLogSink.Settings rolling = rollingSettings();
            engine = JournalEngine.start(config, status, () -> sinkDecorator.apply(rolling == null
                    ? new FileLogSink(logFile, status)
                    : new RollingLogSink(logFile, rolling, getContext(), clock, status, String.valueOf(name))));
        } catch (IOException | RuntimeException e) {
            releaseClaims();
            addError("Could not start" + suffix + " with file " + logFile + " and journal " + journalFile + ": " + e, e);
            return;
        }
        engineKept = keepEngineOnStop;
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
    public List<SettingProblem> checkSettings() {
        List<SettingProblem> problems = new ArrayList<>();
        if (file == null || file.isBlank()) {
            problems.add(new SettingProblem("file", null, "the path of the log file"));
        }
        if (encoder == null) {
            problems.add(new SettingProblem("encoder", null, "an encoder, e.g. <encoder><pattern>%d %m%n</pattern></encoder>"));
        }
        problems.addAll(engineConfig().logFile(Path.of("")).journalFile(Path.of("")).build().problems());
        checkPositive(problems, "maxBlockTime", maxBlockTime);
        checkPositive(problems, "flushInterval", flushInterval);
        checkPositive(problems, "unblockTimeout", unblockTimeout);
        checkPositive(problems, "stopTimeout", stopTimeout);
        if (dropBelowLevel != null && !dropBelowLevel.isBlank() && Level.toLevel(dropBelowLevel.trim(), null) == null) {
            problems.add(new SettingProblem("dropBelowLevel", dropBelowLevel, "TRACE, DEBUG, INFO, WARN, ERROR or OFF"));
        }
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

    private static void checkPositive(List<SettingProblem> problems, String setting, Duration value) {
        if (value == null || value.getMilliseconds() <= 0) {
            problems.add(new SettingProblem(setting, String.valueOf(value), "a positive duration, e.g. \"1 second\""));
        }
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
        if (journal != null && !journal.isBlank()) {
            // not created here: its folder is made owner-only, or checked, before anything is put in it
            return FileIdentity.canonical(Paths.get(journal));
        }
        return logFile.resolveSibling(JOURNAL_FOLDER).resolve(logFile.getFileName() + ".journal");
    }

    /** The engine's settings as this appender holds them; the files are the caller's to add. */
    private EngineConfig.Builder engineConfig() {
        return EngineConfig.builder().name(String.valueOf(name)).buffers(bufferCount, (int) Math.min(bufferSize.getSize(),
                Integer.MAX_VALUE)).maxEventSize(maxEventSize == null ? 0 : (int) Math.min(maxEventSize.getSize(),
                Integer.MAX_VALUE)).backpressure(backpressure).maxBlock(millis(maxBlockTime), TimeUnit.MILLISECONDS)
                .flushInterval(millis(flushInterval), TimeUnit.MILLISECONDS)
                .unblockTimeout(millis(unblockTimeout), TimeUnit.MILLISECONDS)
                .stopTimeout(millis(stopTimeout), TimeUnit.MILLISECONDS);
    }

    private static long millis(Duration duration) {
        return duration == null ? 0 : duration.getMilliseconds();
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
            bytes = encoder.encode(event);
        } else {
            // Only for an encoder that is not known to be thread-safe (a status warning said so at
            // start, naming encoderThreadSafe): sharing it unguarded would corrupt lines. The lock
            // covers the encoding alone, never the reservation or copy, and the lock-free path
            // (known-safe encoders) never takes this branch.
            synchronized (guard) {
                bytes = encoder.encode(event);
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
        return AppenderStatistics.notStarted(String.valueOf(name), file, journal, (int) bufferSize.getSize(), bufferCount,
                droppedWhileNotRunning.sum());
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

    public String getJournal() {
        return journal;
    }

    /**
     * Path of the journal. Unset, each process takes the first free of {@code <log folder>/.lockfreelog/<log file
     * name>.journal}, {@code <log file name>.1.journal}, ... (see {@link JournalSlots}), so that several processes
     * may write one log file; set, it is this one journal, and a second process is refused.
     */
    public void setJournal(String journal) {
        this.journal = journal;
    }

    public Encoder<ILoggingEvent> getEncoder() {
        return encoder;
    }

    public void setEncoder(Encoder<ILoggingEvent> encoder) {
        this.encoder = encoder;
    }

    public FileSize getBufferSize() {
        return bufferSize;
    }

    public void setBufferSize(FileSize bufferSize) {
        this.bufferSize = bufferSize;
    }

    public int getBufferCount() {
        return bufferCount;
    }

    public void setBufferCount(int bufferCount) {
        this.bufferCount = bufferCount;
    }

    public Backpressure getBackpressure() {
        return backpressure;
    }

    public void setBackpressure(Backpressure backpressure) {
        this.backpressure = backpressure;
    }

    public Duration getMaxBlockTime() {
        return maxBlockTime;
    }

    public void setMaxBlockTime(Duration maxBlockTime) {
        this.maxBlockTime = maxBlockTime;
    }

    public FileSize getMaxEventSize() {
        return maxEventSize;
    }

    public void setMaxEventSize(FileSize maxEventSize) {
        this.maxEventSize = maxEventSize;
    }

    public Duration getFlushInterval() {
        return flushInterval;
    }

    public void setFlushInterval(Duration flushInterval) {
        this.flushInterval = flushInterval;
    }

    public String getDropBelowLevel() {
        return dropBelowLevel;
    }

    /** With {@code DROP}: only events below this level are dropped; the others block. */
    public void setDropBelowLevel(String dropBelowLevel) {
        this.dropBelowLevel = dropBelowLevel;
    }

    public Duration getUnblockTimeout() {
        return unblockTimeout;
    }

    public void setUnblockTimeout(Duration unblockTimeout) {
        this.unblockTimeout = unblockTimeout;
    }

    public Duration getStopTimeout() {
        return stopTimeout;
    }

    public void setStopTimeout(Duration stopTimeout) {
        this.stopTimeout = stopTimeout;
    }

    public Boolean getEncoderThreadSafe() {
        return encoderThreadSafe;
    }

    /** Declares whether the encoder may be called by many threads at once; unset means detect. */
    public void setEncoderThreadSafe(Boolean encoderThreadSafe) {
        this.encoderThreadSafe = encoderThreadSafe;
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

    /** Test hook: wraps the log file sink, e.g. to slow down or fail the drainer's writes. */
    public boolean isKeepEngineOnStop() {
        return keepEngineOnStop;
    }

    /**
     * With {@code true}, {@link #stop()} only stops appending: the journal stays mapped and the drainer runs, so
     * that a later {@link #start()} appends again over the same engine and counters, and {@link #close()} ends it.
     * For an owner that outlives Logback's resets and stops (the Spring Boot starter); settings apply at the first
     * start only.
     */
    public void setKeepEngineOnStop(boolean keepEngineOnStop) {
        this.keepEngineOnStop = keepEngineOnStop;
    }

    public void setSinkDecorator(UnaryOperator<LogSink> sinkDecorator) {
        this.sinkDecorator = sinkDecorator == null ? UnaryOperator.identity() : sinkDecorator;
    }
}
