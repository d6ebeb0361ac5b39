package io.github.lockfreelog.sink;

import java.io.IOException;

/**
 * Where a journal's events go as records (a Kafka topic, say): one record per event, delivered in
 * batches, each committed together with the {@link JournalPosition} it reaches. The engine never
 * asks it about sizes, content or rolls (that is {@link LogSink}'s contract); it asks two things:
 * deliver this batch, and how far are you. Only the drainer thread calls it (recovery of a record sink
 * is the drainer's too, never the start's: a sink may be out of reach for a while).
 *
 * <p>What the engine's exactly-once rests on:
 * <ul>
 *   <li>{@link #deliver} is all or nothing: when it fails, or the process dies in it, either none
 *       of the batch is visible to the sink's readers, or all of it and its position are;</li>
 *   <li>{@link #committed} is exact: it first settles any delivery still in flight (one that
 *       failed, or that a process which died began), so no late commit can overtake its answer.</li>
 * </ul>
 * The drainer records a batch in the journal only after {@code deliver} returned, and reclaims a
 * buffer only once all of its term is recorded; after a failure it asks {@code committed} before it
 * delivers the same batch again, and recovery starts after what {@code committed} says.
 */
public interface RecordSink {

    /**
     * How far this sink holds the events of journal {@code journalId}, committed; {@code null} when
     * it holds none of that journal (the position it holds, if any, is another journal's).
     */
    JournalPosition committed(long journalId) throws IOException;

    /**
     * Delivers every event of {@code batch}, in order, and commits them with {@link RecordBatch#end()}
     * as one unit; returns once committed. Throws when they were not committed, or when that cannot
     * be told: the caller then asks {@link #committed} before delivering them again. A sink that cannot
     * carry the batch in one unit (a slow link) may commit it as consecutive parts, each with the position
     * of the first event it does not hold: to the caller that is smaller batches, except that a delivery
     * failed after some parts committed is made again whole, and the sink must skip what
     * {@link #committed} covers.
     */
    void deliver(RecordBatch batch) throws IOException;

    /**
     * Closes the sink for good, waiting at most {@code timeoutNanos} for what it does in the
     * background; a delivery that has not committed by then is left to the next start's recovery.
     */
    void close(long timeoutNanos) throws IOException;

    /** Opens the sink of one journal slot: what it commits is that slot's, fencing any earlier holder of the slot. */
    @FunctionalInterface
    interface Factory {
        RecordSink open(int slot) throws IOException;
    }

    /**
     * The sink's target refuses it, for a reason a setting or a grant must change (a topic that does not exist, a
     * principal without the right to write), not for an outage: reported as an ERROR that says what to change, where
     * an outage gets one WARN. The drainer tries again all the same, so that fixing it on the target's side is enough.
     */
    final class RefusedException extends IOException {

        private static final long serialVersionUID = 1L;

        public RefusedException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
