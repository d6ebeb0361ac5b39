package io.github.lockfreelog.benchmarks.measure;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;

/**
 * What the cost and virtual modes read from the JVM: the whole process's CPU time, the calling
 * thread's CPU time, and the bytes every thread of the JVM has allocated so far (dead and virtual
 * threads included). Each is -1 where this JVM cannot tell.
 */
public final class Meters {

    /** Clock ticks per second of {@code /proc/self/stat}'s times: 100 on every Linux the JVM runs on. */
    static final long CLOCK_TICKS_PER_SECOND = 100;

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final Method TOTAL_ALLOCATED = totalAllocatedMethod();

    static {
        if (THREADS.isCurrentThreadCpuTimeSupported() && !THREADS.isThreadCpuTimeEnabled()) {
            THREADS.setThreadCpuTimeEnabled(true);
        }
    }

    private Meters() {
    }

    /**
     * CPU time of the whole process, every thread (the JVM's own: GC, JIT) and user and system time
     * together, in nanoseconds: {@code com.sun.management.OperatingSystemMXBean.getProcessCpuTime()},
     * else {@code /proc/self/stat}; -1 when neither answers. On Linux both count in clock ticks (10 ms).
     */
    public static long processCpuNanos() {
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.OperatingSystemMXBean hotspot) {
            long nanos = hotspot.getProcessCpuTime();
            if (nanos >= 0) {
                return nanos;
            }
        }
        try {
            return procStatCpuNanos(Files.readString(Paths.get("/proc/self/stat"), StandardCharsets.US_ASCII));
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** utime + stime of a {@code /proc/PID/stat} line (fields 14 and 15), in nanoseconds. */
    public static long procStatCpuNanos(String stat) {
        // The command name (field 2) is in parentheses and may hold spaces: count fields after its ')'.
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split("\\s+");
        long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]); // fields 14 and 15 of the line
        return ticks * (1_000_000_000L / CLOCK_TICKS_PER_SECOND);
    }

    /** CPU time of the calling thread in nanoseconds ({@link ThreadMXBean#getCurrentThreadCpuTime()}), -1 without it. */
    public static long currentThreadCpuNanos() {
        return THREADS.isCurrentThreadCpuTimeSupported() ? THREADS.getCurrentThreadCpuTime() : -1;
    }

    /**
     * Bytes the calling thread has allocated on the heap since it started
     * ({@code com.sun.management.ThreadMXBean.getThreadAllocatedBytes} of its own id; exact to the byte, the
     * thread-local allocation buffers included as they are used); -1 where the JVM does not support it or has it disabled.
     */
    public static long currentThreadAllocatedBytes() {
        if (THREADS instanceof com.sun.management.ThreadMXBean hotspot && hotspot.isThreadAllocatedMemorySupported()
                && hotspot.isThreadAllocatedMemoryEnabled()) {
            return hotspot.getThreadAllocatedBytes(Thread.currentThread().getId());
        }
        return -1;
    }

    /**
     * Bytes allocated on the heap by every thread since the JVM started, dead and virtual threads
     * included: {@code com.sun.management.ThreadMXBean.getTotalThreadAllocatedBytes()} (Java 21 and
     * later, reached by reflection); -1 before Java 21 or when the JVM has it disabled.
     */
    public static long totalAllocatedBytes() {
        if (TOTAL_ALLOCATED == null) {
            return -1;
        }
        try {
            return (long) TOTAL_ALLOCATED.invoke(THREADS);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return -1;
        }
    }

    /** Whether {@link #totalAllocatedBytes()} answers in this JVM. */
    public static boolean measuresAllocation() {
        return totalAllocatedBytes() >= 0;
    }

    private static Method totalAllocatedMethod() {
        try {
            Method method = com.sun.management.ThreadMXBean.class.getMethod("getTotalThreadAllocatedBytes");
            return THREADS instanceof com.sun.management.ThreadMXBean ? method : null;
        } catch (NoSuchMethodException | RuntimeException | LinkageError e) {
            return null; // before Java 21
        }
    }
}
