package io.github.lockfreelog.benchmarks.jmh;

import io.github.lockfreelog.benchmarks.measure.Meters;
import io.github.lockfreelog.benchmarks.measure.Trial;
import io.github.lockfreelog.benchmarks.peers.LogbackSink;
import io.github.lockfreelog.benchmarks.peers.Peer;
import io.github.lockfreelog.benchmarks.peers.Sink;
import io.github.lockfreelog.benchmarks.peers.Workload;
import io.github.lockfreelog.benchmarks.results.LineCheck;
import io.github.lockfreelog.benchmarks.results.TaskLatency;
import io.github.lockfreelog.benchmarks.results.VirtualResult;
import io.github.lockfreelog.diagnostics.AppenderStatistics;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The JMH fork of one point of the virtual mode: {@code events} INFO lines, each logged by a task of its
 * own, either on a new virtual thread per task ({@code executor=virtual}) or on a fixed pool of
 * {@code platformThreads} platform threads ({@code executor=platform}); one JMH thread submits them.
 *
 * <p>A warm-up batch of {@code warmupEvents} runs first into a trial that is then stopped and deleted;
 * the measured batch runs into a fresh one, so that lockfreelog's wait statistics are the measured
 * batch's alone. Measured: the bytes every thread of the JVM allocated from the first submit to the last
 * task's end ({@link Meters#totalAllocatedBytes()}, which counts dead and virtual threads), the wall
 * time, and for lockfreelog its {@link AppenderStatistics} (waits, longest wait, drops), read after the
 * stop. Peer {@value #NO_PEER} logs nothing: the executor's own cost per task, a floor.
 *
 * <p>A third batch of as many events, into a trial of its own, times each task from its submit to the end
 * of its log call ({@link TaskLatency}): the time an event waits, wherever it waits, in a pool's queue
 * or inside the appender, for every peer alike. It runs after the measured batch, so its per-task
 * objects and arrays are not in the allocation figure.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
public class VirtualBenchmark {

    /** The peer parameter of the floor: tasks that log nothing. */
    static final String NO_PEER = VirtualResult.NO_PEER;

    @Param("lockfreelog")
    public String peer;

    /** {@code virtual} (a new virtual thread per event) or {@code platform} (a fixed pool). */
    @Param("virtual")
    public String executor;

    @Param("4")
    public int platformThreads;

    @Param("200000")
    public int events;

    @Param("100000")
    public int warmupEvents;

    @Param("1")
    public int round;

    private String message;

    @Setup(Level.Trial)
    public void check() {
        if (!virtualThreadsAvailable()) {
            throw new IllegalStateException("this JVM (Java " + Runtime.version() + ") has no virtual threads: Java 21 or later");
        }
        message = Workload.message(Workload.DEFAULT_LINE_SIZE);
    }

    @Benchmark
    public void logFromTasks(Figures figures) throws Exception {
        Trial warmup = open();
        submit(warmup, warmupEvents);
        finish(warmup, warmupEvents, "virtual-warmup");

        Trial trial = open();
        long allocatedBefore = Meters.totalAllocatedBytes();
        long start = System.nanoTime();
        submit(trial, events);
        figures.wallNanos = System.nanoTime() - start;
        long allocatedAfter = Meters.totalAllocatedBytes();
        figures.allocatedBytes = allocatedBefore < 0 || allocatedAfter < 0 ? -1 : allocatedAfter - allocatedBefore;
        figures.events = events;
        AppenderStatistics[] statistics = new AppenderStatistics[1];
        LineCheck lines = trial == null ? new LineCheck(events, -1, 0, 0) : trial.finish("virtual-" + executor, 1, events,
                () -> statistics[0] = trial.sink() instanceof LogbackSink logback ? logback.lockFreeStatistics() : null);
        figures.report(lines, statistics[0]);

        Trial timed = open();
        figures.report(submitTimed(timed, events));
        finish(timed, events, "virtual-timed");
        System.out.println("[virtual] peer=" + peer + " executor=" + executor + " events=" + events
                + " allocatedBytes=" + figures.allocatedBytes + " waits=" + figures.waits
                + " waitMaxNanos=" + figures.waitMaxNanos);
    }

    private Trial open() throws IOException {
        return peer.equals(NO_PEER) ? null : Trial.open(Peer.of(peer), Workload.DEFAULT_LINE_SIZE);
    }

    private static void finish(Trial trial, long accepted, String mode) throws IOException {
        if (trial != null) {
            trial.finish(mode, 1, accepted);
        }
    }

    /** Runs {@code count} tasks, each logging one line into {@code trial} (nothing without one), and waits for all. */
    private void submit(Trial trial, int count) throws Exception {
        Sink sink = trial == null ? null : trial.sink();
        String line = message;
        Runnable task = sink == null ? () -> { } : () -> sink.log(line);
        runAll(count, i -> task); // one task object for all: nothing allocated per event but by the executor
    }

    /** Runs tasks {@code 0..count)} on this fork's executor, each made just before its submit, and waits for all. */
    private void runAll(int count, IntFunction<Runnable> taskAt) throws Exception {
        ExecutorService tasks = executor.equals("virtual") ? newVirtualThreadPerTaskExecutor(Workload.threadName(0))
                : Executors.newFixedThreadPool(platformThreads, namedThreads());
        try {
            for (int i = 0; i < count; i++) {
                tasks.execute(taskAt.apply(i));
            }
        } finally {
            tasks.shutdown();
            if (!tasks.awaitTermination(10, TimeUnit.MINUTES)) {
                throw new IllegalStateException("tasks did not end within 10 minutes");
            }
        }
    }

    /**
     * Runs {@code count} tasks as {@link #submit} does, each noting when it was submitted and when its log
     * call returned, and waits for all.
     */
    private TaskLatency submitTimed(Trial trial, int count) throws Exception {
        Sink sink = trial == null ? null : trial.sink();
        String line = message;
        long[] submitted = new long[count];
        long[] done = new long[count];
        boolean[] logged = new boolean[count];
        CountDownLatch ended = new CountDownLatch(count); // orders every task's writes before the reads below
        runAll(count, task -> {
            submitted[task] = System.nanoTime();
            return () -> {
                try {
                    if (sink != null) {
                        sink.log(line);
                    }
                    done[task] = System.nanoTime();
                    logged[task] = true;
                } finally {
                    ended.countDown();
                }
            };
        });
        ended.await();
        long[] latencies = new long[count];
        int failed = 0;
        for (int i = 0; i < count; i++) {
            failed += logged[i] ? 0 : 1;
            latencies[i] = done[i] - submitted[i];
        }
        if (failed > 0) {
            throw new IllegalStateException(failed + " of " + count + " timed tasks failed in their log call");
        }
        return TaskLatency.of(latencies);
    }

    /** Platform threads named as the other modes' callers, so that lines have the same length. */
    private static ThreadFactory namedThreads() {
        AtomicInteger next = new AtomicInteger();
        return r -> new Thread(r, Workload.threadName(next.getAndIncrement()));
    }

    /** Whether this JVM has virtual threads (Java 21 and later). */
    public static boolean virtualThreadsAvailable() {
        try {
            Thread.class.getMethod("ofVirtual");
            return true;
        } catch (NoSuchMethodException e) {
            return false;
        }
    }

    /**
     * {@code Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name(name).factory())}, through
     * reflection (the module compiles for Java 17): what {@code Executors.newVirtualThreadPerTaskExecutor()}
     * makes, but with named threads, so that every line carries a thread name of the width the other
     * modes' lines do.
     */
    static ExecutorService newVirtualThreadPerTaskExecutor(String threadName) throws ReflectiveOperationException {
        try {
            Object builder = Thread.class.getMethod("ofVirtual").invoke(null);
            builder = Class.forName("java.lang.Thread$Builder$OfVirtual").getMethod("name", String.class)
                    .invoke(builder, threadName);
            ThreadFactory factory = (ThreadFactory) Class.forName("java.lang.Thread$Builder").getMethod("factory")
                    .invoke(builder);
            return (ExecutorService) Executors.class.getMethod("newThreadPerTaskExecutor", ThreadFactory.class)
                    .invoke(null, factory);
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw e;
        }
    }

    /** The fork's figures, as JMH counters (one JMH thread: the sums are the figures). */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.EVENTS)
    public static class Figures {

        public long events;
        /** Bytes allocated by every thread while the measured tasks ran; -1 where the JVM cannot tell. */
        public long allocatedBytes;
        public long wallNanos;
        /** lockfreelog's waits for a free buffer, and their times; -1 for another peer. */
        public long waits;
        public long waitTotalNanos;
        public long waitMaxNanos;
        public long dropped;
        public long written;
        public long fileBytes;
        public long nulBytes;
        /** The timed batch: nanoseconds from a task's submit to the end of its log call, median, 99th percentile, longest. */
        public long taskP50Nanos;
        public long taskP99Nanos;
        public long taskMaxNanos;

        void report(TaskLatency tasks) {
            taskP50Nanos = tasks.p50Nanos();
            taskP99Nanos = tasks.p99Nanos();
            taskMaxNanos = tasks.maxNanos();
        }

        void report(LineCheck lines, AppenderStatistics statistics) {
            written = lines.written();
            fileBytes = lines.bytes();
            nulBytes = lines.nulBytes();
            waits = statistics == null ? -1 : statistics.waits();
            waitTotalNanos = statistics == null ? -1 : statistics.waitTotalNanos();
            waitMaxNanos = statistics == null ? -1 : statistics.waitMaxNanos();
            dropped = statistics == null ? -1 : statistics.dropped();
        }
    }
}
