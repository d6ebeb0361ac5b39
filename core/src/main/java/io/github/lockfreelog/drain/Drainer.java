package io.github.lockfreelog.drain;

import static io.github.lockfreelog.term.JournalDescriptor.*;

import io.github.lockfreelog.diagnostics.CrashPoint;
import io.github.lockfreelog.diagnostics.ProcStat;
import io.github.lockfreelog.diagnostics.StatusReporter;
import io.github.lockfreelog.engine.EngineConfig;
import io.github.lockfreelog.engine.JournalEngine;
import io.github.lockfreelog.journal.JournalLock;
import io.github.lockfreelog.sink.LogSink;
import io.github.lockfreelog.term.BufferStates;
import io.github.lockfreelog.term.FrameScanner;
import io.github.lockfreelog.term.Journal;
import io.github.lockfreelog.term.TermAppender;
import io.github.lockfreelog.term.TermUnblocker;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The one background thread of an appender. It writes the payloads of committed frames to the
 * log file (copied through a staging buffer, one write per megabyte) through a {@link DrainLog},
 * which records in the journal how far the log file reached; it then refills each drained buffer
 * with the free slots of the term it hosts next (which also pre-touches its pages for the next
 * writers) and marks it clean. While events arrive it passes over the active buffer every
 * millisecond; once passes find none it parks for twice as long each time, up to a flush
 * interval; a swap or a waiting caller unparks it. An interrupt of this thread means nothing to
 * it: it is cleared and ignored.
 *
 * <p>Unfinished frames are waited for, in the active term as in a dirty one, and passed over by
 * the {@link TermUnblocker} once overdue, so one stalled writer can never stop the log.
 */
public final class Drainer implements Runnable {

    private static final int STAGING_BYTES = 1 << 20;
    private static final long FAULT_SAMPLE_NANOS = TimeUnit.SECONDS.toNanos(1);
    static final long IO_RETRY_NANOS = TimeUnit.MILLISECONDS.toNanos(500);
    private static final long COMMIT_PARK_NANOS = TimeUnit.MICROSECONDS.toNanos(50);
    /**
     * Delay before the next pass over the active term when the last one found events. 5 ms was
     * tried: at 100k events/s on 2 vCPUs the caller lost less time off its CPU in 5 paired runs of 5,
     * but at 64 threads throughput fell from 1.87-1.89M to 0.14-1.01M ops/s (JMH quick, two runs
     * each), so it stays at 1 ms.
     */
    private static final long BUSY_FLUSH_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    /** How often the drainer looks whether its journal and lock file are still on disk ({@link JournalLock#check}). */
    static final long JOURNAL_CHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(200);
    /** How often a replacement for a journal gone from disk is tried while building one fails. */
    private static final long REPLACE_RETRY_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final JournalEngine engine;
    private final LogSink sink;
    private final JournalCounters counters;
    private final StatusReporter status;
    private final int bufferCount;
    private final int bufferSize;
    private final long flushIntervalNanos;
    private final long unblockTimeoutNanos;

    /** The journal being drained: the engine's, or a retired one drained to its end before {@link #next}. */
    private volatile ActiveJournal draining;
    private Journal journal;
    private BufferStates states;
    private TermUnblocker unblocker;
    private DrainLog log;
    /** The journal that replaced {@link #draining}, once it was found gone from disk; {@code null} otherwise. */
    private ActiveJournal next;
    /** Journals drained to their end, still mapped until no caller can touch them. */
    private final List<ActiveJournal> retired = new ArrayList<>();
    private long lastJournalCheck;
    private long lastReplaceFailure;

    /**
     * Payloads are copied from the mapping into this buffer and written with one call. (A gathering
     * write of one vector entry per event was measured first: the kernel's page-cache path costs
     * about as much per entry as per page, which made the drainer 3 times slower for 150-byte lines.)
     */
    private final ByteBuffer staging = ByteBuffer.allocateDirect(STAGING_BYTES);
    /**
     * A view of the whole mapping, positioned on an event larger than staging, which is written
     * straight from the mapping; made when the first such event comes.
     */
    private ByteBuffer large;
    /** What is being written now (staging, or a large event's view), its first byte, and its range; kept across a failed write. */
    private ByteBuffer out;
    private int outStart;
    private int outTo;
    private int batchEvents;
    private long batchBytes;

