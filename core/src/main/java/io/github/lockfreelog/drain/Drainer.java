package io.github.lockfreelog.drain;

import io.github.lockfreelog.diagnostics.StatusReporter;
import io.github.lockfreelog.diagnostics.ThreadFaults;
import io.github.lockfreelog.sink.LogClosedException;
import io.github.lockfreelog.sink.LogSink;
import io.github.lockfreelog.term.TermUnblocker;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The one background thread of an appender. It writes the payloads of committed frames to the
 * log file (copied through a staging buffer, one write per megabyte) through a {@link DrainLog},
 * which records in the journal how far the log file reached; it then refills each drained buffer
 * with the free slots of the term it hosts next (which also pre-touches its pages for the next
 * writers) and marks it clean. While events arrive it passes over the active buffer every
 * millisecond; once passes find none it parks for twice as long each time, up to a flush
 * interval; a waiting caller unparks it, and so does a swap or a drop while it sleeps that long, or a
 * swap that leaves no clean buffer after the new active one. An interrupt of this thread means nothing to it: it is cleared and ignored.
 *
 * <p>Unfinished frames are waited for, in the active term as in a dirty one, and passed over by
 * the {@link TermUnblocker} once overdue, so one stalled writer can never stop the log.
 */
public final class Drainer implements Runnable {

    /** Delay before the next pass over the active term when the last one found events (docs/design-notes.md says why 1 ms). */
    private static final long BUSY_FLUSH_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    /** The first wait before the backlog is tried again after a failure; it doubles up to {@link #BACKLOG_RETRY_MAX_NANOS}. */
    static final long BACKLOG_RETRY_FIRST_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    static final long BACKLOG_RETRY_MAX_NANOS = TimeUnit.SECONDS.toNanos(2);

    private final EngineState state;
    private final Runnable onExit;
    private final DrainFailures failures;
    private final JournalWatch watch;
    private final TermDrain term;
    private final JournalCounters counters;
    private final long flushIntervalNanos;
    private final StatusReporter status;
    private final DrainOutput.Backlog backlog;
    /** Whether {@link #backlog} still holds something; only the drainer's thread reads and writes it. */
    private boolean backlogLeft;
    /** Failures of the backlog in a row; the first of an outage is reported, the rest are counted. */
    private int backlogFailures;
    /** When the backlog is tried again after a failure ({@link System#nanoTime()}). */
    private long backlogRetryAt;

    /** The journal being drained: the engine's, or a retired one drained to its end before {@link #next}. */
    private volatile ActiveJournal draining;
    /** The journal that replaced {@link #draining}, once it was found gone from disk; {@code null} otherwise. */
    private ActiveJournal next;

    private volatile boolean stopRequested;
    private volatile boolean finishedCleanly;
    private final ThreadFaults faults = new ThreadFaults();
    /** Delay before the next pass over the active term: short while events arrive, then growing. */
    private long flushDelayNanos = BUSY_FLUSH_NANOS;

    /**
     * A drainer of {@code state}'s journal into {@code sink}.
     *
     * @param flushIntervalNanos the longest the drainer parks while idle
     * @param unblockTimeoutNanos how long an unfinished frame is waited for before it is passed over
     * @param replacer builds a journal in place of one gone from disk
     * @param onExit run as the drainer's thread ends
     */
    public Drainer(EngineState state, LogSink sink, StatusReporter status, long flushIntervalNanos,
            long unblockTimeoutNanos, JournalReplacer replacer, Runnable onExit) throws IOException {
        this(state, DrainLog.FileOutput.factory(sink), status, flushIntervalNanos, unblockTimeoutNanos, replacer, onExit);
    }

    /**
     * A drainer of {@code state}'s journal into the outputs that {@code outputs} opens, one per journal
     * drained; see {@link #Drainer(EngineState, LogSink, StatusReporter, long, long, JournalReplacer, Runnable)}.
     */
    public Drainer(EngineState state, DrainOutput.Factory outputs, StatusReporter status, long flushIntervalNanos,
            long unblockTimeoutNanos, JournalReplacer replacer, Runnable onExit) throws IOException {
        this(state, outputs, DrainOutput.Backlog.NONE, status, flushIntervalNanos, unblockTimeoutNanos, replacer, onExit);
    }

