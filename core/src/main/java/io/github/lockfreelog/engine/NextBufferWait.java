package io.github.lockfreelog.engine;

import io.github.lockfreelog.diagnostics.DropReason;
import io.github.lockfreelog.drain.ActiveJournal;
import io.github.lockfreelog.drain.EngineState;
import io.github.lockfreelog.drain.JournalCounters;
import io.github.lockfreelog.term.TermAppender;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * The caller's slow path, once the active buffer is full: rotate to the next buffer when the drainer has cleaned
 * it, else follow the {@link Backpressure} policy (drop at once under {@code DROP}, or back off up to
 * {@code maxBlockTime} under {@code BLOCK}, then drop with reason {@code timeout}). Each drop is counted here.
 */
final class NextBufferWait {

    /** {@link #await}'s {@code waitStart} of a caller that has not waited yet. */
    static final long NOT_WAITING = Long.MIN_VALUE;
    /** What {@link #await} returns once the event was dropped and counted. */
    static final long DROPPED = Long.MAX_VALUE;

    private final EngineState state;
    private final JournalCounters counters;
    private final boolean dropWhenFull;
    private final long maxBlockNanos;
    private final Thread drainerThread;
    /**
     * Callers inside {@link #await} that have backed off at least once and not yet left it: they back off longer
     * the more they are (see {@link BackOff}).
     */
    private final AtomicInteger waiting = new AtomicInteger();

    NextBufferWait(EngineConfig config, EngineState state, Thread drainerThread) {
        this.state = state;
        this.counters = state.counters;
        this.dropWhenFull = config.backpressure() == Backpressure.DROP;
        this.maxBlockNanos = config.maxBlockNanos();
        this.drainerThread = drainerThread;
    }

    /**
     * The slow path, taken when the active buffer is full: rotates to the next buffer if it is
     * clean, else applies the backpressure policy. It does not reserve while it waits.
     *
     * @return the time this append started waiting ({@link #NOT_WAITING} if it has not), or
     *         {@link #DROPPED} once the event was dropped and counted
     */
    long await(ActiveJournal active, long termCount, boolean mayDrop, long waitStart) {
        final TermAppender appender = active.appender;
        boolean interrupted = false;
        boolean countedIn = false; // in waiting; counted out by the finally below, whatever ends this call
        try {
            for (int tries = 0;; tries++) {
                TermAppender.Rotation rotation = appender.tryRotate(termCount);
                if (rotation == TermAppender.Rotation.ROTATED) {
                    counters.swaps.increment();
                    if (state.drainerSleeping() || !appender.isClean(termCount + 2)) {
                        // the drainer sleeps (idle: its next pass may be up to a flush interval away), or is behind
                        // (no clean buffer after the new active one): have it drain now. Else, under load, it drains
                        // the buffer just filled on its next pass, a millisecond away, and this caller makes no
                        // system call: waking a parked thread costs tens of microseconds on a virtual machine
                        LockSupport.unpark(drainerThread);
                    }
                }
                if (rotation != TermAppender.Rotation.NOT_READY || (active.isRetired() && state.active() != active)) {
                    return waitStart; // a buffer is active again, or another journal is: reserve anew
                }
                if (!state.isRunning()) {
                    counters.drop(DropReason.STOPPED);
                    return DROPPED;
                }
                if (dropWhenFull && mayDrop) {
                    if (state.drainerSleeping()) {
                        LockSupport.unpark(drainerThread); // the journal is full: the drainer must not sleep on
                    }
                    counters.drop(state.ioFailing() ? DropReason.IO : DropReason.BUFFER_FULL);
                    return DROPPED;
                }
                final long now = System.nanoTime();
                if (waitStart == NOT_WAITING) {
                    waitStart = now;
                    LockSupport.unpark(drainerThread);
                } else if (now - waitStart >= maxBlockNanos) {
                    counters.recordWait(now - waitStart);
                    counters.drop(state.ioFailing() ? DropReason.IO : DropReason.TIMEOUT);
                    return DROPPED;
                }
                if (!countedIn) {
                    waiting.incrementAndGet();
                    countedIn = true;
                }
                interrupted |= BackOff.pause(tries, waitStart + maxBlockNanos - now, waiting);
            }
        } finally {
            if (countedIn) {
                waiting.decrementAndGet();
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** The callers waiting for a clean buffer now. */
    int waitingCallers() {
        return waiting.get();
    }
}
