package io.github.lockfreelog.engine;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * How a thread waits for the drainer or for callers: a platform thread spins, then yields, then
 * parks for growing periods up to a millisecond (longer with many waiters, below); a virtual thread
 * parks at once (one that spins or yields keeps its carrier, and with it the drainer, from the CPU).
 * Never longer than the time it has left.
 *
 * <p>With more than a thousand callers waiting at once the longest park grows with their number
 * ({@value #NANOS_PER_WAITER} ns each): thousands of virtual threads that each looked again every
 * millisecond asked for millions of wake-ups a second, and their carriers, busy with them, presumably
 * left the drainer too little CPU to clean the next buffer. A buffer lets in roughly one waiter per
 * event it holds, so a waiter that looks again sooner than its turn mostly finds it full.
 */
final class BackOff {

    private static final int SPIN_TRIES = 64;
    private static final int YIELD_TRIES = 128;
    private static final long FIRST_PARK_NANOS = TimeUnit.MICROSECONDS.toNanos(10);
    private static final long MAX_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    /** How much the longest park grows per caller waiting: about the time one waiting caller's turn takes. */
    static final long NANOS_PER_WAITER = 1_000;
    /** The most doublings of the first park (10 us << 14 is about 164 ms). */
    private static final int MAX_DOUBLINGS = 14;

    private BackOff() {
    }

    /**
     * Waits once, the {@code tries}-th time in a row, at most {@code nanosLeft}, as the only waiter.
     *
     * @return whether an interrupt was swallowed (park returns at once while the flag is set, so
     *         it is cleared here; the caller restores it before it returns)
     */
    static boolean pause(int tries, long nanosLeft) {
        return pause(tries, nanosLeft, null);
    }

    /**
     * Waits once, the {@code tries}-th time in a row, at most {@code nanosLeft}, while {@code waiters}
     * callers (this one included; {@code null}: this one alone) wait for the same thing; the count is
     * read only when this caller parks. See {@link #pause(int, long)}.
     */
    static boolean pause(int tries, long nanosLeft, AtomicInteger waiters) {
        if (VirtualThreads.isCurrent()) {
            return park(parkNanos(tries, count(waiters)), nanosLeft);
        }
        if (tries < SPIN_TRIES) {
            Thread.onSpinWait();
        } else if (tries < YIELD_TRIES) {
            Thread.yield();
        } else {
            return park(parkNanos(tries - YIELD_TRIES, count(waiters)), nanosLeft);
        }
        return false;
    }

    private static int count(AtomicInteger waiters) {
        return waiters == null ? 1 : waiters.get();
    }

    /**
     * The park of the {@code parks}-th park in a row (from 0) while {@code waiters} callers wait: the
     * first park doubled each time, up to a millisecond, or {@value #NANOS_PER_WAITER} ns a waiter if
     * that is longer.
     */
    static long parkNanos(int parks, int waiters) {
        long longest = Math.max(MAX_PARK_NANOS, waiters * NANOS_PER_WAITER);
        return Math.min(longest, FIRST_PARK_NANOS << Math.min(parks, MAX_DOUBLINGS));
    }

    private static boolean park(long nanos, long nanosLeft) {
        LockSupport.parkNanos(Math.max(1, Math.min(nanos, nanosLeft)));
        return Thread.interrupted();
    }
}
