package io.github.lockfreelog.engine;

import static io.github.lockfreelog.term.JournalDescriptor.*;

import io.github.lockfreelog.diagnostics.AppenderStatistics;
import io.github.lockfreelog.diagnostics.DropReason;
import io.github.lockfreelog.diagnostics.PageFaults;
import io.github.lockfreelog.diagnostics.ProcStat;
import io.github.lockfreelog.diagnostics.StatusReporter;
import io.github.lockfreelog.drain.ActiveJournal;
import io.github.lockfreelog.drain.Drainer;
import io.github.lockfreelog.drain.JournalCounters;
import io.github.lockfreelog.files.Uninterruptible;
import io.github.lockfreelog.journal.JournalLock;
import io.github.lockfreelog.journal.JournalSlots;
import io.github.lockfreelog.journal.WriteLedger;
import io.github.lockfreelog.recovery.Recovery;
import io.github.lockfreelog.sink.FileLogSink;
import io.github.lockfreelog.sink.LogSink;
import io.github.lockfreelog.term.Journal;
import io.github.lockfreelog.term.TermAppender;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.UnaryOperator;

/**
 * The lock-free engine: callers {@link #append} encoded events into the mapped journal through a
 * {@link TermAppender} (one compare-and-set reserves their space); a {@link Drainer} thread moves
 * committed bytes to the log file. When the active buffer is full, a caller rotates to the next
 * one if the drainer has cleaned it, else follows the {@link Backpressure} policy.
 */
public final class JournalEngine {

    static final byte[] TRUNCATION_MARKER = (" [lockfreelog: event truncated]" + System.lineSeparator())
            .getBytes(StandardCharsets.US_ASCII);

    private static final int RUNNING = 1;
    private static final int STOPPING = 2;
    private static final int STOPPED = 3;

    private static final int SPIN_TRIES = 64;
    private static final int YIELD_TRIES = 128;
    private static final long MAX_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private final EngineConfig config;
    /** The journal callers write into; another one once the drainer replaced a journal gone from disk. */
    private volatile ActiveJournal active;
    /** The first slot and the slot count asked for: where a replacement journal is taken. */
    private final Path firstSlot;
    private final int slots;
    private final LogSink sink;
    private final StatusReporter status;
    private final JournalCounters counters = new JournalCounters();
    private final int bufferCount;
    private final int bufferSize;
    private final int maxEventSize;
    private final boolean dropWhenFull;
    private final long maxBlockNanos;
    /** Threads reading the mapping for statistics; {@link #close} waits for them. */
    private final AtomicInteger mappingReaders = new AtomicInteger();
    private final long[] processFaultsAtStart;
    private final Drainer drainer;
    private final Thread drainerThread;

    private volatile int state = RUNNING;
    /** Stop and the drainer's exit each set one of these and read the other, so one of them closes the journal. */
    private volatile boolean closeWhenDrainerExits;
    private volatile boolean drainerExited;
    private final AtomicBoolean closed = new AtomicBoolean();
    private volatile boolean mapped = true;
    /** Set by the drainer while the log file cannot be written. */
    public volatile boolean ioFailing;

    private JournalEngine(EngineConfig config, Path firstSlot, int slots, ActiveJournal journal, LogSink sink,
            StatusReporter status, Recovery.Result recovered) throws IOException {
        this.config = config;
        this.firstSlot = firstSlot;
        this.slots = slots;
        this.active = journal;
        this.sink = sink;
        this.status = status;
        this.bufferCount = config.bufferCount();
        this.bufferSize = config.bufferSize();
        this.maxEventSize = config.effectiveMaxEventSize();
        this.dropWhenFull = config.backpressure() == Backpressure.DROP;
        this.maxBlockNanos = config.maxBlockNanos();
        counters.recoveredFrames = recovered.recoveredFrames();
        counters.recoveredBytes = recovered.recoveredBytes();
        counters.skippedFrames = recovered.skippedFrames();
        this.processFaultsAtStart = ProcStat.processFaults();
        this.drainer = new Drainer(this, journal, sink, counters, status, config);
        this.drainerThread = new Thread(drainer, "lockfreelog-drainer-" + config.name());
        drainerThread.setDaemon(true);
    }