    /** Term being drained and the offset in it up to which everything reached the log file. */
    public volatile long drainTerm;
    volatile int drainOffset;
    /** How far frames were gathered into the pending batch. */
    private int scanOffset;

    private volatile boolean stopRequested;
    private volatile boolean finishedCleanly;
    private long lastFaultSample;
    public volatile long[] threadFaults;
    public volatile long[] threadFaultsAtStart;
    private long lastErrorReport;
    /** Delay before the next pass over the active term: short while events arrive, then growing. */
    private long flushDelayNanos = BUSY_FLUSH_NANOS;

    public Drainer(JournalEngine engine, ActiveJournal journal, LogSink sink, JournalCounters counters, StatusReporter status,
            EngineConfig config) throws IOException {
        this.engine = engine;
        this.sink = sink;
        this.counters = counters;
        this.status = status;
        this.bufferCount = config.bufferCount();
        this.bufferSize = config.bufferSize();
        this.flushIntervalNanos = config.flushIntervalNanos();
        this.unblockTimeoutNanos = config.unblockTimeoutNanos();
        drainFrom(journal);
    }

    /** Starts draining {@code journal} from its first term. */
    private void drainFrom(ActiveJournal journal) throws IOException {
        this.draining = journal;
        this.journal = journal.journal;
        this.states = journal.states;
        this.unblocker = new TermUnblocker(journal.journal, unblockTimeoutNanos);
        this.log = new DrainLog(journal.journal, sink, 1, 0, journal.ledgerEntry);
        log.record(0, 0); // the first drain record: nothing drained yet
        drainTerm = 0;
        drainOffset = 0;
        scanOffset = 0;
        large = null;
    }

    public void requestStop() {
        stopRequested = true;
    }

    public boolean finishedCleanly() {
        return finishedCleanly;
    }

    @Override
    public void run() {
        try {
            drain();
        } finally {
            engine.drainerExited();
        }
    }

    private void drain() {
        threadFaultsAtStart = ProcStat.threadFaults();
        threadFaults = threadFaultsAtStart;
        lastFaultSample = System.nanoTime();
        long nextFlush = System.nanoTime() + flushIntervalNanos;
        for (;;) {
            try {
                Thread.interrupted(); // an interrupt must not close the log's channel or make parking spin
                sampleFaults();
                checkJournal();
                if (drainDirty()) {
                    continue;
                }
                if (stopRequested) {
                    drainTerm(true);
                    finishedCleanly = true;
                    return;
                }
                long now = System.nanoTime();
                if (now - nextFlush >= 0) {
                    nextFlush = now + nextFlushDelay();
                }
                if (journal.activeTermCountAcquire() == drainTerm && !stopRequested) {
                    long untilCheck = lastJournalCheck + JOURNAL_CHECK_NANOS - System.nanoTime();
                    LockSupport.parkNanos(this, Math.max(1, Math.min(nextFlush - System.nanoTime(), untilCheck)));
                }
            } catch (Throwable e) { // an I/O error, a fault in mapped memory, even an OutOfMemoryError: report, retry
                failed(e);
                if (engine.stopGaveUp()) {
                    return; // stop timed out and closed the log file: the next start recovers the journal
                }
                LockSupport.parkNanos(this, IO_RETRY_NANOS);
            }
        }
    }

    /**
     * One step of the loop, less its timing: finishes a write that failed before, then drains the
     * oldest dirty term and cleans its buffer, if there is one (waiting for its unfinished frames).
     * Returns whether there was one: the loop then comes round at once. The model-checking test
     * calls this (and {@link #drainTerm}) in place of the thread.
     */
    public boolean drainDirty() throws IOException {
        if (out != null) {
            writeBatch();
        }
        if (drainTerm < journal.activeTermCountAcquire()) {
            drainTerm(true);
            return true;
        }
        if (next != null) {
            // a retired journal, sealed: its active term is its last; drain it to its end, then move on
            drainTerm(true);
            if (out == null && scanOffset >= bufferSize) {
                draining.releaseFiles(); // drained: its files are gone from disk; only its mapping waits for callers
                retired.add(draining);
                drainFrom(next);
                next = null;
            }
            return true;
        }
        return false;
    }

