package io.github.lockfreelog.benchmarks;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.ThreadParams;

/**
 * Every peer logs the same INFO line ({@link Workload}) from all benchmark threads. One fork per
 * peer, so each JVM configures one framework only. After the run the fork stops the framework,
 * counts the lines in its file and compares them with the calls made ({@link Trial#finish}); a peer
 * that wrote fewer lines than it accepted is reported as losing them (printed, and recorded in the
 * {@link Ledger}).
 *
 * <p>Run it through {@link BenchmarkRunner}; the annotations here are defaults for running it with
 * JMH's own command line.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class AppenderBenchmark {

    @Param({"lockfreelog", "encode-only", "logback-file-flush", "logback-file", "logback-async",
            "logstash-disruptor", "log4j2-file", "log4j2-raf", "log4j2-mmap", "log4j2-async"})
    public String peer;

    /** Bytes per line, newline included (see {@link Workload#message(int)} for the shortest possible). */
    @Param({"150"})
    public int lineSize;

    private final List<Caller> callers = new CopyOnWriteArrayList<>();

    private Trial trial;
    private Sink sink;
    private String message;

    @Setup(Level.Trial)
    public void start() throws IOException {
        message = Workload.message(lineSize);
        trial = Trial.open(Peer.of(peer), lineSize);
        sink = trial.sink();
    }

    @Benchmark
    public void log(Caller caller) {
        sink.log(message);
        caller.called();
    }

    @TearDown(Level.Trial)
    public void stop(BenchmarkParams params) throws IOException {
        // Every benchmark thread has left the measurement loop before a Benchmark-scoped trial tear-down.
        long accepted = 0;
        for (Caller caller : callers) {
            accepted += caller.calls();
        }
        trial.finish(params.getMode().shortLabel(), params.getThreads(), accepted);
    }

    /** Per-thread call counter: a plain increment, published with release so the tear-down can read it. */
    @State(Scope.Thread)
    public static class Caller {

        private static final VarHandle CALLS;

        static {
            try {
                CALLS = MethodHandles.lookup().findVarHandle(Caller.class, "calls", long.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        private long calls;

        @Setup(Level.Trial)
        public void register(AppenderBenchmark benchmark, ThreadParams thread) {
            Thread.currentThread().setName(Workload.threadName(thread.getThreadIndex()));
            benchmark.callers.add(this);
        }

        void called() {
            CALLS.setRelease(this, calls + 1); // only this thread writes
        }

        long calls() {
            return (long) CALLS.getAcquire(this);
        }
    }
}