    /**
     * Recovers what a previous process left in the journal, creates a fresh journal, and starts
     * the drainer.
     *
     * @param sinkDecorator wraps the log file sink (tests use it to slow down or fail writes)
     */
    public static JournalEngine start(EngineConfig config, StatusReporter status, UnaryOperator<LogSink> sinkDecorator)
            throws IOException {
        return start(config, status, () -> sinkDecorator.apply(new FileLogSink(config.logFile(), status)));
    }

    /**
     * Takes the journal (with several {@link EngineConfig#journalSlots}, the first free slot), recovers
     * into the sink what a previous process left in it (and in free slots that processes which died
     * left behind), creates a fresh journal, and starts the drainer. An interrupt of the calling thread does not make it fail: the JDK
     * closes a channel that an interrupted thread uses, so the interrupt is held back until start
     * returns, and a start that one interrupts anyway is begun again (recovery records its
     * progress in the old journal, so it never writes an event twice).
     */
    public static JournalEngine start(EngineConfig config, StatusReporter status, LogSink.Factory sinkFactory)
            throws IOException {
        return Uninterruptible.call(() -> startOnce(config, status, sinkFactory));
    }

    private static JournalEngine startOnce(EngineConfig requested, StatusReporter status, LogSink.Factory sinkFactory)
            throws IOException {
        JournalSlots.Taken taken = JournalSlots.take(requested.journalFile(), requested.journalSlots(), status);
        EngineConfig config = requested.withJournal(taken.journal());
        // Locks on the journal slot, taken once here at start and held for the engine's life
        // (released in close()); append never touches them.
        JournalLock lock = taken.lock();
        int entry = WriteLedger.entryOf(taken.slot(), taken.journal());
        LogSink sink = null;
        Journal journal = null;
        WriteLedger ledger = null;
        try {
            ledger = openLedger(config.logFile(), status);
            sink = sinkFactory.open();
            Recovery.Result recovered = Recovery.recover(lock, sink, ledger == null ? null : ledger.entry(entry), status);
            if (requested.journalSlots() > 1) {
                recovered = recovered.plus(Recovery.recoverLeftovers(requested.journalFile(),
                        requested.journalSlots(), config.journalFile(), sink, ledger, status));
            }
            journal = Journal.create(config.journalFile(), lock.journalChannel(), config.bufferCount(), config.bufferSize());
            JournalEngine engine = new JournalEngine(config, requested.journalFile(), requested.journalSlots(),
                    new ActiveJournal(journal, lock, ledger, entry), sink, status, recovered);
            engine.drainerThread.start();
            return engine;
        } catch (IOException | RuntimeException | Error e) {
            if (journal != null) {
                journal.close();
            }
            if (sink != null) {
                sink.close();
            }
            if (ledger != null) {
                ledger.close();
            }
            lock.close();
            throw e;
        }
    }

    /** The log file's write ledger; without one (it cannot be made) recovery searches as before, and a WARN says so. */
    private static WriteLedger openLedger(Path logFile, StatusReporter status) {
        try {
            return WriteLedger.open(logFile);
        } catch (IOException | RuntimeException e) {
            status.warn("the write ledger " + WriteLedger.fileOf(logFile) + " could not be opened (" + e + "); a write"
                    + " that a crash cuts off is searched for in the log without regard to other instances' writes", null);
            return null;
        }
    }