    /**
     * A few times a second: whether the journal is still on disk (see {@link JournalLock#check},
     * which also puts back a lock file a sweep removed). When its file is gone (its folder was
     * deleted), a new journal is built for callers to move to, and this one is retired and drained
     * to its end first, so events of both reach the log in order, and crash safety returns at
     * once for new events. Journals retired before are unmapped once no caller can touch them.
     */
    private void checkJournal() {
        long now = System.nanoTime();
        if (now - lastJournalCheck < JOURNAL_CHECK_NANOS) {
            return;
        }
        lastJournalCheck = now;
        if (!retired.isEmpty() && engine.nobodyInside()) {
            closeRetired();
        }
        ActiveJournal current = draining;
        if (current.ledger != null) {
            current.ledger.refresh();
        }
        if (current.lock == null || next != null || stopRequested
                || current.lock.check(status) == JournalLock.Check.INTACT
                || now - lastReplaceFailure < REPLACE_RETRY_NANOS) {
            return;
        }
        Path gone = current.journal.path();
        try {
            next = engine.replaceJournal(current);
        } catch (IOException | RuntimeException e) {
            lastReplaceFailure = now;
            failed(new IOException("the journal " + gone + " is gone from disk and a new one could not be made"
                    + " (tried again every second; events are kept in memory meanwhile): " + e.getMessage(), e));
            return;
        }
        current.retire(drainTerm);
        status.warn("the journal " + gone + " was deleted while in use (its folder removed?); new events are kept in"
                + " the journal " + next.journal.path() + ", and those still in the deleted one are written to the log"
                + " first", null);
    }

    /** Unmaps the journals retired and drained so far; no caller may touch them any more. */
    void closeRetired() {
        for (ActiveJournal old : retired) {
            close(old);
        }
        retired.clear();
    }

    /**
     * At the engine's close: unmaps every replaced journal, also one not drained to its end (a stop
     * that timed out; its file is gone from disk, so nothing could recover it anyway), leaving
     * {@code active}, the engine's, to the engine.
     */
    public void closeReplaced(ActiveJournal active) {
        closeRetired();
        if (draining != active) {
            close(draining);
        }
    }

    private static void close(ActiveJournal old) {
        try {
            old.close(false);
        } catch (IOException | RuntimeException e) {
            // unmapped regardless; its file is gone
        }
    }

    /** How many bytes the drainer is behind in {@code current}, whose term {@code term} is {@code fill} full. */
    public long lag(ActiveJournal current, long term, long fill) {
        if (draining != current) {
            return 0; // still draining a journal that was replaced: not measured
        }
        return Math.max(0, (term - drainTerm) * bufferSize + fill - drainOffset);
    }

    /**
     * Drains the committed prefix of the active term and says when to do so again: after a pass
     * that found events, soon ({@link #BUSY_FLUSH_NANOS}), so that under load the log file grows
     * steadily, in small writes, rather than by a flush interval's worth at once (a shipper that
     * follows the file by name must see each rolled file before it is renamed); after an empty
     * pass, twice as late as after the pass before, up to the flush interval (writers that pause
     * between bursts must not send the drainer back to the full interval).
     */
    private long nextFlushDelay() throws IOException {
        final long before = counters.eventsWritten;
        drainTerm(false);
        flushDelayNanos = counters.eventsWritten != before ? Math.min(BUSY_FLUSH_NANOS, flushIntervalNanos)
                : Math.min(flushDelayNanos * 2, flushIntervalNanos);
        return flushDelayNanos;
    }

