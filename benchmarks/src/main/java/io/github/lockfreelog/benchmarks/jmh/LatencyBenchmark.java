package io.github.lockfreelog.benchmarks.jmh;

import io.github.lockfreelog.benchmarks.measure.PacedLoop;
import io.github.lockfreelog.benchmarks.measure.SlowCalls;
import io.github.lockfreelog.benchmarks.measure.Trial;
import io.github.lockfreelog.benchmarks.peers.Peer;
import io.github.lockfreelog.benchmarks.peers.Sink;
import io.github.lockfreelog.benchmarks.peers.Workload;
import io.github.lockfreelog.benchmarks.results.Disturbances;
import io.github.lockfreelog.benchmarks.results.LatencyPoint;
import io.github.lockfreelog.benchmarks.results.LatencyResults;
import io.github.lockfreelog.benchmarks.results.LineCheck;
import java.io.IOException;
import java.nio.file.Paths;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.HdrHistogram.Histogram;
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
 * The JMH benchmark of one latency point: every JMH thread calls the peer on a paced schedule
 * ({@link PacedLoop}, once, in {@link Mode#SingleShotTime}), the callers sharing {@code rate} events
 * per second, while a sampler thread records the {@link Disturbances} of the measured window.
 *
 * <p>At the end the fork checks the lines ({@link Trial#finish}), appends the callers' histogram to
 * the run's HdrHistogram log (system property {@value #HISTOGRAMS_PROPERTY}) and reports its counts
 * as JMH counters ({@link Caller}). JMH's own score (the time of the one invocation) means nothing
 * here; {@code LatencyRunner} reads the counters and the histogram.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
public class LatencyBenchmark {

    /** System property naming the HdrHistogram log the fork appends its histogram to; without it, it only prints. */
    public static final String HISTOGRAMS_PROPERTY = "lockfreelog.bench.histograms";

    /** Time between setting up and the first scheduled call, so that every caller starts on schedule. */
    public static final long START_DELAY_NANOS = TimeUnit.MILLISECONDS.toNanos(200);

    @Param("lockfreelog")
    public String peer;

    /** Events per second, all callers together. */
    @Param("100000")
    public long rate;

    @Param("150")
    public int lineSize;

    @Param("3000")
    public long warmupMillis;

    @Param("5000")
    public long measureMillis;

    /** How long a caller that fell behind may keep catching up after the schedule ends. */
    @Param("2000")
    public long graceMillis;

    /** Which repetition of the point this is (it names the histogram). */
    @Param("1")
    public int round;

    private final List<Caller> callers = new CopyOnWriteArrayList<>();
    private Trial trial;
    private Runnable call;
    private long origin;
    private Thread sampler;
    private volatile Disturbances disturbances = new Disturbances(-1, -1, -1);
    private volatile long windowStartMillis;

    @Setup(Level.Trial)
    public void start(BenchmarkParams params) throws IOException {
        String message = Workload.message(lineSize);
        trial = Trial.open(Peer.of(peer), lineSize);
        Sink sink = trial.sink();
        call = () -> sink.log(message);
        origin = System.nanoTime() + START_DELAY_NANOS;
        Set<String> names = IntStream.range(0, params.getThreads()).mapToObj(Workload::threadName)
                .collect(Collectors.toSet());
        sampler = new Thread(() -> sample(names), "disturbance-sampler");
        sampler.setDaemon(true);
        sampler.start();
    }

    /** Sleeps (it makes no calls) to the start and the end of the measured window and samples at each. */
    private void sample(Set<String> callerNames) {
        long from = origin + TimeUnit.MILLISECONDS.toNanos(warmupMillis);
        try {
            sleepUntil(from);
            windowStartMillis = System.currentTimeMillis();
            Disturbances atStart = Disturbances.sample(callerNames);
            sleepUntil(from + TimeUnit.MILLISECONDS.toNanos(measureMillis));
            disturbances = Disturbances.sample(callerNames).since(atStart);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Benchmark
    public void callOnSchedule(Caller caller) {
        PacedLoop.Schedule schedule = new PacedLoop.Schedule(origin, rate, caller.threads, caller.index,
                TimeUnit.MILLISECONDS.toNanos(warmupMillis), TimeUnit.MILLISECONDS.toNanos(measureMillis),
                TimeUnit.MILLISECONDS.toNanos(graceMillis));
        PacedLoop.Outcome outcome = PacedLoop.realTime().run(schedule, call, caller.latencies, caller.slow);
        caller.made = outcome.made();
        caller.measured = outcome.recorded();
        caller.missed = outcome.missed();
    }

    /**
     * After every caller has returned (JMH's tear-down barrier publishes their fields): stops the peer,
     * checks its lines, appends the histogram and hands the fork's counts to the first caller.
     */
    @TearDown(Level.Trial)
    public void stop() throws IOException, InterruptedException {
        sampler.join(); // the callers are alive until then (JMH's threads outlive the invocation)
        Histogram all = PacedLoop.newHistogram();
        callers.forEach(c -> all.add(c.latencies));
        LineCheck lines = trial.finish("latency@" + rate, callers.size(), callers.stream().mapToLong(c -> c.made).sum());
        String tag = LatencyPoint.tag(peer, rate, callers.size(), round);
        String log = System.getProperty(HISTOGRAMS_PROPERTY); // absent when run from JMH's own command line
        if (log != null) {
            LatencyResults.appendHistogram(Paths.get(log), tag, all, windowStartMillis, windowStartMillis + measureMillis);
        }
        Caller first = callers.stream().min(Comparator.comparingInt(c -> c.index)).orElseThrow();
        if (first.slow != null) {
            System.out.println("[slow-calls] peer=" + peer + " rate=" + rate + " threads=" + callers.size() + " "
                    + SlowCalls.sum(callers.stream().map(c -> c.slow).toList()).text());
        }
        first.report(lines, disturbances);
        System.out.println("[latency] peer=" + peer + " rate=" + rate + " threads=" + callers.size() + " nanos "
                + LatencyPoint.Percentiles.LABELS + "=" + LatencyPoint.Percentiles.of(all).values()
                + (callers.stream().anyMatch(c -> c.missed > 0) ? " BEHIND: calls never made" : "")
                + " gc/steal: " + disturbances.text());
    }

    private static void sleepUntil(long deadline) throws InterruptedException {
        for (long left; (left = deadline - System.nanoTime()) > 0; ) {
            TimeUnit.NANOSECONDS.sleep(left);
        }
    }

    /**
     * One caller: its histogram, and what it did as JMH counters (summed over the callers); the fork's
     * line check and disturbances go into the first caller's counters only, at the tear-down.
     */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.EVENTS)
    public static class Caller {

        final Histogram latencies = PacedLoop.newHistogram();
        /** The slow-call diagnosis of this caller, when the run asked for one ({@link SlowCalls#PROPERTY}). */
        SlowCalls slow;
        int index;
        int threads;

        /** Calls made, warm-up included. */
        public long made;
        /** Calls made in the measured window, each recorded. */
        public long measured;
        /** Calls due that were never made (recorded as lower bounds). */
        public long missed;
        public long written;
        public long fileBytes;
        public long nulBytes;
        public long gcPauses;
        public long gcPauseMillis;
        public long stealMillis;
        public long callerPreemptions;
        public long callerWaitMicros;

        @Setup(Level.Trial)
        public void register(LatencyBenchmark benchmark, ThreadParams thread) throws IOException {
            index = thread.getThreadIndex();
            threads = thread.getThreadCount();
            Thread.currentThread().setName(Workload.threadName(index));
            slow = SlowCalls.ifAsked(benchmark.trial.sink().bufferProbe());
            benchmark.callers.add(this);
        }

        void report(LineCheck lines, Disturbances d) {
            written = lines.written();
            fileBytes = lines.bytes();
            nulBytes = lines.nulBytes();
            gcPauses = d.gcPauses();
            gcPauseMillis = d.gcPauseMillis();
            stealMillis = d.stealMillis();
            callerPreemptions = d.callerPreemptions();
            callerWaitMicros = d.callerWaitMicros();
        }
    }
}