    /**
     * Builds a journal in place of {@code gone}, whose file is gone from disk (its folder was
     * deleted, or the name now stands for another file), and makes it the one callers write into.
     * The drainer calls this, then retires {@code gone} and drains what it still holds. The new
     * journal takes a free slot as at start (most often the same name).
     */
    public ActiveJournal replaceJournal(ActiveJournal gone) throws IOException {
        gone.lock.releaseLockFile(); // its file is gone too, or is the slot's to take again
        // File locks of the new slot, taken here by the drainer (as at start), held until the engine
        // closes; callers never take or wait for them.
        JournalSlots.Taken taken = JournalSlots.take(firstSlot, slots, status);
        WriteLedger ledger = openLedger(config.logFile(), status); // the old one went with its folder, most likely
        int entry = WriteLedger.entryOf(taken.slot(), taken.journal());
        try {
            // the slot taken may hold what a killed instance left: recovered before it is made anew,
            // as at start (the drainer, which calls this, owns the sink)
            Recovery.Result recovered = Recovery.recover(taken.lock(), sink, ledger == null ? null : ledger.entry(entry),
                    status);
            counters.recoveredFrames += recovered.recoveredFrames();
            counters.recoveredBytes += recovered.recoveredBytes();
            counters.skippedFrames += recovered.skippedFrames();
            Journal journal = Journal.create(taken.journal(), taken.lock().journalChannel(), bufferCount, bufferSize);
            ActiveJournal next = new ActiveJournal(journal, taken.lock(), ledger, entry);
            active = next;
            return next;
        } catch (IOException | RuntimeException | Error e) {
            if (ledger != null) {
                ledger.close();
            }
            taken.lock().close();
            throw e;
        }
    }

    /**
     * Whether no caller and no statistics reader can still touch a journal that was replaced before
     * this call: each of them counted itself in before it read {@link #active}.
     */
    public boolean nobodyInside() {
        return mappingReaders.get() == 0 && counters.inside() == 0;
    }

    // ---- the caller's path ------------------------------------------------------------------

    /**
     * Appends one encoded event. Never throws, never blocks longer than {@code maxBlockTime}, and
     * counts the event as written later or as dropped now. Allocates nothing.
     *
     * @param payload the encoded event
     * @param mayDrop whether the {@code DROP} policy applies to this event (else it blocks)
     * @return whether the event went into the journal (it reaches the log file); {@code false}
     *         when it was dropped (and counted so)
     */
    public boolean append(byte[] payload, boolean mayDrop) {
        return append(payload, payload.length, mayDrop);
    }