    private void failed(Throwable e) {
        if (!engine.ioFailing) {
            counters.failingSinceEpochMillis = System.currentTimeMillis(); // retries keep the episode's start
        }
        engine.ioFailing = true;
        counters.drainerErrors++;
        String message = e.getClass().getSimpleName() + ": " + e.getMessage();
        counters.lastError = message;
        long now = System.nanoTime();
        if (now - lastErrorReport > TimeUnit.SECONDS.toNanos(10) || lastErrorReport == 0) {
            lastErrorReport = now;
            status.error("writing the log file failed (retrying every " + TimeUnit.NANOSECONDS.toMillis(IO_RETRY_NANOS)
                    + " ms; events stay in the journal meanwhile): " + message, e);
        }
    }

    private void sampleFaults() {
        long now = System.nanoTime();
        if (now - lastFaultSample >= FAULT_SAMPLE_NANOS) {
            lastFaultSample = now;
            long[] faults = ProcStat.threadFaults();
            if (faults != null) {
                threadFaults = faults;
            }
        }
    }

    /**
     * Drains term {@link #drainTerm}. A dirty term (writers have left it: its tail is at the
     * buffer's end) and the active one at stop are drained to their tail, waiting for unfinished
     * frames until they are committed or overdue; then a dirty term's buffer is cleaned. Otherwise
     * the committed prefix of the active term is drained, and an unfinished frame ends the pass
     * unless it is overdue.
     */
    public void drainTerm(boolean toTail) throws IOException {
        final int index = (int) (drainTerm % bufferCount);
        final int base = journal.bufferBase(index);
        final long rawTail = journal.rawTailVolatile(index);
        if (termId(rawTail) != (int) drainTerm) {
            return; // not rotated into yet (the active count moves after the tail)
        }
        if (scanOffset < journal.termStartVolatile(index)) {
            scanOffset = drainOffset = journal.termStartVolatile(index);
        }
        final int limit = (int) Math.min(tailOffset(rawTail), bufferSize);
        final boolean dirty = limit == bufferSize && journal.activeTermCountAcquire() > drainTerm;
        while (scanOffset < limit) {
            final int at = base + scanOffset;
            final int room = limit - scanOffset;
            final long header = journal.getLongAcquire(at);
            if (FrameScanner.isCommitted(header, room)) {
                if (draining.orphansLeft) {
                    countOrphan(at, header);
                }
                gather(at, headerLength(header), headerType(header));
            } else if (FrameScanner.isAbandoned(header, room)) {
                scanOffset += align(-headerLength(header));
            } else if (FrameScanner.isClaimed(header, room) || FrameScanner.isFree(header, (int) drainTerm)) {
                if (!unfinished(index, at, header, base + limit, toTail || dirty)) {
                    break; // the active term's committed prefix is drained: the rest waits for the next pass
                }
            } else {
                skipDamaged(at, header, base, limit);
            }
        }
        writeBatch();
        if (dirty && scanOffset >= limit) {
            clean(index);
        }
    }

