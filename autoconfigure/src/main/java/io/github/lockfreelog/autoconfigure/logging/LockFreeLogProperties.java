package io.github.lockfreelog.autoconfigure.logging;

import io.github.lockfreelog.engine.Backpressure;
import io.github.lockfreelog.logback.LockFreeFileAppender;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.logging.LogLevel;
import org.springframework.util.unit.DataSize;

/**
 * Settings of the engine behind the lock-free log file. What each line looks like and how the file rolls are
 * not here: they are Spring Boot's ({@code logging.pattern.file}, {@code logging.structured.format.file},
 * {@code logging.charset.file}, {@code logging.threshold.file}, {@code logging.logback.rollingpolicy.*}), read from
 * the file appender the starter replaces or from the Logback context, so the file looks and rolls as it would
 * without the starter. Defaults are the appender's own ({@link LockFreeFileAppender}).
 */
@ConfigurationProperties(prefix = LockFreeLogProperties.PREFIX)
public class LockFreeLogProperties {

    public static final String PREFIX = "lockfreelog";

    /** Whether to write the log file lock-free and expose the endpoint, metrics and health. */
    private boolean enabled = true;

    /** Log file to write. When unset, Spring Boot's log file ("logging.file.name", then "logging.file.path"/spring.log). */
    private String file;

    /** Journal file holding the memory-mapped buffers. When unset, the first free one of ".lockfreelog/<log file name>.journal", ".1.journal", ... beside the log file, so that several instances can share a log folder. */
    private String journal;

    /** Size of each buffer of the journal: a multiple of 4KB from 64KB to 512MB. */
    private DataSize bufferSize = DataSize.parse(LockFreeFileAppender.DEFAULT_BUFFER_SIZE);

    /** Number of buffers in the journal, from 2 to 16. */
    private int bufferCount = LockFreeFileAppender.DEFAULT_BUFFER_COUNT;

    /** What a logging thread does when the next buffer has not been drained yet. */
    private Backpressure backpressure = Backpressure.BLOCK;

    /** Longest time a logging thread waits for a drained buffer under BLOCK before the event is dropped. */
    private Duration maxBlockTime = logbackDuration(LockFreeFileAppender.DEFAULT_MAX_BLOCK_TIME);

    /** Largest encoded event kept whole; longer events are cut and counted as truncated. At most half the buffer size. When unset, a quarter of the buffer size. */
    private DataSize maxEventSize;

    /** Longest time a logged line waits to be written to the log file while no buffer fills. */
    private Duration flushInterval = logbackDuration(LockFreeFileAppender.DEFAULT_FLUSH_INTERVAL);

    /** Under DROP, only events below this level are dropped; events at or above it wait as under BLOCK. When unset, every event may be dropped. */
    private LogLevel dropBelowLevel;

    /** Loggers to attach the appender to. */
    private List<String> loggers = new ArrayList<>(List.of("ROOT"));

    /** The lock-free console, in place of Spring Boot's own CONSOLE appender. */
    private final Console console = new Console();

    private static Duration logbackDuration(String value) {
        return Duration.ofMillis(ch.qos.logback.core.util.Duration.valueOf(value).getMilliseconds());
    }

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public String getFile() {
        return file;
    }

    public void setFile(String file) {
        this.file = file;
    }

    public String getJournal() {
        return journal;
    }

    public void setJournal(String journal) {
        this.journal = journal;
    }

    public DataSize getBufferSize() {
        return bufferSize;
    }

    public void setBufferSize(DataSize bufferSize) {
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

    public DataSize getMaxEventSize() {
        return maxEventSize;
    }

    public void setMaxEventSize(DataSize maxEventSize) {
        this.maxEventSize = maxEventSize;
    }

    public Duration getFlushInterval() {
        return flushInterval;
    }

    public void setFlushInterval(Duration flushInterval) {
        this.flushInterval = flushInterval;
    }

    public LogLevel getDropBelowLevel() {
        return dropBelowLevel;
    }

    public void setDropBelowLevel(LogLevel dropBelowLevel) {
        this.dropBelowLevel = dropBelowLevel;
    }

    public List<String> getLoggers() {
        return loggers;
    }

    public void setLoggers(List<String> loggers) {
        this.loggers = loggers;
    }

    public Console getConsole() {
        return console;
    }

    /**
     * The lock-free console: standard output written through a journal of its own, in place of Spring Boot's
     * {@code CONSOLE} appender, with that appender's encoder (pattern, colours, {@code logging.structured.format.console}),
     * threshold ({@code logging.threshold.console}) and charset. The engine's other settings are the file's
     * ({@code lockfreelog.buffer-size} and the rest).
     */
    public static class Console {

        /** Whether to replace Spring Boot's CONSOLE appender with the lock-free console. */
        private boolean enabled;

        /** Journal of the console. When unset, the first free one of "<java.io.tmpdir>/.lockfreelog-<application>-<user>/LOCKFREE_CONSOLE.journal", ".1.journal", ..., the application being spring.application.name, else the main class. Put it on a volume that outlives what it must survive (a Kubernetes emptyDir outlives container restarts, not the pod). */
        private String journal;

        public boolean isEnabled() {
            return enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        public String getJournal() {
            return journal;
        }

        public void setJournal(String journal) {
            this.journal = journal;
        }
    }
}
