package io.github.lockfreelog.drain;

import io.github.lockfreelog.sink.LogSink;
import io.github.lockfreelog.sink.RecordBatch;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Where the drainer puts what it drains from one journal: the log file (through a {@link DrainLog}) or a
 * record sink. Every batch of events ends with the drain position recorded in the journal, so a buffer is
 * reclaimed only once its whole term went out.
 */
public interface DrainOutput {

    /**
     * Writes the {@code events} events held in {@code src} from {@code start} to its limit (the {@code i}-th
     * ends at {@code start + ends[i]}, and its frame began at {@code offsets[i]} of the term): the data frames of
     * term {@code termCount} in {@code [from, to)}; then records the drain position {@code (termCount, to)}. Resumes a write that failed when called again with the
     * same arguments.
     *
     * @return how many of the events it left out as too large for it ({@link RecordBatch#dropTooLarge}): dropped,
     *         not written; {@code 0} for a log file
     */
    int write(ByteBuffer src, int start, int[] ends, int[] offsets, int events, long termCount, int from, int to)
            throws IOException;

    /** Records that everything of term {@code termCount} below {@code offset} went out. */
    void record(long termCount, int offset);

    /** Whether to roll before another event of {@code nextBytes} after {@code pendingBytes} gathered; see {@link LogSink#shouldRoll}. */
    default boolean shouldRoll(long pendingBytes, int nextBytes) {
        return false;
    }

    /** Rolls, at drain position {@code (termCount, offset)}, everything before it written and recorded. */
    default void roll(long termCount, int offset) throws IOException {
    }

    /** Opens the output of one journal, which it drains from its first term. */
    @FunctionalInterface
    interface Factory {
        DrainOutput open(ActiveJournal journal) throws IOException;

        /** What the outputs do, as the drainer's reports name it ("writing the log file failed ..."). */
        default String action() {
            return "writing the log file";
        }

        /**
         * How many bytes of events one write (one delivery) gathers at most, for a journal of buffers of
         * {@code bufferSize} bytes; a larger event goes alone. A log file's writes: 1 MiB (or a buffer, if smaller).
         */
        default int batchBytes(int bufferSize) {
            return Math.min(Batch.STAGING_BYTES, bufferSize);
        }
    }

    /**
     * What must reach the sink before any event of the journal the drainer drains: for a record sink, what a
     * process that died left in this slot (set aside at start) and in free slots. Sent by the drainer's thread
     * before anything else, part after part, and tried again, with growing waits, while the sink fails.
     */
    @FunctionalInterface
    interface Backlog {
        /** No backlog. */
        Backlog NONE = () -> true;

        /**
         * Sends the next part of the backlog; returns whether nothing is left. Throws while the sink cannot take
         * it: what was sent before stays sent, and the next call goes on from there.
         */
        boolean sendNext() throws IOException;
    }
}
