package io.github.lockfreelog.sink;

import java.io.IOException;
import java.nio.ByteBuffer;

/** Where drained bytes go: the log file. Only the drainer thread (or recovery, before it starts) calls it. */
public interface LogSink extends AutoCloseable {

    /** Writes some of the bytes remaining in {@code src}, like a channel write; returns how many. */
    int write(ByteBuffer src) throws IOException;

    /**
     * Reopens the log file by its name if the name now stands for another file (another instance
     * rolled it, an operator moved or deleted it), so that the next write goes to the live file;
     * returns whether it did. the drainer ({@code DrainLog}) asks before it reads the size for a write's intent,
     * so that the intent names the file written.
     */
    default boolean follow() throws IOException {
        return false;
    }

    /**
     * Whether the log file's last byte is not a newline: another writer's line is being written,
     * or was cut (a process killed during its write, which the kernel may cut short at any page).
     * Sinks that cannot read their file back say no.
     */
    default boolean endsMidLine() throws IOException {
        return false;
    }

    /** Current size of the log file in bytes. */
    long size() throws IOException;

    /**
     * How many leading bytes of {@code expected} reached the log file after offset {@code from} and
     * before offset {@code until} (where other instances' bytes begin, see {@code WriteLedger};
     * {@code Long.MAX_VALUE} for no bound), judged by content (see {@link LandedBytes}); recovery asks
     * it about a write that a crash interrupted: the remaining bytes of {@code expected}, its position not moved.
     * Sinks that cannot read their file back say none.
     */
    default int landed(long from, long until, ByteBuffer expected) throws IOException {
        return 0;
    }

    /**
     * Whether the file should roll before another event of {@code nextBytes} is written after the
     * {@code pendingBytes} already gathered for the next write. The drainer asks before each event,
     * so files roll only between whole events; {@code pendingBytes} is 0 for the first event of each
     * write, where a sink may read its clocks once for the whole write.
     */
    default boolean shouldRoll(long pendingBytes, int nextBytes) {
        return false;
    }

    /** Rolls the file: the live file is archived and a new, empty one takes its name. */
    default void roll() throws IOException {
    }

    /**
     * Closes the sink for good: a closed sink never reopens its file, and every later write (or
     * roll) fails with {@link LogClosedException}, so a drainer that outlived a stop which timed
     * out writes nothing after {@code stop()} returned.
     */
    @Override
    void close() throws IOException;

    /**
     * Closes the sink, waiting at most {@code timeoutNanos} for work it does in the background
     * (compressing rolled files); what is left then is finished at the next start.
     */
    default void close(long timeoutNanos) throws IOException {
        close();
    }

    /** Opens the sink an engine writes to. */
    @FunctionalInterface
    interface Factory {
        LogSink open() throws IOException;
    }
}
