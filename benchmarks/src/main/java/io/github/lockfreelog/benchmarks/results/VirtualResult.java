package io.github.lockfreelog.benchmarks.results;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.results.RunResult;

/**
 * One fork of the virtual mode ({@code VirtualBenchmark}): one peer, one executor, one round; saved as
 * one row of the run's {@code -virtual.tsv}.
 *
 * @param executor {@code virtual} (a new virtual thread per event) or {@code platform-N} (a fixed pool of N)
 * @param allocatedBytes bytes every thread allocated while the measured tasks ran; -1 where the JVM cannot tell
 * @param waits lockfreelog's waits for a free buffer (-1 for another peer), with their total and longest
 * @param lines the measured batch's line check (written -1: the peer writes no file)
 * @param tasks the timed batch's times from each task's submit to the end of its log call
 */
public record VirtualResult(String peer, String executor, int round, long events, long allocatedBytes, long wallNanos,
        long waits, long waitTotalNanos, long waitMaxNanos, long dropped, LineCheck lines, TaskLatency tasks) {

    /** The peer of the virtual mode's reference fork: the executor alone, logging nothing. */
    public static final String NO_PEER = "none";

    /** How allocation is measured, as the table says it. */
    public static final String ALLOCATION_SOURCE = "com.sun.management.ThreadMXBean.getTotalThreadAllocatedBytes() "
            + "from the first submit to the last task's end, every thread of the JVM (dead and virtual ones included), "
            + "divided by the events";

    /** Bytes allocated per event; NaN where the JVM could not tell. */
    public double bytesPerEvent() {
        return allocatedBytes >= 0 && events > 0 ? (double) allocatedBytes / events : Double.NaN;
    }

    public static VirtualResult of(RunResult run) {
        BenchmarkParams p = run.getParams();
        long events = Counters.of(run, "events");
        String executor = p.getParam("executor").equals("virtual") ? "virtual" : "platform-" + p.getParam("platformThreads");
        return new VirtualResult(p.getParam("peer"), executor, Integer.parseInt(p.getParam("round")), events,
                Counters.of(run, "allocatedBytes"), Counters.of(run, "wallNanos"), Counters.of(run, "waits"),
                Counters.of(run, "waitTotalNanos"), Counters.of(run, "waitMaxNanos"), Counters.of(run, "dropped"),
                new LineCheck(events, Counters.of(run, "written"), Counters.of(run, "fileBytes"), Counters.of(run, "nulBytes")),
                new TaskLatency(Counters.of(run, "taskP50Nanos"), Counters.of(run, "taskP99Nanos"),
                        Counters.of(run, "taskMaxNanos")));
    }

    public static void write(Path tsv, String comment, List<VirtualResult> results) throws IOException {
        Tsv.write(tsv, comment, results);
    }

    public static List<VirtualResult> read(Path tsv) throws IOException {
        return Tsv.read(tsv, VirtualResult.class);
    }

    public static boolean isVirtualRun(Path tsv) {
        return tsv.getFileName().toString().endsWith("-virtual.tsv");
    }
}
