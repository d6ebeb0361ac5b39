package io.github.lockfreelog.autoconfigure.properties;

import io.github.lockfreelog.engine.Backpressure;
import io.github.lockfreelog.logback.LockFreeAppenderBase;
import java.time.Duration;
import org.springframework.boot.logging.LogLevel;
import org.springframework.util.unit.DataSize;

/**
 * The engine's settings, which each target has (the file, the console, the Kafka and OTLP sinks): its journal, buffers and what a logging thread
 * does when they are full. The defaults are the appenders' own ({@link LockFreeAppenderBase#DEFAULT_BUFFER_SIZE}
 * and the rest), written here as literals so that the configuration processor puts them in the metadata; a test
 * compares the two.
 */
public abstract class LockFreeLogEngineProperties {

    /** Size of each buffer of the journal: a multiple of 4KB from 64KB to 512MB. */
    private DataSize bufferSize = DataSize.ofMegabytes(8);

    /** Number of buffers in the journal, from 2 to 16. */
    private int bufferCount = 3;

    /** What a logging thread does when the next buffer has not been drained yet. */
    private Backpressure backpressure = Backpressure.BLOCK;

    /** Longest time a logging thread waits for a drained buffer under BLOCK before the event is dropped. */
    private Duration maxBlockTime = Duration.ofSeconds(1);

    /** Largest encoded event kept whole; longer events are cut and counted as truncated. At most half the buffer size. When unset, a quarter of the buffer size. */
    private DataSize maxEventSize;

    /** Longest time a logged line waits to be written while no buffer fills. */
    private Duration flushInterval = Duration.ofMillis(200);

    /** Under DROP, only events below this level are dropped; events at or above it wait as under BLOCK (FATAL is Logback's ERROR). When unset, every event may be dropped. */
    private LogLevel dropBelowLevel;

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

    /** The journal file holding the memory-mapped buffers, or {@code null} for the default one. */
    public abstract String getJournal();
}
