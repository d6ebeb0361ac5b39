package io.github.lockfreelog.drain;

import io.github.lockfreelog.diagnostics.CrashPoint;
import io.github.lockfreelog.journal.WriteLedger;
import io.github.lockfreelog.sink.InterruptedWriteException;
import io.github.lockfreelog.sink.LogSink;
import io.github.lockfreelog.term.Journal;
import io.github.lockfreelog.term.JournalDescriptor;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Every write to the log file, by the drainer or by recovery, goes through here, so that the
 * journal always says how far the log file reached: before each write the intent (journal range,
 * bytes already written of it, the file's size), after the last write of a range the drain record
 * (see {@link JournalDescriptor}). A crash at any point leaves at most one write unsettled, and
 * recovery settles it by content; a write that failed is recorded as such, with how much of the
 * range had landed, so recovery writes the rest without a search.
 *
 * <p><b>A line another process left cut.</b> The kernel may cut a {@code write} short at any page
 * when its process is killed, and the cut line stays at the end of a log file that other instances
 * share. A write of whole lines that starts where another writer left off first looks at the
 * file's last byte. If it is not a newline while another instance's write is in flight (by the
 * {@link WriteLedger}), that write is given time to finish: until the file and the writes in flight
 * stay unchanged for {@link #CUT_LINE_WAIT_NANOS}. A line still cut then (its writer is dead, or
 * wrote without a ledger) is ended with a newline before this write, so this instance's lines stay
 * whole; the dead instance's recovery writes the cut event again, whole ({@code Recovery}). A writer
 * wrongly taken for dead costs an empty line, never a torn one: its write finishes before ours
 * begins (appends to one file are serialised). What this cannot see is a kill that cuts a write in
 * the microseconds between this look and this write: then this write's first line follows the cut
 * part. Closing that window would take a lock across processes around every write.
 */
public final class DrainLog {

    private final Journal journal;
    private final LogSink sink;
    /** This journal's entry in the log file's {@link WriteLedger}; {@code null} without one. */
    private final WriteLedger.Entry ledger;
    /** How long a cut line at the end of the log, with no sign of progress, is left to its writer. */
    static final long CUT_LINE_WAIT_NANOS = TimeUnit.MILLISECONDS.toNanos(200);
    private static final long CUT_LINE_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    /** Looks again at once this many times before it parks between looks. */
    private static final int CUT_LINE_SPINS = 64;

    private long drainSeq;
    private long intentSeq;
    private long logSize;
    /** Set by {@link #othersMayHaveWritten()} until the next write. */
    private boolean othersMayHaveWritten;

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
     * Says that another process may have written the end of the log, so that the next write that
     * begins an event looks for a line left cut at the end and ends it first, as after another
     * instance's write. Recovery says so before it writes again, whole, an interrupted write it could
     * not search for (one the ledger saw racing with another's): without it, that write was glued to
     * the part of it the crash had left. Only then, since each look at a live file can race with
     * another instance's write (see the class comment).
     */
    public void othersMayHaveWritten() {
        othersMayHaveWritten = true;
    }

    /**
     * Writes what remains in {@code src}: the payloads of the data frames of term {@code termCount}
     * in {@code [from, to)}, whose first byte is at {@code src} index {@code start}. Resumes a
     * write that failed part way when called again with the same arguments. Records the drain
     * position {@code (termCount, to)} once all is written.
     */
    public void write(ByteBuffer src, int start, long termCount, int from, int to) throws IOException {
        write(src, start, termCount, from, to, src.position() == start);
    }

    /**
     * As {@link #write(ByteBuffer, int, long, int, int)}; {@code startsEvent} says whether the
     * bytes remaining in {@code src} begin with an event (else they finish one that a crash cut,
     * and must follow its first part).
     */
    public void write(ByteBuffer src, int start, long termCount, int from, int to, boolean startsEvent)
            throws IOException {
        boolean first = true;
        while (src.hasRemaining()) {
            sink.follow(); // first: the size in the intent must be that of the file written
            long size = sink.size();
            boolean look = first && startsEvent && (size != logSize || othersMayHaveWritten)
                    && writesLines(src); // another process wrote
            boolean endCutLine = look && lineLeftCut();
            first = false;
            final long before = look ? sink.size() : size; // waiting for a live writer may have moved it
            final int at = src.position();
            final long seq = ++intentSeq;
            if (ledger != null) {
                ledger.begin(seq, before); // first: an intent the journal holds is in the ledger
            }
            journal.writeIntent(seq, termCount, from, to, at - start, before);
            CrashPoint.reached(CrashPoint.BEFORE_LOG_WRITE);
            try {
                if (endCutLine && sink.endsMidLine()) {
                    // after begin: the cut write's search ends where the cut line does, before this newline
                    writeFully(ByteBuffer.wrap(NEWLINE));
                }
                if (CrashPoint.isDue(CrashPoint.MID_LOG_WRITE)) {
                    cutAndHalt(src);
                }
                sink.write(src);
            } catch (InterruptedWriteException e) {
                // whether the bytes went out is unknown: the same content check as recovery's
                src.position(at + sink.landed(before, searchEnd(seq, before), src.duplicate().position(at)));
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
        othersMayHaveWritten = false;
        logSize = sink.size();
        record(termCount, to);
        if (ledger != null) {
            ledger.end();
        }
    }

    private static final byte[] NEWLINE = {'\n'};

    private static boolean writesLines(ByteBuffer src) {
        return src.get(src.limit() - 1) == '\n';
    }

    /**
     * Whether the log file ends in a line that another writer left cut and will not finish; waits
     * for one still being written (see the class comment). Asked only when another process wrote
     * since this one's last write.
     */
    private boolean lineLeftCut() throws IOException {
        if (!sink.endsMidLine()) {
            return false;
        }
        long lastSize = -1;
        long lastFlight = 0;
        long quietSince = System.nanoTime();
        int polls = 0;
        do {
            long flight = ledger == null ? 0 : ledger.othersInFlight();
            if (flight == 0) {
                return true; // no write of an instance in flight: the line's writer is gone or not one of ours
            }
            long size = sink.size();
            long now = System.nanoTime();
            if (size != lastSize || flight != lastFlight) {
                lastSize = size;
                lastFlight = flight;
                quietSince = now;
            } else if (now - quietSince >= CUT_LINE_WAIT_NANOS || Thread.currentThread().isInterrupted()) {
                return true;
            }
            if (++polls > CUT_LINE_SPINS) {
                LockSupport.parkNanos(CUT_LINE_POLL_NANOS);
            } else {
                Thread.onSpinWait(); // a live writer's write ends within microseconds: look again at once
            }
        } while (sink.endsMidLine());
        return false;
    }

    /** The crash tests' kill during a write: about half of it, cut mid-line, then a halt. */
    private void cutAndHalt(ByteBuffer src) throws IOException {
        int cut = src.position() + src.remaining() / 2;
        while (cut > src.position() && cut < src.limit() - 1 && src.get(cut - 1) == '\n') {
            cut++;
        }
        writeFully(src.duplicate().limit(cut));
        CrashPoint.halt();
    }

    private void writeFully(ByteBuffer bytes) throws IOException {
        while (bytes.hasRemaining()) {
            sink.write(bytes);
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

    /** The log file's output: every write through a {@link DrainLog}, rolls by the sink's policy. */
    static final class FileOutput implements DrainOutput {
        private final LogSink sink;
        private final DrainLog log;

        private FileOutput(LogSink sink, DrainLog log) {
            this.sink = sink;
            this.log = log;
        }

        static DrainOutput.Factory factory(LogSink sink) {
            return journal -> new FileOutput(sink, new DrainLog(journal.journal, sink, 1, 0, journal.ledgerEntry));
        }

        @Override
        public int write(ByteBuffer src, int start, int[] ends, int[] offsets, int events, long termCount, int from,
                int to) throws IOException {
            log.write(src, start, termCount, from, to);
            return 0;
        }

        @Override
        public void record(long termCount, int offset) {
            log.record(termCount, offset);
        }

        @Override
        public boolean shouldRoll(long pendingBytes, int nextBytes) {
            return sink.shouldRoll(pendingBytes, nextBytes);
        }

        @Override
        public void roll(long termCount, int offset) throws IOException {
            sink.roll();
            CrashPoint.reached(CrashPoint.AFTER_ROLL_MOVE);
            log.rolled(termCount, offset);
        }
    }
}