    /**
     * An unfinished frame at {@code at}: waits for it if {@code wait}, and passes over it once
     * overdue. Returns whether the scan may go on (the frame is committed, padded over or left out).
     */
    private boolean unfinished(int index, int at, long header, int tail, boolean wait) throws IOException {
        for (int tries = 0;; tries++) {
            if (draining.takeOrphan(at, (int) drainTerm)) {
                // its caller failed before finishing, and its own attempt to settle it failed too (or
                // has not come yet: taking the hint leaves the settling and the counting to us)
                if (!settleOrphan(at, tail)) {
                    counters.orphanDrops++;
                }
                return true;
            }
            long now = System.nanoTime();
            if (unblocker.overdue(at, tail, now)) {
                if (headerLength(header) == 0) {
                    if (unblocker.padOver(at, tail, (int) drainTerm)) {
                        counters.unblocked++;
                    }
                    return true;
                }
                if (unblocker.abandon(index, at, header)) {
                    counters.unblocked++;
                    status.warn("a writer stalled for over " + TimeUnit.NANOSECONDS.toMillis(now - unblocker.waitingSince())
                            + " ms while copying its event (journal offset " + at + "): its frame is left out, the"
                            + " writer writes the event again when it resumes, and later terms of this buffer start"
                            + " after the frame until then", null);
                }
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
     * Settles the frame at {@code at} of a caller that failed, as it is now (the caller may have
     * changed it since the scan read it): a free slot is padded over, a claimed frame committed as
     * padding. Returns whether it holds a committed data frame (its event is written, not dropped).
     */
    private boolean settleOrphan(int at, int tail) {
        final long data = (long) TYPE_DATA << 32;
        for (int tries = 0; tries < 3; tries++) {
            long header = journal.getLongAcquire(at);
            if (FrameScanner.isCommitted(header, bufferSize)) {
                return (header & 0xFFFF_FFFF_0000_0000L) == data;
            }
            if (headerLength(header) == 0) {
                unblocker.padOver(at, tail, (int) drainTerm);
            } else {
                TermAppender.settleClaimed(journal, at, header);
            }
        }
        return false;
    }

    /**
     * A committed frame whose caller failed after all its effects, even settling, but could not
     * count them: a data frame is written (not a drop), any other is its event dropped.
     */
    private void countOrphan(int at, long header) {
        // looked at first, as most committed frames have no hint: a compare-and-set only for one that has
        if (draining.isOrphan(at, (int) drainTerm) && draining.takeOrphan(at, (int) drainTerm)
                && headerType(header) != TYPE_DATA) {
            counters.orphanDrops++;
        }
    }

    /**
     * A header that the commit protocol never produces: reported and skipped by re-synchronising
     * on the next plausible frame, so it cannot make the drainer discard the rest of the term.
     */
    private void skipDamaged(int at, long header, int base, int limit) {
        int next = FrameScanner.nextPlausibleFrame(journal, base, scanOffset + FRAME_ALIGNMENT, limit);
        counters.unblocked++;
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
        final long next = drainTerm + 1;
        final long hostsNext = drainTerm + bufferCount;
        log.record(next, 0);
        drainTerm = next;
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
            if (sink.shouldRoll(batchBytes, payload)) {
                roll();
            }
            if (payload > staging.remaining()) {
                writeBatch();
            }
            if (payload > staging.capacity()) {
                // larger than staging: written straight from the mapping, on its own
                if (large == null) {
                    large = journal.duplicate();
                }
                out = large.limit(at + length).position(at + HEADER_LENGTH);
                outStart = at + HEADER_LENGTH;
                batchEvents = 1;
                batchBytes = payload;
                scanOffset += align(length);
                outTo = scanOffset;
                writeBatch();
                return;
            }
            journal.getBytes(at + HEADER_LENGTH, staging, staging.position(), payload);
            staging.position(staging.position() + payload);
            batchEvents++;
            batchBytes += payload;
        }
        scanOffset += align(length);
    }

    /**
     * Rolls the log file between two events: what was gathered is written and recorded first, and
     * the new file's empty size is recorded right after.
     */
    private void roll() throws IOException {
        writeBatch();
        sink.roll();
        CrashPoint.reached(CrashPoint.AFTER_ROLL_MOVE);
        log.rolled(drainTerm, drainOffset);
    }

    /** Writes the batch (resuming after a partial or failed write), then records the drain position. */
    private void writeBatch() throws IOException {
        if (out == null) {
            if (scanOffset == drainOffset) {
                return;
            }
            if (staging.position() == 0) {
                log.record(drainTerm, scanOffset); // only padding or frames left out: nothing to write
                drainOffset = scanOffset;
                return;
            }
            out = staging.flip();
            outStart = 0;
            outTo = scanOffset;
        }
        log.write(out, outStart, drainTerm, drainOffset, outTo);
        out = null;
        staging.clear();
        counters.eventsWritten += batchEvents;
        counters.bytesWritten += batchBytes;
        batchEvents = 0;
        batchBytes = 0;
        drainOffset = outTo;
        if (engine.ioFailing) {
            engine.ioFailing = false;
            counters.failingSinceEpochMillis = 0;
            status.info("writing the log file works again");
        }
    }
}
