package io.github.lockfreelog.benchmarks.measure;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;

/**
 * One caller thread of the latency mode: calls the sink on a fixed schedule and records, for every
 * call, the time from when the call was <em>scheduled</em> to when it returned.
 *
 * <p>Why from the scheduled time: a caller that waits for a slow call before it issues the next one
 * would otherwise measure one slow call and then many fast ones, although every call scheduled
 * during the stall was late by what remained of it (coordinated omission). Here call {@code i} is
 * due at {@code origin + (i * threads + index) / rate}; the thread waits until then, calls, and
 * records {@code now - scheduled}. After a stall it calls back to back until it is on time again,
 * and each of those calls carries its lateness.
 *
 * <pre>
 * origin        origin + warmup                       end            hardStop = end + grace
 *   |-- warm-up --|------------- measured ----------------|-- catching up --|
 *   calls made, not recorded   recorded: now - scheduled   calls scheduled before end only
 * </pre>
 *
 * A caller that is still behind at {@code hardStop} stops; the calls it never made are recorded
 * with the time they had waited by then (a lower bound), so a peer that cannot sustain the rate shows
 * it in its percentiles instead of hiding it, and {@link Outcome#missed()} counts them.
 */
public final class PacedLoop {

    /** Where the time comes from: {@link System#nanoTime()} in a run, a fake in tests. */
    interface Clock {
        long nanoTime();
    }

    /** Returns at (or after) {@code deadlineNanos} of its clock; at once when that time has passed. */
    interface Waiter {
        void awaitUntil(long deadlineNanos);
    }

    /** Recorded latencies above this are recorded as this (an hour: no call in a run takes that long). */
    static final long HIGHEST_TRACKABLE_NANOS = TimeUnit.HOURS.toNanos(1);

    /** Significant decimal digits HdrHistogram keeps: 0.1 % resolution at every magnitude. */
    static final int SIGNIFICANT_DIGITS = 3;

    /**
     * When a call is due in more than this, the real waiter parks until this much is left, then
     * spins. Linux wakes a parked thread 50-60 us late (timer slack), so parking closer than this would
     * make calls late by the harness's own doing.
     */
    public static final long SPIN_NANOS = TimeUnit.MICROSECONDS.toNanos(100);

    /** The calls of one thread: {@code threads} threads share {@code ratePerSecond}, interleaved evenly. */
    public record Schedule(long originNanos, long ratePerSecond, int threads, int index, long warmupNanos, long measureNanos,
            long graceNanos) {

        public Schedule {
            if (ratePerSecond <= 0 || threads <= 0 || index < 0 || index >= threads || warmupNanos < 0
                    || measureNanos <= 0 || graceNanos < 0) {
                throw new IllegalArgumentException("bad schedule: rate=" + ratePerSecond + " threads=" + threads
                        + " index=" + index + " warmupNanos=" + warmupNanos + " measureNanos=" + measureNanos
                        + " graceNanos=" + graceNanos);
            }
        }

        /** When this thread's call {@code i} (0-based) is due. */
        long scheduled(long i) {
            return originNanos + (i * threads + index) * 1_000_000_000L / ratePerSecond;
        }

        long measureFromNanos() {
            return originNanos + warmupNanos;
        }

        long endNanos() {
            return measureFromNanos() + measureNanos;
        }

        long hardStopNanos() {
            return endNanos() + graceNanos;
        }
    }

    /**
     * What one thread did.
     *
     * @param made calls made, warm-up included (they are all in the log file)
     * @param recorded calls made in the measured window, each recorded with its latency
     * @param missed calls due before the end that were never made (the thread was still behind at the
     *        hard stop); those due in the measured window are recorded as lower bounds
     */
    public record Outcome(long made, long recorded, long missed) {
    }

    private final Clock clock;
    private final Waiter waiter;

    PacedLoop(Clock clock, Waiter waiter) {
        this.clock = clock;
        this.waiter = waiter;
    }

    /** The loop of a real run: {@link System#nanoTime()}, parking then spinning until each call is due. */
    public static PacedLoop realTime() {
        return realTime(SPIN_NANOS);
    }

    /**
     * A real run's loop that spins the last {@code spinNanos} before each call ({@link #SPIN_NANOS} in every mode;
     * the kafka mode's {@code --spin-micros} sets another, 0 to park only): callers due more often than that spin
     * all the time, and hold a CPU each that the peer's own threads (a drainer, a producer, a broker) do not get.
     */
    public static PacedLoop realTime(long spinNanos) {
        if (spinNanos < 0) {
            throw new IllegalArgumentException("spin time must be 0 or more nanoseconds: " + spinNanos);
        }
        return new PacedLoop(System::nanoTime, deadline -> parkThenSpin(deadline, spinNanos));
    }

    public static Histogram newHistogram() {
        return new Histogram(HIGHEST_TRACKABLE_NANOS, SIGNIFICANT_DIGITS);
    }

    /** Runs the schedule, recording into {@code latencies} (nanoseconds; one histogram per thread). */
    public Outcome run(Schedule schedule, Runnable call, Histogram latencies) {
        return run(schedule, call, latencies, null);
    }

    /** As {@link #run(Schedule, Runnable, Histogram)}, each call of the measured window watched by {@code slow} when given. */
    public Outcome run(Schedule schedule, Runnable call, Histogram latencies, SlowCalls slow) {
        final long measureFrom = schedule.measureFromNanos();
        final long end = schedule.endNanos();
        final long hardStop = schedule.hardStopNanos();
        long made = 0;
        long recorded = 0;
        long now = clock.nanoTime();
        long next = 0;
        for (long scheduled = schedule.scheduled(next); scheduled < end && now < hardStop;
                scheduled = schedule.scheduled(next)) {
            waiter.awaitUntil(scheduled);
            final boolean watched = slow != null && scheduled >= measureFrom;
            long start = 0;
            if (watched) {
                slow.before();
                start = clock.nanoTime();
            }
            call.run();
            now = clock.nanoTime();
            if (watched) {
                slow.after(now - start);
            }
            made++;
            next++;
            if (scheduled >= measureFrom) {
                record(latencies, now - scheduled);
                recorded++;
            }
        }
        long missed = 0;
        for (long scheduled = schedule.scheduled(next); scheduled < end; scheduled = schedule.scheduled(++next)) {
            missed++;
            if (scheduled >= measureFrom) {
                record(latencies, now - scheduled);
            }
        }
        return new Outcome(made, recorded, missed);
    }

    private static void record(Histogram latencies, long nanos) {
        latencies.recordValue(Math.min(Math.max(nanos, 0), HIGHEST_TRACKABLE_NANOS));
    }

    private static void parkThenSpin(long deadlineNanos, long spinNanos) {
        long remaining;
        while ((remaining = deadlineNanos - System.nanoTime()) > 0) {
            if (remaining > spinNanos) {
                LockSupport.parkNanos(remaining - spinNanos);
            } else {
                Thread.onSpinWait();
            }
        }
    }
}