    /**
     * Appends the encoded event held in {@code payload[0..length)}; see {@link #append(byte[], boolean)}.
     *
     * <p>From the claim of a frame to its commit, a {@code finally} makes sure that the frame is
     * settled (committed as padding) and the event counted, whatever {@code Error} arrives
     * (a second stack overflow, a fault in mapped memory delivered at a safepoint): a frame left
     * claimed would otherwise hold the drainer until the unblock timeout.
     */
    public boolean append(byte[] payload, int length, boolean mayDrop) {
        final JournalCounters counters = this.counters;
        counters.appended.increment();
        ActiveJournal active = null;
        int pendingAt = -1; // a reservation this call has not settled yet
        int pendingTerm = 0;
        int reserved = 0;
        int frameLength = 0;
        boolean counted = false;
        try {
            if (state != RUNNING) {
                counters.drop(DropReason.STOPPED);
                counted = true;
                return false;
            }
            active = this.active; // read after counting in: see nobodyInside()
            final boolean truncate = length > maxEventSize;
            final int kept = truncate ? utf8Boundary(payload, maxEventSize - TRUNCATION_MARKER.length) : length;
            frameLength = HEADER_LENGTH + kept + (truncate ? TRUNCATION_MARKER.length : 0);
            final int aligned = align(frameLength);
            long waitStart = NOT_WAITING;
            for (;;) {
                final Journal journal = active.journal;
                final TermAppender appender = active.appender;
                final long termCount = journal.activeTermCountAcquire();
                final long reservation = appender.reserve(termCount, aligned);
                if (reservation != TermAppender.FULL) {
                    pendingAt = TermAppender.position(reservation);
                    pendingTerm = TermAppender.termIdOf(reservation);
                    if ((reservation & TermAppender.PAD_TO_END) != 0) {
                        reserved = appender.restOf(reservation);
                        TermAppender.writePadding(journal, pendingAt, reserved, pendingTerm);
                        pendingAt = -1;
                    } else {
                        reserved = aligned;
                        if (!TermAppender.claim(journal, reservation, frameLength)) {
                            pendingAt = -1;
                            continue; // the drainer padded over this reservation while we stalled: reserve again
                        }
                        final int outcome = TermAppender.copyAndCommit(journal, pendingAt, frameLength, payload, kept,
                                truncate ? TRUNCATION_MARKER : null);
                        pendingAt = -1;
                        if (outcome == TermAppender.ABANDONED) {
                            continue; // we stalled so long that the drainer left our frame out: write the event again
                        }
                        // decided before any call, which an Error could strike: a committed event is the
                        // drainer's to count, a failed copy the finally's (as a drop, reason io)
                        counted = outcome == TermAppender.COMMITTED;
                        if (counted && truncate) {
                            counters.truncated.increment();
                        }
                        if (waitStart != NOT_WAITING) {
                            counters.recordWait(System.nanoTime() - waitStart);
                        }
                        return counted;
                    }
                }
                waitStart = awaitNextBuffer(active, termCount, mayDrop, waitStart);
                if (waitStart == DROPPED) {
                    counted = true;
                    return false;
                }
                if (active.isRetired()) {
                    active = this.active; // the drainer replaced the journal: go on in the new one
                }
            }
        } catch (StackOverflowError e) {
            throw e; // the application's own recursion: its error, not the engine's (settled and counted below)
        } catch (Throwable e) {
            // A fault in mapped memory is delivered as an InternalError at a later safepoint, anywhere
            // on this path; no Error of the engine reaches the application: the event is counted
            // below, as dropped with reason io unless its frame was committed before the fault.
            return false;
        } finally {
            // Only an Error gets here with work left. It may strike again at any call made here (a
            // stack overflow does, from this frame), so plain stores, which call nothing, come first.
            if (pendingAt >= 0) {
                active.orphans[(pendingAt >>> 3) & (ActiveJournal.ORPHAN_SLOTS - 1)] = ((long) pendingTerm << 32) | pendingAt;
                active.orphansLeft = true; // before the frame can change: a drainer that sees it settled sees this too
                try {
                    boolean written = TermAppender.settle(active.journal, pendingAt, pendingTerm, reserved, frameLength);
                    // the drainer may have taken the hint (and counted the event) meanwhile
                    counted |= written | !active.takeOrphan(pendingAt, pendingTerm);
                } catch (Throwable again) {
                    counted = true; // the drainer settles it from the hint, and counts it
                }
            }
            boolean dropCounted = counted;
            try {
                if (!dropCounted) {
                    counters.drop(DropReason.IO);
                    dropCounted = true;
                }
                counters.exited.increment();
            } catch (Throwable again) {
                if (!dropCounted) {
                    counters.lateIoDrops++;
                }
                counters.lateExits++;
            }
        }
    }

    private static final long NOT_WAITING = Long.MIN_VALUE;
    private static final long DROPPED = Long.MAX_VALUE;

