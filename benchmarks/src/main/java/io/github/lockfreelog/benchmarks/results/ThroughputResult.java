package io.github.lockfreelog.benchmarks.results;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;

/**
 * One peer's throughput at one thread count and line size, with its line check, as JMH's
 * {@link RunResult} gives it; saved as one row of a run's {@code .tsv} so that tables and charts
 * can be made again later.
 *
 * @param opsPerSecond JMH's score (calls per second, all threads together)
 * @param error JMH's 99.9 % confidence half-width of the score, NaN with too few iterations
 * @param bytesPerOp {@value #ALLOCATION} of {@code -prof gc}, NaN without it
 * @param lines the line check, from the benchmark's {@code AppenderBenchmark.Lines} counters
 */
public record ThroughputResult(String peer, int threads, int lineSize, double opsPerSecond, double error,
        double bytesPerOp, LineCheck lines) {

    /** Secondary result of {@code -prof gc}: bytes allocated per operation. */
    static final String ALLOCATION = "gc.alloc.rate.norm";

    /** Reads a run of {@code AppenderBenchmark} (its score in ops/s, as the runner asks JMH for). */
    public static ThroughputResult of(RunResult run) {
        Result<?> score = run.getPrimaryResult();
        LineCheck lines = new LineCheck(Counters.of(run, "accepted"), Counters.of(run, "written"),
                Counters.of(run, "fileBytes"), Counters.of(run, "nulBytes"));
        Result<?> allocation = run.getSecondaryResults().get(ALLOCATION);
        return new ThroughputResult(run.getParams().getParam("peer"), run.getParams().getThreads(),
                Integer.parseInt(run.getParams().getParam("lineSize")), score.getScore(), score.getScoreError(),
                allocation == null ? Double.NaN : allocation.getScore(), lines);
    }

    /** Saves {@code results} as a table, {@code comment} (the machine) above it. */
    public static void write(Path tsv, String comment, List<ThroughputResult> results) throws IOException {
        Tsv.write(tsv, comment, results);
    }

    public static List<ThroughputResult> read(Path tsv) throws IOException {
        return Tsv.read(tsv, ThroughputResult.class);
    }
}
