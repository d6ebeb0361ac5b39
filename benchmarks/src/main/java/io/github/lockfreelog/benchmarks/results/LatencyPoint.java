package io.github.lockfreelog.benchmarks.results;

import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * What one latency fork measured: one peer at one paced rate and thread count.
 *
 * @param rate events per second, all threads together
 * @param made calls made, warm-up included
 * @param measured calls made in the measured window (after the warm-up), each recorded with its latency
 * @param missed calls due that were never made, because the peer could not keep up (see {@code PacedLoop})
 * @param latency percentiles of the measured calls, from their scheduled times
 * @param lines the line check: calls made against lines in the file ({@code Trial.finish})
 * @param histogram the tag under which the run's HdrHistogram log ({@code -latency.hlog}) holds every
 *        recorded latency of this point, in nanoseconds, so that other percentiles can be read later
 * @param disturbances garbage-collection pauses, CPU steal and the callers' preemptions during the measured window
 */
public record LatencyPoint(String peer, long rate, int threads, int lineSize, long warmupMillis, long measureMillis,
        long made, long measured, long missed, Percentiles latency, LineCheck lines, String histogram,
        Disturbances disturbances) {

    /** The tag of a point's histogram in the run's log: {@code lockfreelog-100k-1t-1}, the last number its round. */
    public static String tag(String peer, long rate, int threads, int round) {
        return peer + "-" + Format.rate(rate) + "-" + threads + "t-" + round;
    }

    /** Whether the peer fell so far behind that calls were never made: its percentiles are lower bounds. */
    public boolean behind() {
        return missed > 0;
    }

    /**
     * The percentiles reported for every peer, in nanoseconds, read from one histogram.
     *
     * @param count latencies recorded: calls measured, plus missed ones as lower bounds
     */
    public record Percentiles(long p50, long p90, long p99, long p999, long p9999, long max, long count) {

        /** Column labels, in the order of {@link #values()}. */
        public static final List<String> LABELS = List.of("p50", "p90", "p99", "p99.9", "p99.99", "max");

        public static Percentiles of(Histogram histogram) {
            return new Percentiles(histogram.getValueAtPercentile(50), histogram.getValueAtPercentile(90),
                    histogram.getValueAtPercentile(99), histogram.getValueAtPercentile(99.9),
                    histogram.getValueAtPercentile(99.99), histogram.getMaxValue(), histogram.getTotalCount());
        }

        /** The values in the order of {@link #LABELS}. */
        public List<Long> values() {
            return List.of(p50, p90, p99, p999, p9999, max);
        }
    }
}
