package io.github.lockfreelog.benchmarks.jmh;

import io.github.lockfreelog.benchmarks.measure.Trial;
import io.github.lockfreelog.benchmarks.peers.Peer;
import io.github.lockfreelog.benchmarks.peers.Sink;
import io.github.lockfreelog.benchmarks.peers.Workload;
import io.github.lockfreelog.benchmarks.results.LineCheck;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.AuxCounters;
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
 * The JMH benchmark: every thread logs the same INFO line ({@link Workload}) through one peer, and
 * at the end the fork checks the lines in the peer's file against the calls made ({@link Trial#finish})
 * and reports both as JMH auxiliary counters ({@link Lines}), which the runner reads from JMH's
 * results. One fork per peer, so each JVM configures one framework only.
 *
 * <p>Run it through {@code BenchmarkRunner}; the annotations here are defaults for running it with
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

    private final List<Lines> threads = new CopyOnWriteArrayList<>();

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
    public void log(Lines lines) {
        sink.log(message);
        lines.calls++;
    }

    /**
     * Stops the peer, counts its lines and hands the counts to one thread's {@link Lines}. JMH runs a
     * benchmark-scoped tear-down after every thread has left its loop (so each thread's {@code calls}
     * is final and visible here), and reads the counters afterwards.
     */
    @TearDown(Level.Trial)
    public void stop(BenchmarkParams params) throws IOException {
        long accepted = threads.stream().mapToLong(t -> t.calls).sum();
        LineCheck check = trial.finish(params.getMode().shortLabel(), params.getThreads(), accepted);
        threads.get(0).report(check);
    }

    /**
     * One thread's calls, and the fork's line check reported through it as JMH counters. JMH reads
     * the public fields at the end of every iteration and sums them over threads, iterations and forks;
     * they stay 0 until the last iteration's tear-down sets them in one thread, so each sum is the
     * fork's figure (over forks, their total).
     */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.EVENTS)
    public static class Lines {

        /** Calls this thread made, warm-up included: only this thread writes it. */
        long calls;

        /** Calls of all threads, warm-up included. */
        public long accepted;
        /** Complete lines in the peer's file; -1 for a peer that writes no file. */
        public long written;
        /** Bytes in the peer's file. */
        public long fileBytes;
        /** NUL bytes in the peer's file. */
        public long nulBytes;

        @Setup(Level.Trial)
        public void register(AppenderBenchmark benchmark, ThreadParams thread) {
            Thread.currentThread().setName(Workload.threadName(thread.getThreadIndex()));
            benchmark.threads.add(this);
        }

        void report(LineCheck check) {
            accepted = check.accepted();
            written = check.written();
            fileBytes = check.bytes();
            nulBytes = check.nulBytes();
        }
    }
}
