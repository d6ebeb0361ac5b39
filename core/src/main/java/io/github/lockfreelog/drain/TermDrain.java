package io.github.lockfreelog.drain;

import static io.github.lockfreelog.term.JournalDescriptor.*;

import io.github.lockfreelog.diagnostics.CrashPoint;
import io.github.lockfreelog.diagnostics.StatusReporter;
import io.github.lockfreelog.term.BufferStates;
import io.github.lockfreelog.term.FrameCodec;
import io.github.lockfreelog.term.FrameCodec.FrameKind;
import io.github.lockfreelog.term.Journal;
import io.github.lockfreelog.term.TermReader;
import io.github.lockfreelog.term.TermUnblocker;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Drains one journal term by term, for the {@link Drainer}: walks a term's frames with the
 * {@link TermReader}, gathers committed payloads into a {@link Batch} and writes them through the
 * journal's {@link DrainOutput} (a {@link DrainLog} for the log file), waits for unfinished frames (and has {@link UnfinishedFrames} settle them once
 * overdue), rolls the log between two events, and refills each drained buffer for the term it
 * hosts next. It holds the drain position: the term being drained and how far it reached the log.
 */
final class TermDrain implements TermReader.FrameHandler {

    private static final long COMMIT_PARK_NANOS = TimeUnit.MICROSECONDS.toNanos(50);

    private final DrainOutput.Factory outputs;
    private final StatusReporter status;
    private final DrainFailures failures;
    private final JournalCounters counters;
    private final Batch batch;
    private final UnfinishedFrames unfinishedFrames;
    private final long unblockTimeoutNanos;

    private ActiveJournal draining;
    private Journal journal;
    private BufferStates states;
    private TermUnblocker unblocker;
    private DrainOutput log;
    private int bufferCount;
    private int bufferSize;

    /** The term being drained (a term count) and the offset in it up to which everything reached the log file. */
    private volatile long currentTerm;
    private volatile int drainOffset;
    /** How far frames were gathered into the pending batch. */
    private int scanOffset;
    /** The buffer the walk of {@link #drainTerm(boolean)} is in: its index, base and limit, and whether it waits for unfinished frames. */
    private int walkIndex;
    private int walkBase;
    private int walkLimit;
    private boolean walkWaits;

    TermDrain(DrainOutput.Factory outputs, StatusReporter status, DrainFailures failures, JournalCounters counters,
            long unblockTimeoutNanos, int batchBytes) {
        this.outputs = outputs;
        this.status = status;
        this.failures = failures;
        this.counters = counters;
        this.batch = new Batch(counters, batchBytes);
        this.unfinishedFrames = new UnfinishedFrames(counters, status);
        this.unblockTimeoutNanos = unblockTimeoutNanos;
    }

    /** Starts draining {@code journal} from its first term. */
    void drainFrom(ActiveJournal journal) throws IOException {
        this.draining = journal;
        this.journal = journal.journal;
        this.states = journal.states;
        this.bufferCount = journal.journal.bufferCount();
        this.bufferSize = journal.journal.bufferSize();
        this.unblocker = new TermUnblocker(journal.journal, unblockTimeoutNanos);
        unfinishedFrames.journalChanged(journal, unblocker);
        this.log = outputs.open(journal);
        log.record(0, 0); // the first drain record: nothing drained yet
        currentTerm = 0;
        drainOffset = 0;
        scanOffset = 0;
        batch.journalChanged();
    }

    /** The term being drained, as a term count. */
    long currentTerm() {
        return currentTerm;
    }

    /** Whether everything of the journal's last term was drained and written (a retired journal is done). */
    boolean drainedToEnd() {
        return !batch.hasUnwritten() && scanOffset >= bufferSize;
    }

    /** Finishes a write that failed before, if there is one. */
    void finishFailedWrite() throws IOException {
        if (batch.hasUnwritten()) {
            writeBatch();
        }
    }

    /** How many bytes are not drained yet in the journal drained, whose term {@code term} is {@code fill} full. */
    long lag(long term, long fill) {
        return Math.max(0, (term - currentTerm) * bufferSize + fill - drainOffset);
    }

    /**
     * Drains term {@link #currentTerm}. A dirty term (writers have left it: its tail is at the
     * buffer's end) and the active one at stop are drained to their tail, waiting for unfinished
     * frames until they are committed or overdue; then a dirty term's buffer is cleaned. Otherwise
     * the committed prefix of the active term is drained, and an unfinished frame ends the pass
     * unless it is overdue.
     */
    void drainTerm(boolean toTail) throws IOException {
        final int index = (int) (currentTerm % bufferCount);
        final int base = journal.bufferBase(index);
        final long rawTail = journal.rawTailVolatile(index);
        if (termId(rawTail) != (int) currentTerm) {
            return; // not rotated into yet (the active count moves after the tail)
        }
        if (scanOffset < journal.termStartVolatile(index)) {
            scanOffset = drainOffset = journal.termStartVolatile(index);
        }
        final int limit = (int) Math.min(tailOffset(rawTail), bufferSize);
        final boolean dirty = limit == bufferSize && journal.activeTermCountAcquire() > currentTerm;
        walkIndex = index;
        walkBase = base;
        walkLimit = limit;
        walkWaits = toTail || dirty;
        scanOffset = TermReader.read(journal, base, scanOffset, limit, (int) currentTerm, this);
        writeBatch();
        if (dirty && scanOffset >= limit) {
            clean(index);
        }
    }

