package io.github.lockfreelog.journal;

import static io.github.lockfreelog.journal.JournalDescriptor.*;

import io.github.lockfreelog.logback.AppenderStatistics;
import io.github.lockfreelog.logback.PageFaults;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;
import java.util.function.UnaryOperator;

/**
 * The lock-free engine: callers {@link #append} encoded events into the mapped journal with one
 * atomic reservation; a {@link Drainer} thread moves committed bytes to the log file.
 *
 * <h2>Reservation</h2>
 * A caller reads the active term count (acquire), adds the aligned frame length to that
 * buffer's raw tail with one {@code getAndAdd}, and owns {@code [offset, offset + aligned)} if it
 * fits. The one caller whose reservation crosses the end of the buffer writes a padding frame
 * up to the end. Every caller that finds the buffer full tries to rotate: when the next buffer
 * has been cleaned by the drainer it sets that buffer's tail to {@code (nextTermId, 0)} and
 * advances the active term count with compare-and-set (either step may be done by any of the
 * racing callers; each is done once). When the next buffer is not clean yet the caller follows
 * the {@link Backpressure} policy.
 */
public final class JournalEngine {

    /** Everything the engine needs to run, already validated by the appender. */
    public record Config(String name, Path logFile, Path journalFile, int bufferCount, int bufferSize,
            int maxEventSize, Backpressure backpressure, long maxBlockNanos, long flushIntervalNanos,
            long unblockTimeoutNanos, long stopTimeoutNanos) {
    }

    static final byte[] TRUNCATION_MARKER = (" [lockfreelog: event truncated]" + System.lineSeparator())
            .getBytes(StandardCharsets.US_ASCII);

    private static final int RUNNING = 1;
    private static final int STOPPING = 2;
    private static final int STOPPED = 3;

    private static final int SPIN_TRIES = 64;
    private static final int YIELD_TRIES = 128;
    private static final long MAX_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private final Config config;
    private final Journal journal;
    private final LogSink sink;
    private final StatusReporter status;
    private final JournalCounters counters = new JournalCounters();
    private final int bufferCount;
    private final int bufferSize;
    private final int maxEventSize;
    private final boolean dropWhenFull;
    private final long maxBlockNanos;
    /** Per buffer: the term count it is clean for and may host next (written by the drainer). */
    private final AtomicLongArray readyTerm;
    /** Threads reading the mapping for statistics; {@link #close} waits for them. */
    private final AtomicInteger mappingReaders = new AtomicInteger();
    private final long[] processFaultsAtStart;
    private final Drainer drainer;
    private final Thread drainerThread;
    /** Held from start until the journal is closed: no other appender or process may use the journal meanwhile. */
    private final JournalLock lock;

    private volatile int state = RUNNING;
    /** Stop and the drainer's exit each set one of these and read the other, so one of them closes the journal. */
    private volatile boolean closeWhenDrainerExits;
    private volatile boolean drainerExited;
    private final java.util.concurrent.atomic.AtomicBoolean closed = new java.util.concurrent.atomic.AtomicBoolean();
    private volatile boolean mapped = true;
    /** Set by the drainer while the log file cannot be written. */
    volatile boolean ioFailing;

    private JournalEngine(Config config, Journal journal, LogSink sink, StatusReporter status,
            Recovery.Result recovered, long logSize, JournalLock lock) {
        this.lock = lock;
        this.config = config;
        this.journal = journal;
        this.sink = sink;
        this.status = status;
        this.bufferCount = config.bufferCount();
        this.bufferSize = config.bufferSize();
        this.maxEventSize = config.maxEventSize();
        this.dropWhenFull = config.backpressure() == Backpressure.DROP;
        this.maxBlockNanos = config.maxBlockNanos();
        this.readyTerm = new AtomicLongArray(bufferCount);
        for (int i = 0; i < bufferCount; i++) {
            readyTerm.set(i, i);
        }
        counters.recoveredFrames = recovered.recoveredFrames();
        counters.recoveredBytes = recovered.recoveredBytes();
        counters.skippedFrames = recovered.skippedFrames();
        this.processFaultsAtStart = ProcStat.processFaults();
        // the first drain record: nothing drained yet, and the log file is this long
        journal.writeDrainRecord(0, 0, logSize, 1);
        this.drainer = new Drainer(this, journal, sink, counters, status, config, logSize, 2);
        this.drainerThread = new Thread(drainer, "lockfreelog-drainer-" + config.name());
        drainerThread.setDaemon(true);
    }

