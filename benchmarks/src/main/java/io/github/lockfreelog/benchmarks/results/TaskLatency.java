package io.github.lockfreelog.benchmarks.results;

import java.util.Arrays;

/**
 * How long the tasks of the virtual mode's timed batch took from their submit to the end of their log
 * call: the median, the 99th percentile and the longest, in nanoseconds.
 */
public record TaskLatency(long p50Nanos, long p99Nanos, long maxNanos) {

    /** The figures of {@code latencies} (sorted in place); all 0 for none. */
    public static TaskLatency of(long[] latencies) {
        if (latencies.length == 0) {
            return new TaskLatency(0, 0, 0);
        }
        Arrays.sort(latencies);
        return new TaskLatency(at(latencies, 0.50), at(latencies, 0.99), latencies[latencies.length - 1]);
    }

    /** The nearest-rank percentile {@code q} of the sorted {@code values}. */
    private static long at(long[] sorted, double q) {
        int rank = (int) Math.ceil(q * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length, rank) - 1)];
    }
}