    /**
     * A drainer that first sends out {@code backlog} (what must reach the sink before any event of the journal),
     * then drains as {@link #Drainer(EngineState, DrainOutput.Factory, StatusReporter, long, long, JournalReplacer, Runnable)}.
     */
    public Drainer(EngineState state, DrainOutput.Factory outputs, DrainOutput.Backlog backlog, StatusReporter status,
            long flushIntervalNanos, long unblockTimeoutNanos, JournalReplacer replacer, Runnable onExit)
            throws IOException {
        this.state = state;
        this.status = status;
        this.backlog = backlog;
        this.backlogLeft = backlog != DrainOutput.Backlog.NONE;
        this.counters = state.counters;
        this.onExit = onExit;
        this.failures = new DrainFailures(state, status, outputs.action());
        this.watch = new JournalWatch(state, replacer, failures, status);
        this.term = new TermDrain(outputs, status, failures, counters, unblockTimeoutNanos,
                outputs.batchBytes(state.active().journal.bufferSize()));
        this.flushIntervalNanos = flushIntervalNanos;
        drainFrom(state.active());
    }

    /** The output factory of a log file (or the console): writes through a {@link DrainLog}, rolls by the sink's policy. */
    public static DrainOutput.Factory fileOutputs(LogSink sink) {
        return DrainLog.FileOutput.factory(sink);
    }

    /** Starts draining {@code journal} from its first term. */
    private void drainFrom(ActiveJournal journal) throws IOException {
        this.draining = journal;
        term.drainFrom(journal);
    }

    /** The term being drained, as a term count. */
    public long currentTerm() {
        return term.currentTerm();
    }

    public void requestStop() {
        stopRequested = true;
    }

    public boolean finishedCleanly() {
        return finishedCleanly;
    }

    @Override
    public void run() {
        CURRENT.set(this);
        try {
            loop();
        } finally {
            CURRENT.remove();
            onExit.run();
        }
    }

    /** The drainer whose thread calls; {@code null} on any other thread. */
    private static final ThreadLocal<Drainer> CURRENT = new ThreadLocal<>();

    /**
     * For a sink that waits between deliveries (a Kafka sink's linger, so that a transaction carries more than a
     * millisecond's events): waits up to {@code nanos} as the drainer's idle park does, announced
     * ({@link EngineState#drainerSleeping}) so that a caller that swaps buffers or finds the journal full wakes it,
     * and not at all when a buffer was swapped since the term being drained began (a full buffer waits) or a stop was
     * asked. A wait the drainer does not announce would let callers drop events under {@code DROP} without waking it.
     * On any other thread, a plain park. Any unpark ends it.
     */
    public static void idle(long nanos) {
        Drainer drainer = CURRENT.get();
        if (drainer == null) {
            LockSupport.parkNanos(nanos);
        } else if (nanos > 0) {
            drainer.park(nanos);
        }
    }

    private void loop() {
        faults.start();
        long nextFlush = System.nanoTime() + flushIntervalNanos;
        for (;;) {
            try {
                Thread.interrupted(); // an interrupt must not close the log's channel or make parking spin
                faults.sample();
                checkJournal();
                if (backlogLeft) {
                    if (state.runState() == EngineState.RunState.STOPPED) {
                        return; // stop timed out with the backlog still there: the next start takes it up
                    }
                    workOnBacklog();
                    continue;
                }
                if (drainDirty()) {
                    continue;
                }
                if (stopRequested) {
                    term.drainTerm(true);
                    finishedCleanly = true;
                    return;
                }
                long now = System.nanoTime();
                if (now - nextFlush >= 0) {
                    nextFlush = now + nextFlushDelay();
                }
                if (draining.journal.activeTermCountAcquire() == term.currentTerm() && !stopRequested) {
                    long untilCheck = watch.nanosUntilCheck();
                    park(Math.max(1, Math.min(nextFlush - System.nanoTime(), untilCheck)));
                }
            } catch (Throwable e) { // an I/O error, a fault in mapped memory, even an OutOfMemoryError: report, retry
                failures.failed(e);
                if (state.runState() == EngineState.RunState.STOPPED || e instanceof LogClosedException) {
                    return; // stop timed out and closed the log file for good: the next start recovers the journal
                }
                LockSupport.parkNanos(this, DrainFailures.RETRY_NANOS);
            }
        }
    }

    /**
     * Parks for {@code nanos}. A park longer than a busy pass's is announced first ({@link EngineState#drainerSleeping}),
     * and the active term is looked at again after that (both volatile): a caller that swaps buffers either is seen
     * here, or sees the announcement and wakes this thread. Under load the passes are a millisecond apart and
     * nothing is announced, so callers read no line this thread keeps writing.
     */
    private void park(long nanos) {
        if (nanos <= BUSY_FLUSH_NANOS) {
            LockSupport.parkNanos(this, nanos);
            return;
        }
        state.drainerSleeping(true);
        try {
            if (draining.journal.activeTermCountVolatile() == term.currentTerm() && !stopRequested) {
                LockSupport.parkNanos(this, nanos);
            }
        } finally {
            state.drainerSleeping(false);
        }
    }