    /**
     * The slow path, taken when the active buffer is full: rotates to the next buffer if it is
     * clean, else applies the backpressure policy. It does not reserve while it waits.
     *
     * @return the time this append started waiting ({@link #NOT_WAITING} if it has not), or
     *         {@link #DROPPED} once the event was dropped and counted
     */
    private long awaitNextBuffer(ActiveJournal active, long termCount, boolean mayDrop, long waitStart) {
        final TermAppender appender = active.appender;
        boolean interrupted = false;
        try {
            for (int tries = 0;; tries++) {
                int rotation = appender.tryRotate(termCount);
                if (rotation == TermAppender.ROTATED) {
                    counters.swaps.increment();
                    LockSupport.unpark(drainerThread);
                }
                if (rotation != TermAppender.NOT_READY || (active.isRetired() && this.active != active)) {
                    return waitStart; // a buffer is active again, or another journal is: reserve anew
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

    /** The largest cut point at or below {@code limit} that does not split a UTF-8 sequence. */
    static int utf8Boundary(byte[] bytes, int limit) {
        int cut = limit;
        while (cut > 0 && (bytes[cut] & 0xC0) == 0x80) {
            cut--;
        }
        return cut;
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

    public boolean stopGaveUp() {
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
            sink.close(deadline - System.nanoTime());
        } catch (IOException e) {
            status.warn("closing log file " + config.logFile() + " failed", e);
        }
        if (!callersLeft) {
            // a caller may still touch the mapping: it stays mapped, and the journal stays locked
            status.warn("stop timed out after " + TimeUnit.NANOSECONDS.toMillis(config.stopTimeoutNanos())
                    + " ms with callers still inside append: the journal " + active.journal.path()
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
                    + " ms before everything reached the log file: the journal " + active.journal.path()
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
    public void drainerExited() {
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
        boolean interrupted = false;
        try {
            for (int tries = 0; counters.inside() != 0; tries++) {
                if (System.nanoTime() - deadline > 0) {
                    return false;
                }
                interrupted |= backOff(tries, deadline - System.nanoTime());
            }
            return true;
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt(); // the interrupt belongs to the thread calling stop
            }
        }
    }

    private void close(boolean drained) {
        mapped = false;
        while (mappingReaders.get() != 0) {
            Thread.onSpinWait();
        }
        ActiveJournal current = active;
        drainer.closeReplaced(current);
        Path path = current.journal.path();
        try {
            current.close(drained);
            if (!drained) {
                status.warn("the journal " + path + " was not fully drained at stop; the next start recovers it", null);
            }
        } catch (IOException e) {
            status.warn("closing journal " + path + " failed", e);
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
            long n = c.drops[reason.ordinal()].sum() + (reason == DropReason.IO ? c.lateIoDrops + c.orphanDrops : 0);
            drops.put(reason.id(), n);
            dropped += n;
        }
        long appended = c.appended.sum();
        int activeBuffer = -1;
        long fill = 0;
        long lag = 0;
        mappingReaders.incrementAndGet();
        ActiveJournal current = active; // read after counting in: see nobodyInside()
        try {
            if (mapped) {
                Journal journal = current.journal;
                long term = journal.activeTermCountAcquire();
                activeBuffer = (int) (term % bufferCount);
                fill = tailOffset(journal.rawTailVolatile(activeBuffer));
                lag = drainer.lag(current, term, fill);
            }
        } catch (Throwable e) {
            activeBuffer = -1; // a fault in mapped memory: the drainer reports it
        } finally {
            mappingReaders.decrementAndGet();
        }
        Path journalPath = current.journal.path() != null ? current.journal.path() : config.journalFile();
        return new AppenderStatistics(config.name(), config.logFile().toString(), journalPath.toString(),
                state == RUNNING, bufferSize, bufferCount, activeBuffer, fill, appended, written, bytes,
                appended - written - dropped, dropped, drops, c.truncated.sum(), c.swaps.sum(), c.waits.sum(),
                c.waitTotalNanos.sum(), c.waitMaxNanos.get(), c.recoveredFrames, c.skippedFrames + c.unblocked,
                lag, c.drainerErrors, c.lastError, c.failingSinceEpochMillis, pageFaults());
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

    /**
     * An engine over {@code journal} whose drainer has no thread: the model-checking test calls
     * the drainer's steps ({@link #drainer()}) itself. Nothing is recovered or locked; it is not
     * to be stopped.
     */
    public static JournalEngine withoutDrainerThread(EngineConfig config, Journal journal, LogSink sink, StatusReporter status)
            throws IOException {
        return new JournalEngine(config, config.journalFile(), 1, new ActiveJournal(journal, null, null, 0), sink,
                status, Recovery.Result.NONE);
    }

    /** For the model-checking test, which runs the drainer's steps itself. */
    public Drainer drainer() {
        return drainer;
    }

    /** For tests that retire the journal in use. */
    ActiveJournal activeJournal() {
        return active;
    }

    /** For tests that play a stalled writer. */
    public Journal journal() {
        return active.journal;
    }

    /** For tests that play a stalled writer. */
    TermAppender appender() {
        return active.appender;
    }
}
