package io.github.lockfreelog.engine;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * How a thread waits for the drainer or for callers: spins, then yields, then parks for growing
 * periods up to a millisecond, never longer than the time it has left.
 */
final class BackOff {

    private static final int SPIN_TRIES = 64;
    private static final int YIELD_TRIES = 128;
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
        if (tries < SPIN_TRIES) {
            Thread.onSpinWait();
        } else if (tries < YIELD_TRIES) {
            Thread.yield();
        } else {
            long park = Math.min(MAX_PARK_NANOS, 10_000L << Math.min(tries - YIELD_TRIES, 7));
            LockSupport.parkNanos(Math.max(1, Math.min(park, nanosLeft)));
            return Thread.interrupted();
        }
        return false;
    }
}
