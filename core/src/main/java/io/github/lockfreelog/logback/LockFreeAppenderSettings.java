package io.github.lockfreelog.logback;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.UnsynchronizedAppenderBase;
import ch.qos.logback.core.encoder.Encoder;
import ch.qos.logback.core.util.Duration;
import ch.qos.logback.core.util.FileSize;
import io.github.lockfreelog.engine.Backpressure;
import io.github.lockfreelog.engine.EngineConfig;
import io.github.lockfreelog.engine.SettingProblem;
import io.github.lockfreelog.journal.JournalSlots;
import io.github.lockfreelog.logback.encoder.EncoderCharset;
import io.github.lockfreelog.sink.LogSink;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

/**
 * The settings every lock-free appender shares: the fields, the getters and setters that Joran and the Spring Boot
 * starter call, their defaults, and their checks ({@link #checkSettings()}). The life cycle is
 * {@link LockFreeAppenderBase}'s.
 */
public abstract class LockFreeAppenderSettings extends UnsynchronizedAppenderBase<ILoggingEvent> {

    public static final String DEFAULT_BUFFER_SIZE = "8MB";
    public static final int DEFAULT_BUFFER_COUNT = 3;
    public static final String DEFAULT_MAX_BLOCK_TIME = "1 second";
    public static final String DEFAULT_FLUSH_INTERVAL = "200 milliseconds";
    /** Below {@link #DEFAULT_MAX_BLOCK_TIME}, so that a stalled writer is passed over before waiting callers give up. */
    public static final String DEFAULT_UNBLOCK_TIMEOUT = "500 milliseconds";
    public static final String DEFAULT_STOP_TIMEOUT = "10 seconds";

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
    private boolean keepEngineOnStop;
    private UnaryOperator<LogSink> sinkDecorator = UnaryOperator.identity();

    /**
     * Checks every setting that needs no file system access, each once.
     *
     * @return the settings whose values cannot be used, in the order of the settings; empty when all can
     */
    public abstract List<SettingProblem> checkSettings();

    /**
     * Adds the problems of the shared settings, in their order: the encoder, the engine's own rules
     * ({@link EngineConfig#problems()}), the durations and {@code dropBelowLevel}.
     */
    protected final void addSharedProblems(List<SettingProblem> problems) {
        if (encoder == null) {
            problems.add(new SettingProblem("encoder", null, "an encoder, e.g. <encoder><pattern>%d %m%n</pattern></encoder>"));
        } else {
            SettingProblem charset = EncoderCharset.problemOf(encoder);
            if (charset != null) {
                problems.add(charset);
            }
        }
        problems.addAll(engineConfig().logFile(Path.of("")).journalFile(Path.of("")).build().problems());
        checkPositive(problems, "maxBlockTime", maxBlockTime);
        checkPositive(problems, "flushInterval", flushInterval);
        checkPositive(problems, "unblockTimeout", unblockTimeout);
        checkPositive(problems, "stopTimeout", stopTimeout);
        if (dropBelowLevel != null && !dropBelowLevel.isBlank() && Level.toLevel(dropBelowLevel.trim(), null) == null) {
            problems.add(new SettingProblem("dropBelowLevel", dropBelowLevel, "TRACE, DEBUG, INFO, WARN, ERROR or OFF"));
        }
    }

    private static void checkPositive(List<SettingProblem> problems, String setting, Duration value) {
        if (value == null || value.getMilliseconds() <= 0) {
            problems.add(new SettingProblem(setting, String.valueOf(value), "a positive duration, e.g. \"1 second\""));
        }
    }

    /** Warns about usable settings that work against each other; {@code suffix} names the appender. */
    protected final void warnAboutSettings(String suffix) {
        if (backpressure == Backpressure.BLOCK && unblockTimeout.getMilliseconds() >= maxBlockTime.getMilliseconds()) {
            addWarn("unblockTimeout=" + unblockTimeout + " is not below maxBlockTime=" + maxBlockTime + suffix
                    + ": callers waiting behind a stalled writer give up (dropped, reason timeout) before it is passed"
                    + " over; set unblockTimeout below maxBlockTime");
        }
    }

    /** The engine's settings as this appender holds them; the files are the caller's to add. */
    protected final EngineConfig.Builder engineConfig() {
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

    /** Whether {@link #setJournal} names one journal, rather than leaving the appender to take a free slot. */
    protected final boolean isJournalSet() {
        return journal != null && !journal.isBlank();
    }

    /** The decorator of the sink, {@link UnaryOperator#identity()} unless {@link #setSinkDecorator} set one. */
    protected final UnaryOperator<LogSink> sinkDecorator() {
        return sinkDecorator;
    }

    // ---- settings ---------------------------------------------------------------------------

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

    /** Whether {@code stop()} leaves the engine running; see {@link #setKeepEngineOnStop}. */
    public boolean isKeepEngineOnStop() {
        return keepEngineOnStop;
    }

    /**
     * With {@code true}, {@code stop()} only stops appending: the journal stays mapped and the drainer runs, so
     * that a later {@code start()} appends again over the same engine and counters, and {@code close()} ends it.
     * For an owner that outlives Logback's resets and stops (the Spring Boot starter); settings apply at the first
     * start only.
     */
    public void setKeepEngineOnStop(boolean keepEngineOnStop) {
        this.keepEngineOnStop = keepEngineOnStop;
    }

    /** Test hook: wraps the log file sink, e.g. to slow down or fail the drainer's writes; {@code null} wraps nothing. */
    public void setSinkDecorator(UnaryOperator<LogSink> sinkDecorator) {
        this.sinkDecorator = sinkDecorator == null ? UnaryOperator.identity() : sinkDecorator;
    }
}