    /**
     * Recovers what a previous process left in the journal, creates a fresh journal, and starts
     * the drainer.
     *
     * @param sinkDecorator wraps the log file sink (tests use it to slow down or fail writes)
     */
    public static JournalEngine start(Config config, StatusReporter status, UnaryOperator<LogSink> sinkDecorator)
            throws IOException {
        return start(config, status, () -> sinkDecorator.apply(new FileLogSink(config.logFile())));
    }

    /**
     * Recovers what a previous process left in the journal into the sink, creates a fresh journal,
     * and starts the drainer.
     */
    public static JournalEngine start(Config config, StatusReporter status, LogSink.Factory sinkFactory)
            throws IOException {
        JournalLock lock = JournalLock.acquire(config.journalFile());
        LogSink sink = null;
        Journal journal = null;
        try {
            sink = sinkFactory.open();
            Recovery.Result recovered = Recovery.recover(config.journalFile(), sink, status);
            journal = Journal.create(config.journalFile(), config.bufferCount(), config.bufferSize());
            JournalEngine engine = new JournalEngine(config, journal, sink, status, recovered, sink.size(), lock);
            engine.drainerThread.start();
            return engine;
        } catch (IOException | RuntimeException | Error e) {
            if (journal != null) {
                journal.close();
            }
            if (sink != null) {
                sink.close();
            }
            lock.close();
            throw e;
        }
    }

    // ---- the caller's path ------------------------------------------------------------------

    /**
     * Appends one encoded event. Never throws, never blocks longer than {@code maxBlockTime}, and
     * counts the event as written later or as dropped now. Allocates nothing.
     *
     * @param payload the encoded event
     * @param mayDrop whether the {@code DROP} policy applies to this event (else it blocks)
     */
    public void append(byte[] payload, boolean mayDrop) {
        append(payload, payload.length, mayDrop);
    }

    /**
     * Appends the encoded event held in {@code payload[0..length)}; see {@link #append(byte[], boolean)}.
     */
    public void append(byte[] payload, int length, boolean mayDrop) {
        final JournalCounters counters = this.counters;
        counters.appended.increment();
        try {
            if (state != RUNNING) {
                counters.drop(DropReason.STOPPED);
                return;
            }
            final Journal journal = this.journal;
            final int bufferSize = this.bufferSize;
            final int bufferCount = this.bufferCount;
            final boolean truncate = length > maxEventSize;
            final int kept = truncate ? utf8Boundary(payload, maxEventSize - TRUNCATION_MARKER.length) : length;
            final int frameLength = HEADER_LENGTH + kept + (truncate ? TRUNCATION_MARKER.length : 0);
            final int aligned = align(frameLength);
            long waitStart = NOT_WAITING;
            for (;;) {
                final long termCount = journal.activeTermCountAcquire();
                final int index = (int) (termCount % bufferCount);
                final long rawTail = journal.getAndAddRawTail(index, aligned);
                final long offset = tailOffset(rawTail);
                if (offset + aligned <= bufferSize) {
                    final int at = journal.bufferBase(index) + (int) offset;
                    if (!journal.casLong(at, emptyHeader(termId(rawTail)), header(-frameLength, TYPE_DATA))) {
                        continue; // the drainer padded over this reservation while we stalled: reserve again
                    }
                    final int outcome = copyAndCommit(journal, at, frameLength, payload, kept, truncate);
                    if (outcome == ABANDONED) {
                        continue; // we stalled so long that the drainer left our frame out: write the event again
                    }
                    if (outcome == FAILED) {
                        counters.drop(DropReason.IO);
                        return;
                    }
                    if (truncate) {
                        counters.truncated.increment();
                    }
                    if (waitStart != NOT_WAITING) {
                        counters.recordWait(System.nanoTime() - waitStart);
                    }
                    return;
                }
                if (offset < bufferSize) {
                    writePadding(journal, journal.bufferBase(index) + (int) offset, (int) (bufferSize - offset),
                            termId(rawTail));
                }
                waitStart = awaitNextBuffer(termCount, mayDrop, waitStart);
                if (waitStart == DROPPED) {
                    return;
                }
            }
        } finally {
            counters.exited.increment();
        }
    }

