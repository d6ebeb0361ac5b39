package io.github.lockfreelog.benchmarks.jmh;

import io.github.lockfreelog.benchmarks.measure.Meters;
import io.github.lockfreelog.benchmarks.measure.Trial;
import io.github.lockfreelog.benchmarks.peers.Peer;
import io.github.lockfreelog.benchmarks.peers.Sink;
import io.github.lockfreelog.benchmarks.peers.Workload;
import io.github.lockfreelog.benchmarks.results.CostResult;
import io.github.lockfreelog.benchmarks.results.Format;
import io.github.lockfreelog.benchmarks.results.LineCheck;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.ThreadParams;

/**
 * The JMH fork of one cost point: what a delivered line costs in CPU, the whole process's and the
 * calling threads'. One invocation per thread ({@link Mode#SingleShotTime}); each JMH thread is a
 * caller that logs back to back, as in the throughput benchmark:
 *
 * <ol>
 *   <li>warm-up: every caller logs for {@code warmupMillis} into a first trial of the peer, which is then
 *       stopped, checked and deleted, so that the JIT has compiled the path and no warm-up line is left
 *       in flight;</li>
 *   <li>a second, fresh trial of the peer; the process's CPU time is read, and every caller logs for
 *       {@code measureMillis}, reading its own CPU time before and after its loop;</li>
 *   <li>the last caller to finish stops the framework (it flushes everything it accepted) and reads the
 *       process's CPU time again; then the lines in the file are counted.</li>
 * </ol>
 *
 * Every line in the second trial's file is a measured line, so the lines delivered are counted, not
 * estimated: a peer that drops lines is charged its CPU per line it wrote. The figures go to JMH as
 * counters ({@link Caller}); {@link CostResult#of} reads them. JMH's own score means nothing here.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
public class CostBenchmark {

    /** Calls between two readings of the clock in a caller's loop. */
    static final int CALLS_PER_CLOCK_READ = 128;

    @Param("lockfreelog")
    public String peer;

    @Param("150")
    public int lineSize;

    @Param("2000")
    public long warmupMillis;

    @Param("4000")
    public long measureMillis;

    /** Which repetition of the point this is. */
    @Param("1")
    public int round;

    private final List<Caller> callers = new CopyOnWriteArrayList<>();
    private String message;
    private int threads;
    private CyclicBarrier warmedUp;
    private CyclicBarrier finished;

    // Written by the barrier actions, read by the callers after the barrier (which orders them).
    private Trial trial;
    private Sink sink;
    private long deadline;
    private long processCpuStart;
    private long windowStart;
    private long processCpuEnd;
    private long windowEnd;
    private LineCheck lines;

    @Setup(Level.Trial)
    public void start(BenchmarkParams params) throws IOException {
        message = Workload.message(lineSize);
        threads = params.getThreads();
        trial = Trial.open(Peer.of(peer), lineSize);
        sink = trial.sink();
        deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(warmupMillis);
        warmedUp = new CyclicBarrier(threads, this::startMeasuring);
        finished = new CyclicBarrier(threads, this::stopMeasuring);
    }

    /** Ends the warm-up trial and opens the measured one; run by the last caller to end its warm-up. */
    private void startMeasuring() {
        try {
            trial.finish("cost-warmup", threads, callers.stream().mapToLong(c -> c.warmupCalls).sum());
            trial = Trial.open(Peer.of(peer), lineSize);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        sink = trial.sink();
        windowStart = System.nanoTime();
        processCpuStart = Meters.processCpuNanos();
        deadline = windowStart + TimeUnit.MILLISECONDS.toNanos(measureMillis);
    }

    /** Stops the measured trial, reads the CPU time, then counts its lines; run by the last caller to finish. */
    private void stopMeasuring() {
        try {
            lines = trial.finish("cost", threads, callers.stream().mapToLong(c -> c.calls).sum(), () -> {
                processCpuEnd = Meters.processCpuNanos();
                windowEnd = System.nanoTime();
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Benchmark
    public void logForAWhile(Caller caller) throws InterruptedException, BrokenBarrierException {
        caller.warmupCalls = loop(sink, deadline);
        warmedUp.await();
        Sink measured = sink;
        long measuredUntil = deadline;
        long allocatedBefore = Meters.currentThreadAllocatedBytes();
        long cpuBefore = Meters.currentThreadCpuNanos();
        caller.calls = loop(measured, measuredUntil);
        caller.callerCpuNanos = Meters.currentThreadCpuNanos() - cpuBefore;
        long allocatedAfter = Meters.currentThreadAllocatedBytes();
        caller.callerAllocatedBytes = allocatedBefore < 0 || allocatedAfter < 0 ? -1 : allocatedAfter - allocatedBefore;
        finished.await();
    }

    /** Logs until {@code until} (System.nanoTime), reading the clock every {@value #CALLS_PER_CLOCK_READ} calls; returns the calls. */
    private long loop(Sink into, long until) {
        String line = message;
        long calls = 0;
        do {
            for (int i = 0; i < CALLS_PER_CLOCK_READ; i++) {
                into.log(line);
            }
            calls += CALLS_PER_CLOCK_READ;
        } while (System.nanoTime() - until < 0);
        return calls;
    }

    /** After every caller has returned: hands the fork's figures to the first caller's counters. */
    @TearDown(Level.Trial)
    public void stop() {
        Caller first = callers.stream().min(Comparator.comparingInt(c -> c.index)).orElseThrow();
        first.report(processCpuEnd - processCpuStart, windowEnd - windowStart, lines);
        long calls = callers.stream().mapToLong(c -> c.calls).sum();
        long callerCpu = callers.stream().mapToLong(c -> c.callerCpuNanos).sum();
        long allocated = callers.stream().anyMatch(c -> c.callerAllocatedBytes < 0) ? -1
                : callers.stream().mapToLong(c -> c.callerAllocatedBytes).sum();
        CostResult result = new CostResult(peer, threads, lineSize, round, calls, callerCpu, processCpuEnd - processCpuStart,
                windowEnd - windowStart, lines, allocated, Workload.Kind.current().id());
        System.out.println("[cost] peer=" + peer + " workload=" + result.workload() + " threads=" + threads + " round="
                + round + " calls=" + calls + " delivered=" + result.delivered() + " bytesPerLine="
                + Format.fixed(lines.bytesPerLine(), 1) + " totalNsPerLine=" + Format.fixed(result.totalNanosPerLine(), 1)
                + " callerNsPerCall=" + Format.fixed(result.callerNanosPerCall(), 1)
                + " callerBytesPerCall=" + Format.fixed(result.callerBytesPerCall(), 1));
    }

    /**
     * One caller: its calls and CPU time as JMH counters (summed over the callers); the fork's process
     * CPU time, window and line check go into the first caller's counters only, at the tear-down.
     */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.EVENTS)
    public static class Caller {

        int index;
        long warmupCalls;

        /** Calls made in the measured window. */
        public long calls;
        /** This caller's CPU time over its measured loop. */
        public long callerCpuNanos;
        /**
         * Bytes this caller allocated on its own thread over its measured loop (ThreadMXBean's
         * {@code getCurrentThreadAllocatedBytes}): the Logback front end's event and whatever the appender and its
         * encoder allocate on the caller's path; -1 where the JVM cannot tell.
         */
        public long callerAllocatedBytes;
        /** The whole process's CPU time from the start of the measured window to the framework's stop. */
        public long processCpuNanos;
        /** Wall time of that span. */
        public long windowNanos;
        public long written;
        public long fileBytes;
        public long nulBytes;

        @Setup(Level.Trial)
        public void register(CostBenchmark benchmark, ThreadParams thread) {
            index = thread.getThreadIndex();
            Thread.currentThread().setName(Workload.threadName(index));
            benchmark.callers.add(this);
        }

        void report(long processCpu, long window, LineCheck check) {
            processCpuNanos = processCpu;
            windowNanos = window;
            written = check.written();
            fileBytes = check.bytes();
            nulBytes = check.nulBytes();
        }
    }
}
