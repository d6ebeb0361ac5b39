package io.github.lockfreelog.diagnostics;

import java.util.concurrent.TimeUnit;

/**
 * Samples, once a second, the page faults of the thread that calls it (the drainer's), so that
 * statistics can report them from another thread.
 */
public final class ThreadFaults {

    private static final long SAMPLE_NANOS = TimeUnit.SECONDS.toNanos(1);

    private long lastSample;
    private volatile long[] atStart;
    private volatile long[] latest;

    /** Takes the first sample; called on the sampled thread. */
    public void start() {
        atStart = ProcStat.threadFaults();
        latest = atStart;
        lastSample = System.nanoTime();
    }

    /** Takes a sample if one is due; called on the sampled thread. */
    public void sample() {
        long now = System.nanoTime();
        if (now - lastSample >= SAMPLE_NANOS) {
            lastSample = now;
            long[] faults = ProcStat.threadFaults();
            if (faults != null) {
                latest = faults;
            }
        }
    }

    /** The thread's page faults since {@link #start}, {@code {minor, major}} as last sampled; {@code null} where unknown. */
    public long[] sinceStart() {
        long[] now = latest;
        long[] start = atStart;
        return now == null || start == null ? null : new long[] {now[0] - start[0], now[1] - start[1]};
    }
}
