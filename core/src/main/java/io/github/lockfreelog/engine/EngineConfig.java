package io.github.lockfreelog.engine;

import io.github.lockfreelog.sink.LogTarget;
import io.github.lockfreelog.term.JournalDescriptor;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * Everything an engine needs to run, and the one place where the engine's settings are checked
 * ({@link #problems()}): the Logback appender, the Spring Boot starter and the engine itself read
 * the same rules. Built with {@link #builder()}; every value has a default but the two files.
 *
 * @param journalFile the journal; with several {@code journalSlots}, the first of them
 * @param maxEventSize events above it are truncated; 0 for the default, a quarter of
 *        {@code bufferSize} (at most {@link #MAX_MAX_EVENT_SIZE})
 * @param journalSlots 1: use {@code journalFile} or fail if it is in use; more: take the first
 *        free one of that many slots and recover the free ones that processes which died left behind
 * @param target a log file ({@code logFile} is its path), or the console ({@code logFile} only names
 *        the stream, and no write ledger is kept: nothing is read back)
 */
public record EngineConfig(String name, Path logFile, Path journalFile, int bufferCount, int bufferSize,
        int maxEventSize, Backpressure backpressure, long maxBlockNanos, long flushIntervalNanos,
        long unblockTimeoutNanos, long stopTimeoutNanos, int journalSlots, LogTarget target) {

    /** Events above {@code bufferSize / MAX_EVENT_SIZE_DIVISOR} are truncated unless maxEventSize says otherwise. */
    public static final int MAX_EVENT_SIZE_DIVISOR = 4;
    /** Smallest maxEventSize. */
    public static final int MIN_MAX_EVENT_SIZE = 256;
    /**
     * Largest maxEventSize: 16 MB, so that a frame is a small part of the largest buffer and a few large
     * events cannot hold the drainer's staging for long. (Frames over 64 KiB are reserved with a
     * compare-and-set that never moves a tail past the buffer's end; see JournalDescriptor.)
     */
    public static final int MAX_MAX_EVENT_SIZE = 16 * 1024 * 1024;

    /** A builder with every default set: 3 buffers of 8 MB, {@code BLOCK} for at most 1 s, one journal. */
    public static Builder builder() {
        return new Builder();
    }

    /** The maxEventSize in force: the one set, else the default for {@code bufferSize}. */
    public int effectiveMaxEventSize() {
        return maxEventSize != 0 ? maxEventSize : defaultMaxEventSize(bufferSize);
    }

    /** The default maxEventSize for buffers of {@code bufferSize} bytes. */
    public static int defaultMaxEventSize(long bufferSize) {
        return (int) Math.min(bufferSize / MAX_EVENT_SIZE_DIVISOR, MAX_MAX_EVENT_SIZE);
    }

    /**
     * The settings whose values cannot be used, in the order of the settings; empty when all can.
     * Each names the setting as in {@code logback.xml}.
     */
    public List<SettingProblem> problems() {
        List<SettingProblem> problems = new ArrayList<>();
        boolean sizeOk = JournalDescriptor.isBufferSizeAllowed(bufferSize);
        boolean countOk = JournalDescriptor.isBufferCountAllowed(bufferCount);
        if (!sizeOk) {
            problems.add(new SettingProblem("bufferSize", String.valueOf(bufferSize), JournalDescriptor.BUFFER_SIZE_RULE));
        }
        if (!countOk) {
            problems.add(new SettingProblem("bufferCount", String.valueOf(bufferCount), JournalDescriptor.BUFFER_COUNT_RULE));
        }
        if (sizeOk && countOk && JournalDescriptor.checkGeometry(bufferCount, bufferSize) != null) {
            problems.add(new SettingProblem("bufferSize", String.valueOf(bufferSize),
                    JournalDescriptor.geometryRule(bufferCount)));
        }
        if (sizeOk) {
            long maxEvent = effectiveMaxEventSize();
            long maxAllowed = Math.min(bufferSize / 2, MAX_MAX_EVENT_SIZE);
            if (maxEvent < MIN_MAX_EVENT_SIZE || maxEvent > maxAllowed) {
                problems.add(new SettingProblem("maxEventSize", String.valueOf(maxEvent), MIN_MAX_EVENT_SIZE
                        + " bytes to half of bufferSize, at most 16MB (" + maxAllowed + " bytes here)"));
            }
        }
        if (backpressure == null) {
            problems.add(new SettingProblem("backpressure", null, "BLOCK or DROP"));
        }
        if (journalSlots < 1) {
            problems.add(new SettingProblem("journalSlots", String.valueOf(journalSlots), "1 or more"));
        }
        return problems;
    }

    /** This config, bound to the one journal {@code journal} (the slot taken). */
    EngineConfig withJournal(Path journal) {
        return new EngineConfig(name, logFile, journal, bufferCount, bufferSize, maxEventSize, backpressure,
                maxBlockNanos, flushIntervalNanos, unblockTimeoutNanos, stopTimeoutNanos, 1, target);
    }

    /** Builds an {@link EngineConfig}; times in any unit, sizes in bytes. */
    public static final class Builder {
        private String name = "lockfreelog";
        private Path logFile;
        private Path journalFile;
        private int bufferCount = 3;
        private int bufferSize = 8 * 1024 * 1024;
        private int maxEventSize;
        private Backpressure backpressure = Backpressure.BLOCK;
        private long maxBlockNanos = TimeUnit.SECONDS.toNanos(1);
        private long flushIntervalNanos = TimeUnit.MILLISECONDS.toNanos(200);
        private long unblockTimeoutNanos = TimeUnit.MILLISECONDS.toNanos(500);
        private long stopTimeoutNanos = TimeUnit.SECONDS.toNanos(10);
        private int journalSlots = 1;
        private LogTarget target = LogTarget.FILE;

        private Builder() {
        }

        public Builder name(String name) {
            this.name = name;
            return this;
        }

        public Builder logFile(Path logFile) {
            this.logFile = logFile;
            return this;
        }

        public Builder journalFile(Path journalFile) {
            this.journalFile = journalFile;
            return this;
        }

        public Builder buffers(int count, int size) {
            this.bufferCount = count;
            this.bufferSize = size;
            return this;
        }

        public Builder maxEventSize(int maxEventSize) {
            this.maxEventSize = maxEventSize;
            return this;
        }

        public Builder backpressure(Backpressure backpressure) {
            this.backpressure = backpressure;
            return this;
        }

        public Builder maxBlock(long time, TimeUnit unit) {
            this.maxBlockNanos = unit.toNanos(time);
            return this;
        }

        public Builder flushInterval(long time, TimeUnit unit) {
            this.flushIntervalNanos = unit.toNanos(time);
            return this;
        }

        public Builder unblockTimeout(long time, TimeUnit unit) {
            this.unblockTimeoutNanos = unit.toNanos(time);
            return this;
        }

        public Builder stopTimeout(long time, TimeUnit unit) {
            this.stopTimeoutNanos = unit.toNanos(time);
            return this;
        }

        public Builder journalSlots(int journalSlots) {
            this.journalSlots = journalSlots;
            return this;
        }

        public Builder target(LogTarget target) {
            this.target = target;
            return this;
        }

        /** The config; its values are checked by {@link EngineConfig#problems()}, not here. */
        public EngineConfig build() {
            return new EngineConfig(name, Objects.requireNonNull(logFile, "logFile"),
                    Objects.requireNonNull(journalFile, "journalFile"), bufferCount, bufferSize, maxEventSize,
                    backpressure, maxBlockNanos, flushIntervalNanos, unblockTimeoutNanos, stopTimeoutNanos, journalSlots,
                    Objects.requireNonNull(target, "target"));
        }
    }
}
