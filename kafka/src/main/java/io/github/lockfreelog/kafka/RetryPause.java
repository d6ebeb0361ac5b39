package io.github.lockfreelog.kafka;

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The sink's back-off after a failure, on top of the drainer's own wait between tries: {@value #FIRST_MILLIS} ms
 * after the second failure in a row, doubling up to {@value #MAX_MILLIS} ms, each drawn between half and the whole
 * (a fleet of instances that lost the same broker does not come back to it in step). Waits on the drainer's thread;
 * any unpark (a stop, a caller waiting for room) ends a wait early.
 */
final class RetryPause {

    static final long FIRST_MILLIS = 250;
    static final long MAX_MILLIS = 8_000;

    private int failures;
    private long until;

    void failed() {
        failures++;
        if (failures > 1) {
            long millis = Math.min(MAX_MILLIS, FIRST_MILLIS << Math.min(failures - 2, 10));
            long nanos = TimeUnit.MILLISECONDS.toNanos(millis);
            until = System.nanoTime() + nanos / 2 + ThreadLocalRandom.current().nextLong(nanos / 2 + 1);
        }
    }

    void succeeded() {
        failures = 0;
    }

    /** Waits out the back-off, if any is due. */
    void await() {
        long left = until - System.nanoTime();
        if (failures > 1 && left > 0) {
            LockSupport.parkNanos(this, left);
        }
    }
}
