package io.github.lockfreelog.benchmarks.results;

/** Small latency points for report, chart and JSON tests. */
public final class LatencyFixtures {

    private LatencyFixtures() {
    }

    /** A point whose percentiles are {@code p50 * 1, * 10, * 100, ...} nanoseconds; {@code written -1}: no file. */
    public static LatencyPoint point(String peer, long rate, int threads, long p50, long accepted, long written, long missed) {
        LatencyPoint.Percentiles latency = new LatencyPoint.Percentiles(p50, p50 * 10, p50 * 100, p50 * 1_000,
                p50 * 10_000, p50 * 20_000, 600_000 + missed);
        LineCheck lines = new LineCheck(accepted, written, Math.max(written, 0) * 150, 0);
        return new LatencyPoint(peer, rate, threads, 150, 3_000, 6_000, accepted, 600_000, missed, latency,
                lines, peer + "-" + rate + "-" + threads, new Disturbances(-1, -1, -1));
    }
}
