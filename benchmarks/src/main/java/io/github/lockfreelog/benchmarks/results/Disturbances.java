package io.github.lockfreelog.benchmarks.results;

import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Set;

/**
 * What stopped the callers of a latency point without being the peer's own code, counted over its
 * measured window: the garbage collector's pauses in this JVM, and the time the machine's CPUs were
 * not running this machine at all ("steal": a virtual machine's host ran something else). Either
 * makes every call due meanwhile late, so a point's tail is read together with them.
 *
 * <p>Beside them, how often the calling threads were taken off a CPU while they could run (the
 * kernel's involuntary context switches) and how long they waited, runnable, for one (the run-queue
 * wait of {@code /proc/self/task/<tid>/schedstat}). These are not the machine's doing alone: a
 * peer's own background thread that takes the caller's CPU shows here, which is how a tail caused by
 * CPU contention inside the machine is told apart from one caused by steal or by the call itself.
 *
 * @param gcPauses collections of the pausing collectors (G1's young and old, not its concurrent work)
 * @param gcPauseMillis the time those collections took
 * @param stealMillis CPU time stolen from all CPUs together, from {@code /proc/stat}; {@code -1} where
 *        that cannot be read
 * @param callerPreemptions involuntary context switches of the calling threads together; {@code -1}
 *        where not recorded
 * @param callerWaitMicros time the calling threads together spent runnable, waiting for a CPU;
 *        {@code -1} where not recorded
 */
public record Disturbances(long gcPauses, long gcPauseMillis, long stealMillis, long callerPreemptions,
        long callerWaitMicros) {

    /** Without the callers' scheduling. */
    public Disturbances(long gcPauses, long gcPauseMillis, long stealMillis) {
        this(gcPauses, gcPauseMillis, stealMillis, -1, -1);
    }

    /** Linux counts {@code /proc/stat} in USER_HZ, 100 per second on every architecture Java runs on. */
    private static final long MILLIS_PER_TICK = 10;

    public boolean known() {
        return gcPauses >= 0;
    }

    /**
     * The counters now, with the scheduling of this JVM's threads named in {@code callers} (as the
     * kernel knows them: at most 15 characters); {@link #since} of two samples is what happened
     * between them.
     */
    public static Disturbances sample(Set<String> callers) {
        long[] scheduling = scheduling(callers);
        Disturbances counts = sample();
        return new Disturbances(counts.gcPauses, counts.gcPauseMillis, counts.stealMillis, scheduling[0], scheduling[1]);
    }

    /** The counters now, without the callers' scheduling. */
    public static Disturbances sample() {
        long count = 0;
        long millis = 0;
        for (GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (collector.getName().contains("Concurrent")) {
                continue; // cycles that run beside the application, not pauses
            }
            count += Math.max(0, collector.getCollectionCount());
            millis += Math.max(0, collector.getCollectionTime());
        }
        return new Disturbances(count, millis, stealTicks() * MILLIS_PER_TICK);
    }

    public Disturbances since(Disturbances earlier) {
        return new Disturbances(gcPauses - earlier.gcPauses, gcPauseMillis - earlier.gcPauseMillis,
                difference(stealMillis, earlier.stealMillis), difference(callerPreemptions, earlier.callerPreemptions),
                difference(callerWaitMicros, earlier.callerWaitMicros));
    }

    private static long difference(long later, long earlier) {
        return later < 0 || earlier < 0 ? -1 : later - earlier;
    }

    /**
     * {@code {involuntary context switches, run-queue wait in microseconds}} summed over the threads
     * of this JVM with these names; {@code {-1, -1}} where {@code /proc} cannot tell or none is found.
     */
    static long[] scheduling(Set<String> names) {
        long switches = 0;
        long waitNanos = 0;
        int found = 0;
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
            for (Path task : tasks) {
                try {
                    if (!names.contains(Files.readString(task.resolve("comm")).trim())) {
                        continue;
                    }
                    long involuntary = involuntarySwitches(Files.readString(task.resolve("status")));
                    long wait = runQueueWaitNanos(Files.readString(task.resolve("schedstat")));
                    if (involuntary < 0 || wait < 0) {
                        return new long[] {-1, -1};
                    }
                    switches += involuntary;
                    waitNanos += wait;
                    found++;
                } catch (IOException ended) {
                    // the thread ended meanwhile (no such file, or no such process)
                }
            }
        } catch (IOException | RuntimeException e) {
            return new long[] {-1, -1};
        }
        return found == 0 ? new long[] {-1, -1} : new long[] {switches, waitNanos / 1_000};
    }

    /** The {@code nonvoluntary_ctxt_switches} of a {@code /proc/.../status} text; {@code -1} if absent. */
    static long involuntarySwitches(String status) {
        return status.lines().filter(line -> line.startsWith("nonvoluntary_ctxt_switches:")).findFirst()
                .map(line -> number(line.substring(line.indexOf(':') + 1).trim())).orElse(-1L);
    }

    /** The second value of a {@code schedstat} line (time spent runnable on a run queue, ns); {@code -1} if absent. */
    static long runQueueWaitNanos(String schedstat) {
        String[] fields = schedstat.trim().split("\\s+");
        return fields.length < 2 ? -1 : number(fields[1]);
    }

    /** The eighth value of the {@code cpu} line of {@code /proc/stat}; {@code -1} where there is none. */
    static long stealTicks() {
        try (java.util.stream.Stream<String> lines = Files.lines(Path.of("/proc/stat"))) {
            return lines.findFirst().map(Disturbances::stealTicks).orElse(-1L);
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    static long stealTicks(String cpuLine) {
        String[] fields = cpuLine.trim().split("\\s+");
        return fields.length < 9 || !fields[0].equals("cpu") ? -1 : number(fields[8]);
    }

    private static long number(String text) {
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** For the report: "2 (11 ms), steal 40 ms"; "n/a" when not recorded. */
    public String text() {
        if (!known()) {
            return "n/a";
        }
        String gc = gcPauses == 0 ? "none" : gcPauses + " (" + gcPauseMillis + " ms)";
        String preempted = callerPreemptions < 0 || callerWaitMicros < 0 ? ""
                : String.format(Locale.ROOT, ", callers preempted %d× (waited %.1f ms)", callerPreemptions,
                        callerWaitMicros / 1000.0);
        return gc + (stealMillis < 0 ? "" : ", steal " + stealMillis + " ms") + preempted;
    }
}