    /** One frame of the walk of {@link #drainTerm(boolean)}: {@code offset} is {@link #scanOffset}. */
    @Override
    public int onFrame(int offset, long header, FrameKind kind) throws IOException {
        scanOffset = offset;
        final int at = walkBase + offset;
        switch (kind) {
            case COMMITTED:
                if (draining.orphansLeft) {
                    unfinishedFrames.countCommitted(at, header, (int) currentTerm);
                }
                gather(at, headerLength(header), headerType(header));
                return scanOffset;
            case ABANDONED:
                return TermReader.STEP;
            case CLAIMED:
            case FREE:
                // the active term's committed prefix is drained once an unfinished frame is not waited for
                return unfinished(walkIndex, at, header, walkBase + walkLimit, walkWaits) ? offset : TermReader.STOP;
            default:
                skipDamaged(at, header, walkBase, walkLimit);
                return scanOffset;
        }
    }

    /**
     * An unfinished frame at {@code at}: waits for it if {@code wait}, and passes over it once
     * overdue. Returns whether the scan may go on (the frame is committed, padded over or left out).
     */
    private boolean unfinished(int index, int at, long header, int tail, boolean wait) throws IOException {
        for (int tries = 0;; tries++) {
            if (unfinishedFrames.settle(index, at, header, tail, (int) currentTerm)) {
                return true;
            }
            if (!wait) {
                return false;
            }
            if (tries == 0) {
                writeBatch(); // what is before the stalled frame reaches the log meanwhile
            }
            if (tries < 100) {
                Thread.onSpinWait();
            } else {
                LockSupport.parkNanos(this, COMMIT_PARK_NANOS);
            }
            if (journal.getLongAcquire(at) != header) {
                return true; // committed, or claimed: the scan looks at it again
            }
        }
    }

    /**
     * A header that the commit protocol never produces: reported and skipped by re-synchronising
     * on the next plausible frame, so it cannot make the drainer discard the rest of the term.
     */
    private void skipDamaged(int at, long header, int base, int limit) {
        int next = FrameCodec.nextPlausibleFrame(journal, base, scanOffset + FRAME_ALIGNMENT, limit);
        counters.countUnblocked();
        status.warn("damaged frame header (length=" + headerLength(header) + ", type=0x"
                + Integer.toHexString(headerType(header)) + ") at journal offset " + at + "; skipped "
                + (next - scanOffset) + " bytes", null);
        scanOffset = next;
    }

    /**
     * Hands the drained buffer {@code index} back for the term it hosts next: records that the
     * drained term is done first (once writers may reuse the buffer, recovery must not start from
     * the term it held), then writes the next term's start and free slots, then marks it clean.
     */
    private void clean(int index) {
        final long next = currentTerm + 1;
        final long hostsNext = currentTerm + bufferCount;
        log.record(next, 0);
        currentTerm = next;
        drainOffset = 0;
        scanOffset = 0;
        unblocker.termChanged();
        if (states.isRetired()) {
            return; // never handed out again: nothing to prepare
        }
        final int start = unblocker.nextTermStart(index);
        journal.putTermStartVolatile(index, start);
        int half = (bufferSize - start) / 2 & -FRAME_ALIGNMENT;
        journal.fillEmpty(journal.bufferBase(index) + start, half, (int) hostsNext);
        CrashPoint.reached(CrashPoint.MID_REFILL);
        journal.fillEmpty(journal.bufferBase(index) + start + half, bufferSize - start - half, (int) hostsNext);
        states.markClean(index, hostsNext);
    }

    /** Adds a committed frame to the batch; writes the batch when staging is full. */
    private void gather(int at, int length, int type) throws IOException {
        if (type == TYPE_DATA) {
            final int payload = length - HEADER_LENGTH;
            if (log.shouldRoll(batch.bytes(), payload)) {
                roll();
            }
            if (!batch.fits(payload)) {
                writeBatch();
            }
            if (batch.isLarge(payload)) {
                int offset = scanOffset;
                scanOffset += align(length);
                batch.stageLarge(journal, at, offset, length, scanOffset);
                writeBatch();
                return;
            }
            batch.add(journal, at, scanOffset, payload);
        }
        scanOffset += align(length);
    }

    /**
     * Rolls the log file between two events: what was gathered is written and recorded first, and
     * the new file's empty size is recorded right after.
     */
    private void roll() throws IOException {
        writeBatch();
        log.roll(currentTerm, drainOffset);
    }

    /** Writes the batch (resuming after a partial or failed write), then records the drain position. */
    private void writeBatch() throws IOException {
        if (batch.hasUnwritten()) {
            drainOffset = batch.resume(log, currentTerm, drainOffset);
        } else if (scanOffset == drainOffset) {
            return;
        } else if (batch.isEmpty()) {
            log.record(currentTerm, scanOffset); // only padding or frames left out: nothing to write
            drainOffset = scanOffset;
            return;
        } else {
            drainOffset = batch.write(log, currentTerm, drainOffset, scanOffset);
        }
        failures.wrote();
    }
}
