package io.github.lockfreelog.benchmarks;

import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * What stopped the callers of a latency point without being the peer's own code, counted over its
 * measured window: the garbage collector's pauses in this JVM, and the time the machine's CPUs were
 * not running this machine at all ("steal": a virtual machine's host ran something else). Either
 * makes every call due meanwhile late, so a point's tail is read together with them.
 *
 * @param gcPauses collections of the pausing collectors (G1's young and old, not its concurrent work)
 * @param gcPauseMillis the time those collections took
 * @param stealMillis CPU time stolen from all CPUs together, from {@code /proc/stat}; {@code -1} where
 *        that cannot be read
 */
public record Disturbances(long gcPauses, long gcPauseMillis, long stealMillis) {

    /** For results written before this was recorded. */
    static final Disturbances UNKNOWN = new Disturbances(-1, -1, -1);

    /** Linux counts {@code /proc/stat} in USER_HZ, 100 per second on every architecture Java runs on. */
    private static final long MILLIS_PER_TICK = 10;

    public boolean known() {
        return gcPauses >= 0;
    }

    /** The counters now; {@link #since} of two samples is what happened between them. */
    static Disturbances sample() {
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

    Disturbances since(Disturbances earlier) {
        return new Disturbances(gcPauses - earlier.gcPauses, gcPauseMillis - earlier.gcPauseMillis,
                stealMillis < 0 || earlier.stealMillis < 0 ? -1 : stealMillis - earlier.stealMillis);
    }

    /** The eighth value of the {@code cpu} line of {@code /proc/stat}; {@code -1} where there is none. */
    static long stealTicks() {
        try {
            List<String> lines = Files.readAllLines(Path.of("/proc/stat"));
            return lines.isEmpty() ? -1 : stealTicks(lines.get(0));
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    static long stealTicks(String cpuLine) {
        String[] fields = cpuLine.trim().split("\\s+");
        if (fields.length < 9 || !fields[0].equals("cpu")) {
            return -1;
        }
        try {
            return Long.parseLong(fields[8]);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** For the report: "2 (11 ms), steal 40 ms"; "n/a" when not recorded. */
    String text() {
        if (!known()) {
            return "n/a";
        }
        String gc = gcPauses == 0 ? "none" : gcPauses + " (" + gcPauseMillis + " ms)";
        return gc + (stealMillis < 0 ? "" : ", steal " + stealMillis + " ms");
    }
}
