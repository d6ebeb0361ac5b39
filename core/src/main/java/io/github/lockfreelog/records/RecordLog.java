package io.github.lockfreelog.records;

import io.github.lockfreelog.diagnostics.CrashPoint;
import io.github.lockfreelog.drain.ActiveJournal;
import io.github.lockfreelog.drain.DrainOutput;
import io.github.lockfreelog.drain.Drainer;
import io.github.lockfreelog.sink.JournalPosition;
import io.github.lockfreelog.sink.RecordBatch;
import io.github.lockfreelog.sink.RecordSink;
import io.github.lockfreelog.term.Journal;
import io.github.lockfreelog.term.JournalDescriptor;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Every delivery of a journal's events to a {@link RecordSink}, by the drainer or by recovery: a batch is
 * delivered with the position it reaches, and only once the sink has committed it is the journal's drain record
 * moved past it. So the journal never claims more than the sink holds; the sink may hold one batch more than
 * the journal says (a crash between the commit and the record), which {@link RecordSink#committed} tells.
 *
 * <p>A delivery that failed may have committed all the same (its answer was lost): before the same batch is
 * delivered again, the sink is asked how far it is, and a batch it holds already is only recorded.
 */
public final class RecordLog implements DrainOutput {

    /** Between a batch's commit in the sink and its drain record in the journal. */
    public static final String AFTER_RECORD_COMMIT = "after-record-commit";

    private final Journal journal;
    private final RecordSink sink;
    private long drainSeq;
    /** Whether the last delivery failed: whether it committed is for the sink to say. */
    private boolean unsettled;
    /** The events the failed delivery left out as too large, if it committed after all. */
    private int unsettledTooLarge;

    public RecordLog(Journal journal, RecordSink sink, long drainSeq) {
        this.journal = journal;
        this.sink = sink;
        this.drainSeq = drainSeq;
    }

    /** The factory the drainer opens one with for each journal it drains; the journal's records start at 1. */
    public static DrainOutput.Factory factory(RecordSink sink) {
        return new DrainOutput.Factory() {
            @Override
            public DrainOutput open(ActiveJournal active) {
                return new RecordLog(active.journal, sink, 1);
            }

            @Override
            public String action() {
                return "delivering events to the record sink";
            }

            @Override
            public int batchBytes(int bufferSize) {
                return RecordRecovery.batchBytes(bufferSize);
            }
        };
    }

    /** Delivers the events, and records them; returns how many the sink left out as too large. */
    @Override
    public int write(ByteBuffer src, int start, int[] ends, int[] offsets, int events, long termCount, int from,
            int to) throws IOException {
        if (unsettled) {
            JournalPosition committed = held(journal, sink.committed(journal.journalId()));
            unsettled = false;
            if (committed != null && committed.covers(termCount, to)) {
                src.position(src.limit());
                record(termCount, to); // the failed delivery committed after all
                return unsettledTooLarge;
            }
        }
        RecordBatch batch = new RecordBatch(journal.journalId(), termCount, from, to, src, start, ends, offsets,
                events);
        try {
            sink.deliver(batch);
        } catch (IOException | RuntimeException | Error e) {
            unsettled = true;
            unsettledTooLarge = batch.droppedTooLarge();
            throw e;
        }
        CrashPoint.reached(AFTER_RECORD_COMMIT);
        src.position(src.limit());
        record(termCount, to);
        return batch.droppedTooLarge();
    }

    /**
     * {@code committed} (a position read from the sink's store) when the journal could hold it, else {@code null}:
     * its term is one of the journal's (a buffer's raw tail carries the term's id) and its offset, on a frame boundary,
     * lies within what was reserved in that term. Whoever may write the store (a Kafka topic's {@code .positions})
     * could otherwise make recovery and a failed delivery skip events the sink never took; a position not taken costs
     * at most a batch delivered twice, never an event.
     */
    static JournalPosition held(Journal journal, JournalPosition committed) {
        if (committed == null) {
            return null;
        }
        long term = committed.termCount();
        long offset = committed.offset();
        int bufferSize = journal.bufferSize();
        if (term < 0 || offset < 0 || offset > bufferSize || offset % JournalDescriptor.FRAME_ALIGNMENT != 0) {
            return null;
        }
        long rawTail = journal.rawTailVolatile((int) (term % journal.bufferCount()));
        if (JournalDescriptor.termId(rawTail) != (int) term) {
            return null;
        }
        return offset <= Math.min(JournalDescriptor.tailOffset(rawTail), bufferSize) ? committed : null;
    }

    @Override
    public void record(long termCount, int offset) {
        journal.writeDrainRecord(termCount, offset, 0, drainSeq++);
    }
}
