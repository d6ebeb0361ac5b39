package io.github.lockfreelog.engine;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * How a thread waits for the drainer or for callers: a platform thread spins, then yields, then
 * parks for growing periods up to a millisecond; a virtual thread parks at once (one that spins or
 * yields keeps its carrier, and with it the drainer, from the CPU). Never longer than the time it
 * has left.
 */
final class BackOff {

    private static final int SPIN_TRIES = 64;
    private static final int YIELD_TRIES = 128;
    private static final long FIRST_PARK_NANOS = TimeUnit.MICROSECONDS.toNanos(10);
    private static final long MAX_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private BackOff() {
    }

    /**
     * Waits once, the {@code tries}-th time in a row, at most {@code nanosLeft}.
     *
     * @return whether an interrupt was swallowed (park returns at once while the flag is set, so
     *         it is cleared here; the caller restores it before it returns)
     */
    static boolean pause(int tries, long nanosLeft) {
        if (VirtualThreads.isCurrent()) {
            return park(Math.min(MAX_PARK_NANOS, FIRST_PARK_NANOS << Math.min(tries, 7)), nanosLeft);
        }
        if (tries < SPIN_TRIES) {
            Thread.onSpinWait();
        } else if (tries < YIELD_TRIES) {
            Thread.yield();
        } else {
            return park(Math.min(MAX_PARK_NANOS, FIRST_PARK_NANOS << Math.min(tries - YIELD_TRIES, 7)), nanosLeft);
        }
        return false;
    }

    private static boolean park(long nanos, long nanosLeft) {
        LockSupport.parkNanos(Math.max(1, Math.min(nanos, nanosLeft)));
        return Thread.interrupted();
    }
}
