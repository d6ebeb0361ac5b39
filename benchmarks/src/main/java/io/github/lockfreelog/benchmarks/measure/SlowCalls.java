package io.github.lockfreelog.benchmarks.measure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * The latency mode's diagnosis of slow calls ({@code --slow-calls MICROS}): per caller, each call that
 * took longer than the threshold (from its start, not from when it was due) is put under the first cause
 * that holds:
 * <ol>
 *   <li>{@code safepoint}: the JVM's safepoint count moved during the call (a collection, a deoptimisation,
 *       a handshake): exact, read before and after every call (about 30 ns each);</li>
 *   <li>{@code swap}: the peer's buffer moved during the call (lockfreelog: the journal's active term count,
 *       read from a mapping of its metadata page): the call rotated to the next buffer, or waited for the
 *       drainer to clean it; exact;</li>
 *   <li>{@code fault}: the thread's page faults grew since the previous slow call, and {@code preempted}: its
 *       involuntary context switches did ({@code /proc/thread-self}); read after slow calls only (about 20 µs,
 *       which makes the next calls late), so a run with this diagnosis is not one to compare percentiles with.
 *       Its forks pre-touch the heap ({@code -XX:+AlwaysPreTouch}), so that the faults left are not the callers'
 *       first touches of new heap pages;</li>
 *   <li>{@code none} of these: the call itself, or what no counter here sees (steal, an interrupt).</li>
 * </ol>
 */
public final class SlowCalls {

    /** System property of the threshold in microseconds; absent or 0: no diagnosis. */
    public static final String PROPERTY = "lockfreelog.bench.slowCallMicros";

    /** Reads the safepoint count, or null where the JVM does not let this class read it. */
    private static final LongSupplier SAFEPOINTS = safepointCounter();

    private final long thresholdNanos;
    private final LongSupplier buffer;
    private long safepointsBefore;
    private long bufferBefore;
    private long faults = procFaults();
    private long preemptions = procPreemptions();

    long slow;
    long safepoint;
    long swap;
    long fault;
    long preempted;
    long none;

    /**
     * @param buffer reads a number that moves when the peer swaps or waits for a buffer; null when the peer has
     *        none
     */
    SlowCalls(long thresholdNanos, LongSupplier buffer) {
        this.thresholdNanos = thresholdNanos;
        this.buffer = buffer;
    }

    /** The diagnosis this fork was asked for, or null. */
    public static SlowCalls ifAsked(LongSupplier buffer) {
        long micros = Long.getLong(PROPERTY, 0);
        return micros > 0 ? new SlowCalls(micros * 1_000, buffer) : null;
    }

    void before() {
        safepointsBefore = SAFEPOINTS == null ? 0 : SAFEPOINTS.getAsLong();
        bufferBefore = buffer == null ? 0 : buffer.getAsLong();
    }

    void after(long callNanos) {
        long safepoints = SAFEPOINTS == null ? 0 : SAFEPOINTS.getAsLong();
        long moved = buffer == null ? 0 : buffer.getAsLong();
        if (callNanos <= thresholdNanos) {
            return;
        }
        slow++;
        long faultsNow = procFaults();
        long preemptionsNow = procPreemptions();
        if (safepoints != safepointsBefore) {
            safepoint++;
        } else if (moved != bufferBefore) {
            swap++;
        } else if (faultsNow > faults) {
            fault++;
        } else if (preemptionsNow > preemptions) {
            preempted++;
        } else {
            none++;
        }
        faults = faultsNow;
        preemptions = preemptionsNow;
    }

    /** The counts of several callers together (they share one threshold). */
    public static SlowCalls sum(java.util.List<SlowCalls> callers) {
        SlowCalls all = new SlowCalls(callers.get(0).thresholdNanos, null);
        callers.forEach(all::add);
        return all;
    }

    private void add(SlowCalls other) {
        slow += other.slow;
        safepoint += other.safepoint;
        swap += other.swap;
        fault += other.fault;
        preempted += other.preempted;
        none += other.none;
    }

    public String text() {
        return String.format(Locale.ROOT, "slow (> %d us) %d: safepoint %d, swap %d, fault %d, preempted %d, none %d%s",
                thresholdNanos / 1_000, slow, safepoint, swap, fault, preempted, none,
                SAFEPOINTS == null ? " (safepoints not readable: run with --add-exports java.management/sun.management=ALL-UNNAMED)"
                        : "");
    }

    /** Minor plus major faults of the calling thread ({@code /proc/thread-self/stat} fields 10 and 12); -1 where unknown. */
    static long procFaults() {
        try {
            String stat = Files.readString(Paths.get("/proc/thread-self/stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(fields[7]) + Long.parseLong(fields[9]); // fields 10 and 12 of the whole line
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** Involuntary context switches of the calling thread; -1 where unknown. */
    static long procPreemptions() {
        try {
            return Files.readAllLines(Path.of("/proc/thread-self/status")).stream()
                    .filter(l -> l.startsWith("nonvoluntary_ctxt_switches:"))
                    .mapToLong(l -> Long.parseLong(l.substring(l.indexOf(':') + 1).trim())).findFirst().orElse(-1);
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    private static LongSupplier safepointCounter() {
        try {
            Class<?> helper = Class.forName("sun.management.ManagementFactoryHelper");
            Object runtime = helper.getMethod("getHotspotRuntimeMBean").invoke(null);
            java.lang.reflect.Method count = Class.forName("sun.management.HotspotRuntimeMBean").getMethod("getSafepointCount");
            // a lookup of this class: the package is exported to unnamed modules only (--add-exports), not to the public
            java.lang.invoke.MethodHandle handle = java.lang.invoke.MethodHandles.lookup().unreflect(count).bindTo(runtime);
            handle.invoke(); // fails here, not per call, where the package is not exported to us
            return () -> {
                try {
                    return (long) handle.invoke();
                } catch (Throwable e) {
                    return 0;
                }
            };
        } catch (Throwable e) {
            return null;
        }
    }
}
