package io.github.lockfreelog.benchmarks.results;

import io.github.lockfreelog.benchmarks.peers.Workload;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.results.RunResult;

/**
 * One fork of the cost mode: one peer at one thread count in one round, as {@code CostBenchmark}'s
 * counters give it; saved as one row of the run's {@code -cost.tsv}.
 *
 * @param calls calls the callers made in the measured window
 * @param callerCpuNanos the callers' own CPU time over their measured loops, summed
 * @param processCpuNanos the whole process's CPU time from the window's start to the end of the framework's stop
 * @param windowNanos wall time of that span
 * @param lines the measured trial's line check: its calls against the lines in its file
 * @param callerAllocatedBytes bytes the callers allocated on their own threads over their measured loops, summed;
 *        -1 where the JVM cannot tell (and in tables saved before it was measured)
 * @param workload the workload's id ({@link Workload.Kind}); {@code classic} in tables saved before there were others
 */
public record CostResult(String peer, int threads, int lineSize, int round, long calls, long callerCpuNanos,
        long processCpuNanos, long windowNanos, LineCheck lines, @Tsv.Absent("-1") long callerAllocatedBytes,
        @Tsv.Absent("classic") String workload) {

    /** A result without the allocation figure, of the classic workload. */
    public CostResult(String peer, int threads, int lineSize, int round, long calls, long callerCpuNanos,
            long processCpuNanos, long windowNanos, LineCheck lines) {
        this(peer, threads, lineSize, round, calls, callerCpuNanos, processCpuNanos, windowNanos, lines, -1,
                Workload.Kind.CLASSIC.id());
    }

    /** Bytes the callers allocated on their own threads per call (the Logback front end's included); NaN when unknown. */
    public double callerBytesPerCall() {
        return calls > 0 && callerAllocatedBytes >= 0 ? (double) callerAllocatedBytes / calls : Double.NaN;
    }

    /**
     * Lines delivered to the file: those written, never more than were accepted. A peer that writes no
     * file (a reference) delivers nothing; it is charged per call instead, as a floor.
     */
    public long delivered() {
        return lines.writesFile() ? Math.min(lines.written(), lines.accepted()) : calls;
    }

    /** The process's CPU time per delivered line, in ns; NaN when nothing was delivered or the time is unknown. */
    public double totalNanosPerLine() {
        return delivered() > 0 && processCpuNanos >= 0 ? (double) processCpuNanos / delivered() : Double.NaN;
    }

    /** The callers' CPU time per call, in ns; NaN without calls. */
    public double callerNanosPerCall() {
        return calls > 0 && callerCpuNanos >= 0 ? (double) callerCpuNanos / calls : Double.NaN;
    }

    /** The process's CPU time over the window's wall time: how many CPUs it kept busy on average. */
    public double cpusBusy() {
        return windowNanos > 0 ? (double) processCpuNanos / windowNanos : Double.NaN;
    }

    /**
     * Reads a fork of {@code CostBenchmark}; an {@link IllegalArgumentException} when it has no counters (it failed).
     * The workload is this JVM's: the runner's, which it handed to the fork.
     */
    public static CostResult of(RunResult run) {
        BenchmarkParams params = run.getParams();
        long calls = Counters.of(run, "calls");
        return new CostResult(params.getParam("peer"), params.getThreads(), Integer.parseInt(params.getParam("lineSize")),
                Integer.parseInt(params.getParam("round")), calls, Counters.of(run, "callerCpuNanos"),
                Counters.of(run, "processCpuNanos"), Counters.of(run, "windowNanos"),
                new LineCheck(calls, Counters.of(run, "written"), Counters.of(run, "fileBytes"), Counters.of(run, "nulBytes")),
                Counters.of(run, "callerAllocatedBytes"), Workload.Kind.current().id());
    }

    public static void write(Path tsv, String comment, List<CostResult> results) throws IOException {
        Tsv.write(tsv, comment, results);
    }

    public static List<CostResult> read(Path tsv) throws IOException {
        return Tsv.read(tsv, CostResult.class);
    }

    /** Whether {@code tsv} is the table of a cost run ({@code NAME-STAMP-cost.tsv}). */
    public static boolean isCostRun(Path tsv) {
        return tsv.getFileName().toString().endsWith("-cost.tsv");
    }
}