    /**
     * Sends the next part of the backlog, or waits for its next try after a failure (at most until the journal's
     * next check): while the sink fails, the journal's events wait, callers keep appending into it (its
     * backpressure policy applies once it is full), and one WARN says so, not one per try.
     */
    private void workOnBacklog() {
        long now = System.nanoTime();
        if (backlogFailures > 0 && backlogRetryAt - now > 0) {
            LockSupport.parkNanos(this, Math.max(1, Math.min(backlogRetryAt - now, watch.nanosUntilCheck())));
            return;
        }
        try {
            if (backlog.sendNext()) {
                backlogLeft = false;
                if (backlogFailures > 0) {
                    failures.backlogSent(backlogFailures);
                }
                backlogFailures = 0;
            }
        } catch (Throwable e) { // an I/O error of the sink, a fault in mapped memory: counted, tried again later
            failures.backlogFailed(e, backlogFailures == 0, draining.journal.path(), BACKLOG_RETRY_MAX_NANOS);
            backlogFailures++;
            backlogRetryAt = System.nanoTime() + backlogRetryNanos(backlogFailures);
        }
    }

    /** How long to wait after the {@code failures}-th failure in a row: doubling from 100 ms up to 2 s. */
    static long backlogRetryNanos(int failures) {
        return Math.min(BACKLOG_RETRY_MAX_NANOS, BACKLOG_RETRY_FIRST_NANOS << Math.min(failures - 1, 10));
    }

    /**
     * One step of the loop, less its timing: finishes a write that failed before, then drains the
     * oldest dirty term and cleans its buffer, if there is one (waiting for its unfinished frames).
     * Returns whether there was one: the loop then comes round at once. The model-checking test
     * calls this (and {@link #drainTerm(boolean)}) in place of the thread.
     */
    public boolean drainDirty() throws IOException {
        term.finishFailedWrite();
        if (term.currentTerm() < draining.journal.activeTermCountAcquire()) {
            term.drainTerm(true);
            return true;
        }
        if (next != null) {
            // a retired journal, sealed: its active term is its last; drain it to its end, then move on
            term.drainTerm(true);
            if (term.drainedToEnd()) {
                watch.retired(draining);
                drainFrom(next);
                next = null;
            }
            return true;
        }
        return false;
    }

    /** Has the journal checked, a few times a second; takes the replacement of one found gone from disk. */
    private void checkJournal() {
        ActiveJournal replacement = watch.check(draining, term.currentTerm(), next == null && !stopRequested);
        if (replacement != null) {
            next = replacement;
        }
    }

    /** Unmaps the journals retired and drained so far; the engine calls this once no caller can touch them. */
    public void closeRetired() {
        watch.closeRetired();
    }

    /**
     * At the engine's close: unmaps every replaced journal, also one not drained to its end (a stop
     * that timed out; its file is gone from disk, so nothing could recover it anyway), leaving
     * {@code active}, the engine's, to the engine.
     */
    public void closeReplaced(ActiveJournal active) {
        watch.closeRetired();
        if (draining != active) {
            JournalWatch.close(draining);
        }
    }

    /** How many bytes the drainer is behind in {@code current}, whose term {@code term} is {@code fill} full. */
    public long lag(ActiveJournal current, long term, long fill) {
        if (draining != current) {
            return 0; // still draining a journal that was replaced: not measured
        }
        return this.term.lag(term, fill);
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
        final long before = counters.eventsWritten();
        term.drainTerm(false);
        flushDelayNanos = counters.eventsWritten() != before ? Math.min(BUSY_FLUSH_NANOS, flushIntervalNanos)
                : Math.min(flushDelayNanos * 2, flushIntervalNanos);
        return flushDelayNanos;
    }

    /**
     * Drains the term being drained: to its tail ({@code toTail}, as for a dirty term and at stop)
     * or its committed prefix; see {@link TermDrain#drainTerm}. The model-checking test calls this.
     */
    public void drainTerm(boolean toTail) throws IOException {
        term.drainTerm(toTail);
    }

    /** The drainer thread's page faults since it started, {@code {minor, major}} as last sampled; {@code null} where unknown. */
    public long[] faultsSinceStart() {
        return faults.sinceStart();
    }
}
