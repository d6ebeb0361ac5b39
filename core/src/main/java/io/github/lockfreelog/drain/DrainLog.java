package io.github.lockfreelog.drain;

import io.github.lockfreelog.diagnostics.CrashPoint;
import io.github.lockfreelog.journal.WriteLedger;
import io.github.lockfreelog.sink.InterruptedWriteException;
import io.github.lockfreelog.sink.LogSink;
import io.github.lockfreelog.term.Journal;
import io.github.lockfreelog.term.JournalDescriptor;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Every write to the log file, by the drainer or by recovery, goes through here, so that the
 * journal always says how far the log file reached: before each write the intent (journal range,
 * bytes already written of it, the file's size), after the last write of a range the drain record
 * (see {@link JournalDescriptor}). A crash at any point leaves at most one write unsettled, and
 * recovery settles it by content; a write that failed is recorded as such, with how much of the
 * range had landed, so recovery writes the rest without a search.
 */
public final class DrainLog {

    private final Journal journal;
    private final LogSink sink;
    /** This journal's entry in the log file's {@link WriteLedger}; {@code null} without one. */
    private final WriteLedger.Entry ledger;
    private long drainSeq;
    private long intentSeq;
    private long logSize;

    public DrainLog(Journal journal, LogSink sink, long drainSeq, long intentSeq, WriteLedger.Entry ledger)
            throws IOException {
        this.journal = journal;
        this.sink = sink;
        this.ledger = ledger;
        this.drainSeq = drainSeq;
        this.intentSeq = intentSeq;
        this.logSize = sink.size();
    }

    /**
     * Writes what remains in {@code src}: the payloads of the data frames of term {@code termCount}
     * in {@code [from, to)}, whose first byte is at {@code src} index {@code start}. Resumes a
     * write that failed part way when called again with the same arguments. Records the drain
     * position {@code (termCount, to)} once all is written.
     */
    public void write(ByteBuffer src, int start, long termCount, int from, int to) throws IOException {
        while (src.hasRemaining()) {
            sink.follow(); // first: the size in the intent must be that of the file written
            final long before = sink.size();
            final int at = src.position();
            final long seq = ++intentSeq;
            if (ledger != null) {
                ledger.begin(seq, before); // first: an intent the journal holds is in the ledger
            }
            journal.writeIntent(seq, termCount, from, to, at - start, before);
            CrashPoint.reached(CrashPoint.BEFORE_LOG_WRITE);
            try {
                sink.write(src);
            } catch (InterruptedWriteException e) {
                // whether the bytes went out is unknown: the same content check as recovery's
                byte[] attempted = new byte[src.limit() - at];
                src.get(at, attempted);
                src.position(at + sink.landed(before, searchEnd(seq, before), attempted));
            } catch (IOException e) {
                // the call failed: what went out is what src's position says (a channel moves it only
                // for bytes written); say so, lest recovery take another's bytes for the rest
                journal.writeIntent(seq, termCount, from, to, src.position() - start, before, true);
                if (ledger != null) {
                    ledger.end();
                }
                throw e;
            }
        }
        CrashPoint.reached(CrashPoint.AFTER_LOG_WRITE);
        logSize = sink.size();
        record(termCount, to);
        if (ledger != null) {
            ledger.end();
        }
    }

    /** Where the search for the write {@code seq}, recorded against {@code sizeBefore}, may end. */
    long searchEnd(long seq, long sizeBefore) {
        return ledger == null ? WriteLedger.UNBOUNDED : ledger.searchEnd(seq, sizeBefore);
    }

    /** Records that everything of term {@code termCount} below {@code offset} has reached the log file. */
    public void record(long termCount, int offset) {
        journal.writeDrainRecord(termCount, offset, logSize, drainSeq++);
    }

    /** Records, after a roll, the new file's size at the same drain position. */
    void rolled(long termCount, int offset) throws IOException {
        logSize = sink.size();
        record(termCount, offset);
    }
}