    private static final long NOT_WAITING = Long.MIN_VALUE;
    private static final long DROPPED = Long.MAX_VALUE;

    /**
     * The slow path, taken when the active buffer is full: rotates to the next buffer if it is
     * clean, else applies the backpressure policy. It does not reserve again while it waits, so
     * a caller adds at most one reservation past the end of each term.
     *
     * @return the time this append started waiting ({@link #NOT_WAITING} if it has not), or
     *         {@link #DROPPED} once the event was dropped and counted
     */
    private long awaitNextBuffer(long termCount, boolean mayDrop, long waitStart) {
        boolean interrupted = false;
        try {
            for (int tries = 0;; tries++) {
                if (journal.activeTermCountAcquire() != termCount || tryRotate(termCount)) {
                    return waitStart; // a buffer is active again: reserve anew
                }
                if (state != RUNNING) {
                    counters.drop(DropReason.STOPPED);
                    return DROPPED;
                }
                if (dropWhenFull && mayDrop) {
                    counters.drop(ioFailing ? DropReason.IO : DropReason.BUFFER_FULL);
                    return DROPPED;
                }
                final long now = System.nanoTime();
                if (waitStart == NOT_WAITING) {
                    waitStart = now;
                    LockSupport.unpark(drainerThread);
                } else if (now - waitStart >= maxBlockNanos) {
                    counters.recordWait(now - waitStart);
                    counters.drop(ioFailing ? DropReason.IO : DropReason.TIMEOUT);
                    return DROPPED;
                }
                interrupted |= backOff(tries, waitStart + maxBlockNanos - now);
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Copies the payload after the claimed header and publishes the frame. If the copy fails (a
     * fault in mapped memory surfaces as {@link InternalError}; any other {@code Throwable}, such
     * as a stack overflow, is treated alike and not passed to the caller) the frame is committed
     * as padding so that the drainer is not held up, and {@code false} is returned.
     */
    private static int copyAndCommit(Journal journal, int at, int frameLength, byte[] payload, int kept,
            boolean truncate) {
        try {
            journal.putBytes(at + HEADER_LENGTH, payload, 0, kept);
            if (truncate) {
                journal.putBytes(at + HEADER_LENGTH + kept, TRUNCATION_MARKER, 0, TRUNCATION_MARKER.length);
            }
        } catch (Throwable e) {
            commit(journal, at, frameLength, TYPE_DATA, TYPE_PADDING); // committed as padding, or acknowledged
            return FAILED;
        }
        return commit(journal, at, frameLength, TYPE_DATA, TYPE_DATA) ? COMMITTED : ABANDONED;
    }

    private static final int COMMITTED = 0;
    private static final int ABANDONED = 1;
    private static final int FAILED = 2;

    /**
     * Commits a claimed frame: {@code (-length, claimedType)} becomes {@code (+length, committedType)}.
     * If the drainer abandoned the frame meanwhile, marks it acknowledged instead (so that its
     * buffer may be reused) and returns {@code false}: the caller then writes its event again.
     */
    static boolean commit(Journal journal, int at, int frameLength, int claimedType, int committedType) {
        if (journal.casLong(at, header(-frameLength, claimedType), header(frameLength, committedType))) {
            return true;
        }
        journal.casLong(at, header(-frameLength, TYPE_ABANDONED), header(-frameLength, TYPE_ACKNOWLEDGED));
        return false;
    }

    /** The largest cut point at or below {@code limit} that does not split a UTF-8 sequence. */
    static int utf8Boundary(byte[] bytes, int limit) {
        int cut = limit;
        while (cut > 0 && (bytes[cut] & 0xC0) == 0x80) {
            cut--;
        }
        return cut;
    }

    /** Claims the free slot at {@code at} of term {@code termId} as a padding frame of {@code length} bytes. */
    static boolean writePadding(Journal journal, int at, int length, int termId) {
        if (journal.casLong(at, emptyHeader(termId), header(-length, TYPE_PADDING))) {
            commit(journal, at, length, TYPE_PADDING, TYPE_PADDING);
            return true;
        }
        return false;
    }

    /**
     * Makes term {@code termCount + 1} active if its buffer is clean. The next buffer's tail is set
     * to {@code (nextTermId, 0)} before the active term count moves, and the compare-and-set on the
     * tail is retried while it still shows the buffer's previous term: a stale writer may add to
     * that old tail meanwhile, and the active term must never move to a buffer whose tail was
     * not re-initialised.
     *
     * @return {@code false} when the next buffer is not clean yet (or our view is stale and the
     *         active term has not moved): the caller applies backpressure
     */
    private boolean tryRotate(long termCount) {
        final long next = termCount + 1;
        final int nextIndex = (int) (next % bufferCount);
        if (readyTerm.get(nextIndex) != next) {
            return false;
        }
        for (long rawTail = journal.rawTailVolatile(nextIndex); termId(rawTail) != (int) next;
                rawTail = journal.rawTailVolatile(nextIndex)) {
            if (termId(rawTail) != (int) (next - bufferCount)) {
                return journal.activeTermCountAcquire() != termCount; // stale view: re-read if it moved
            }
            if (journal.casRawTail(nextIndex, rawTail, packTail((int) next, 0))) {
                break;
            }
        }
        if (journal.casActiveTermCount(termCount, next)) {
            counters.swaps.increment();
            LockSupport.unpark(drainerThread);
        }
        return true;
    }

    /** Spins, then yields, then parks for growing periods; returns whether an interrupt was swallowed. */
    private static boolean backOff(int tries, long nanosLeft) {
        if (tries < SPIN_TRIES) {
            Thread.onSpinWait();
        } else if (tries < YIELD_TRIES) {
            Thread.yield();
        } else {
            long park = Math.min(MAX_PARK_NANOS, 10_000L << Math.min(tries - YIELD_TRIES, 7));
            LockSupport.parkNanos(Math.max(1, Math.min(park, nanosLeft)));
            // park returns at once while the interrupt flag is set: clear it here, restore it on return
            return Thread.interrupted();
        }
        return false;
    }

    /** Counts an event that arrived while the appender was not running. */
    public void countStopped() {
        counters.appended.increment();
        counters.drop(DropReason.STOPPED);
        counters.exited.increment();
    }

    // ---- drainer support --------------------------------------------------------------------

    void markClean(int index, long nextTerm) {
        readyTerm.set(index, nextTerm);
    }

    boolean stopGaveUp() {
        return state == STOPPED;
    }

    // ---- stop -------------------------------------------------------------------------------

    /**
     * Stops taking events, waits for callers inside {@code append} to leave, drains everything
     * committed to the log file, then unmaps the journal and leaves it empty. Bounded by
     * {@code stopTimeout}; if a caller or the drainer is still busy then, the journal is left
     * mapped and on disk (the next start recovers what it holds) and a warning says so.
     */
    public void stop() {
        if (state != RUNNING) {
            return;
        }
        state = STOPPING;
        long deadline = System.nanoTime() + config.stopTimeoutNanos();
        boolean callersLeft = awaitCallers(deadline);
        drainer.requestStop();
        LockSupport.unpark(drainerThread);
        try {
            drainerThread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        boolean drained = !drainerThread.isAlive() && drainer.finishedCleanly();
        state = STOPPED;
        try {
            sink.close();
        } catch (IOException e) {
            status.warn("closing log file " + config.logFile() + " failed", e);
        }
        if (!callersLeft) {
            // a caller may still touch the mapping: it stays mapped, and the journal stays locked
            status.warn("stop timed out after " + TimeUnit.NANOSECONDS.toMillis(config.stopTimeoutNanos())
                    + " ms with callers still inside append: the journal " + config.journalFile()
                    + " stays mapped; the next start of this process cannot use it, a restart recovers it", null);
            return;
        }
        if (drainerThread.isAlive()) {
            // it may be waiting to retry a failed write: woken now, it finds the log closed and exits
            LockSupport.unpark(drainerThread);
            try {
                drainerThread.join(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (drainerThread.isAlive()) {
            status.warn("stop timed out after " + TimeUnit.NANOSECONDS.toMillis(config.stopTimeoutNanos())
                    + " ms before everything reached the log file: the journal " + config.journalFile()
                    + " keeps it, and the next start recovers it", null);
            closeWhenDrainerExits = true;
            if (drainerExited) {
                closeOnce(false);
            }
            return;
        }
        closeOnce(drained);
    }

    /** Called by the drainer as it exits; closes the journal if a timed-out stop left that to it. */
    void drainerExited() {
        drainerExited = true;
        if (closeWhenDrainerExits) {
            closeOnce(false);
        }
    }

    private void closeOnce(boolean drained) {
        if (closed.compareAndSet(false, true)) {
            close(drained);
        }
    }

    private boolean awaitCallers(long deadline) {
        int tries = 0;
        while (counters.inside() != 0) {
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            backOff(tries++, deadline - System.nanoTime());
        }
        return true;
    }

    private void close(boolean drained) {
        mapped = false;
        while (mappingReaders.get() != 0) {
            Thread.onSpinWait();
        }
        try {
            if (drained) {
                journal.closeAndEmpty();
            } else {
                journal.close();
                status.warn("the journal " + config.journalFile() + " was not fully drained at stop;"
                        + " the next start recovers it", null);
            }
        } catch (IOException e) {
            status.warn("closing journal " + config.journalFile() + " failed", e);
        } finally {
            lock.close();
        }
    }

    // ---- statistics -------------------------------------------------------------------------

    public AppenderStatistics statistics() {
        JournalCounters c = counters;
        // written and dropped before appended, so that inFlight is never negative
        long written = c.eventsWritten;
        long bytes = c.bytesWritten;
        Map<String, Long> drops = new LinkedHashMap<>();
        long dropped = 0;
        for (DropReason reason : DropReason.values()) {
            long n = c.drops[reason.ordinal()].sum();
            drops.put(reason.id(), n);
            dropped += n;
        }
        long appended = c.appended.sum();
        int activeBuffer = -1;
        long fill = 0;
        long lag = 0;
        mappingReaders.incrementAndGet();
        try {
            if (mapped) {
                long active = journal.activeTermCountAcquire();
                activeBuffer = (int) (active % bufferCount);
                fill = Math.min(bufferSize, tailOffset(journal.rawTailVolatile(activeBuffer)));
                lag = Math.max(0, (active - drainer.drainTerm) * bufferSize + fill - drainer.drainOffset);
            }
        } finally {
            mappingReaders.decrementAndGet();
        }
        return new AppenderStatistics(config.name(), config.logFile().toString(), config.journalFile().toString(),
                state == RUNNING, bufferSize, bufferCount, activeBuffer, fill, appended, written, bytes,
                appended - written - dropped, dropped, drops, c.truncated.sum(), c.swaps.sum(), c.waits.sum(),
                c.waitTotalNanos.sum(), c.waitMaxNanos.get(), c.recoveredFrames,
                c.skippedFrames + c.unblocked, lag, c.drainerErrors, c.lastError, pageFaults());
    }

    private PageFaults pageFaults() {
        long[] now = ProcStat.processFaults();
        long[] drainerNow = drainer.threadFaults;
        long[] drainerStart = drainer.threadFaultsAtStart;
        if (now == null || processFaultsAtStart == null) {
            return PageFaults.UNAVAILABLE;
        }
        long dMinor = 0;
        long dMajor = 0;
        if (drainerNow != null && drainerStart != null) {
            dMinor = drainerNow[0] - drainerStart[0];
            dMajor = drainerNow[1] - drainerStart[1];
        }
        return new PageFaults(true, now[0] - processFaultsAtStart[0], now[1] - processFaultsAtStart[1], dMinor,
                dMajor);
    }

    /** For tests that play a stalled writer. */
    Journal journal() {
        return journal;
    }
}
