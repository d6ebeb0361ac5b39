package io.github.lockfreelog.sink;

import java.nio.ByteBuffer;

/**
 * The events of one delivery to a {@link RecordSink}: the data frames of journal range
 * {@code [from, to)} of term {@code termCount}, each event the payload of one frame, in journal
 * order. Delivered with {@link #end()}, the position it brings the sink to. Valid only during the
 * {@link RecordSink#deliver} call it is given to (its bytes are the drainer's staging, reused after).
 *
 * <p>A sink that cannot take an event because it is too large for it may leave it out of the delivery and say so
 * with {@link #dropTooLarge}: the engine then counts it as dropped, reason {@code too-large}, not as written.
 */
public final class RecordBatch {

    private final long journalId;
    private final long termCount;
    private final int from;
    private final int to;
    private final ByteBuffer bytes;
    private final int start;
    private final int[] ends;
    private final int[] offsets;
    private final int count;
    /** Events the delivery leaves out as too large; the drainer's thread alone. */
    private int droppedTooLarge;

    /**
     * A batch of the {@code count} events held in {@code bytes} from index {@code start}, the
     * {@code i}-th ending at {@code start + ends[i]}, its frame at {@code offsets[i]} of the term.
     */
    public RecordBatch(long journalId, long termCount, int from, int to, ByteBuffer bytes, int start, int[] ends,
            int[] offsets, int count) {
        this.journalId = journalId;
        this.termCount = termCount;
        this.from = from;
        this.to = to;
        this.bytes = bytes;
        this.start = start;
        this.ends = ends;
        this.offsets = offsets;
        this.count = count;
    }

    public long journalId() {
        return journalId;
    }

    public long termCount() {
        return termCount;
    }

    /** Where the batch's journal range starts in its term. */
    public int from() {
        return from;
    }

    /** Where the batch's journal range ends in its term. */
    public int to() {
        return to;
    }

    /** How many events the batch holds. */
    public int count() {
        return count;
    }

    /** The position a sink holding this batch has reached: its journal, its term, the end of its range. */
    public JournalPosition end() {
        return new JournalPosition(journalId, termCount, to);
    }

    /**
     * Counts {@code events} more events of this batch that the delivery leaves out because the sink refuses them as
     * too large. Once the delivery commits (or, if it failed, once the sink says it committed all the same), the
     * engine counts them as dropped with reason {@code too-large} instead of written; a delivery that did not commit
     * is made again with a new batch, counted anew. Say it before the commit, once for each event left out.
     */
    public void dropTooLarge(int events) {
        if (events < 0 || droppedTooLarge + events > count) {
            throw new IllegalArgumentException("dropTooLarge(" + events + ") with " + droppedTooLarge
                    + " already counted, of a batch of " + count);
        }
        droppedTooLarge += events;
    }

    /** How many events of this batch the delivery leaves out as too large ({@link #dropTooLarge}). */
    public int droppedTooLarge() {
        return droppedTooLarge;
    }

    /**
     * Where the {@code i}-th event's frame starts in the batch's term: with the journal id and the term, the event's
     * place in the journal, the same whenever the event is delivered (again, by the drainer or by recovery).
     */
    public int offset(int i) {
        if (i < 0 || i >= count) {
            throw new IndexOutOfBoundsException("event " + i + " of " + count);
        }
        return offsets[i];
    }

    /** The {@code i}-th event's bytes, as a read-only buffer of its own (position 0, limit its length). */
    public ByteBuffer event(int i) {
        if (i < 0 || i >= count) {
            throw new IndexOutOfBoundsException("event " + i + " of " + count);
        }
        int from = start + (i == 0 ? 0 : ends[i - 1]);
        return bytes.duplicate().limit(start + ends[i]).position(from).slice().asReadOnlyBuffer();
    }
}
