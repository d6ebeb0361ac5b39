package io.github.lockfreelog.benchmarks;

import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.HdrHistogram.Histogram;

/**
 * The JVM of one latency point: configures one peer ({@link Trial}), runs {@code threads} paced
 * callers ({@link PacedLoop}) that share {@code rate} events per second, checks the lines, writes
 * its {@link LatencyPoint} as a one-row table and appends its histogram to the run's HdrHistogram log. The runner starts one per peer, rate and thread count, as JMH starts
 * one fork per peer, so a JVM only ever configures one framework.
 *
 * <pre>
 * java -cp benchmarks.jar io.github.lockfreelog.benchmarks.LatencyFork peer=lockfreelog rate=100000 threads=1 \
 *     lineSize=150 warmupMillis=3000 measureMillis=6000 graceMillis=1000 out=point.tsv \
 *     histograms=run-latency.hlog tag=lockfreelog-100k-1t-1
 * </pre>
 */
public final class LatencyFork {

    /** Time between starting the callers and their first scheduled call, so that all start on schedule. */
    static final long START_DELAY_NANOS = TimeUnit.MILLISECONDS.toNanos(200);

    /** The settings of one fork, as {@code key=value} arguments. */
    record Settings(Peer peer, long rate, int threads, int lineSize, long warmupMillis, long measureMillis,
            long graceMillis, Path out, Path histograms, String tag) {

        static Settings parse(String[] args) {
            Map<String, String> values = new LinkedHashMap<>();
            for (String arg : args) {
                int eq = arg.indexOf('=');
                if (eq <= 0) {
                    throw new IllegalArgumentException("want key=value, got: " + arg);
                }
                values.put(arg.substring(0, eq), arg.substring(eq + 1));
            }
            try {
                return new Settings(Peer.of(required(values, "peer")), Long.parseLong(required(values, "rate")),
                        Integer.parseInt(required(values, "threads")), Integer.parseInt(required(values, "lineSize")),
                        Long.parseLong(required(values, "warmupMillis")), Long.parseLong(required(values, "measureMillis")),
                        Long.parseLong(required(values, "graceMillis")), Paths.get(required(values, "out")),
                        Paths.get(required(values, "histograms")), required(values, "tag"));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("not a number: " + e.getMessage(), e);
            }
        }

        private static String required(Map<String, String> values, String key) {
            String value = values.get(key);
            if (value == null) {
                throw new IllegalArgumentException("missing " + key + "=..., have " + values.keySet());
            }
            return value;
        }

        /** The arguments that {@link #parse} reads back into these settings. */
        List<String> arguments() {
            return List.of("peer=" + peer.id(), "rate=" + rate, "threads=" + threads, "lineSize=" + lineSize,
                    "warmupMillis=" + warmupMillis, "measureMillis=" + measureMillis, "graceMillis=" + graceMillis,
                    "out=" + out, "histograms=" + histograms, "tag=" + tag);
        }
    }

    private LatencyFork() {
    }

    public static void main(String[] args) throws Exception {
        Settings settings = Settings.parse(args);
        LatencyResults.writePoint(run(settings), settings.out());
        System.exit(0); // a framework's non-daemon thread must not keep the fork alive
    }

    static LatencyPoint run(Settings s) throws IOException, InterruptedException {
        String message = Workload.message(s.lineSize());
        Trial trial = Trial.open(s.peer(), s.lineSize());
        Sink sink = trial.sink();
        Runnable call = () -> sink.log(message);
        long origin = System.nanoTime() + START_DELAY_NANOS;
        Histogram[] latencies = new Histogram[s.threads()];
        PacedLoop.Outcome[] outcomes = new PacedLoop.Outcome[s.threads()];
        AtomicReference<Throwable> failure = new AtomicReference<>();
        CountDownLatch sampled = new CountDownLatch(1);
        List<Thread> callers = new ArrayList<>();
        for (int i = 0; i < s.threads(); i++) {
            int index = i;
            latencies[i] = PacedLoop.newHistogram();
            PacedLoop.Schedule schedule = new PacedLoop.Schedule(origin, s.rate(), s.threads(), index,
                    TimeUnit.MILLISECONDS.toNanos(s.warmupMillis()), TimeUnit.MILLISECONDS.toNanos(s.measureMillis()),
                    TimeUnit.MILLISECONDS.toNanos(s.graceMillis()));
            Thread caller = new Thread(() -> {
                outcomes[index] = PacedLoop.realTime().run(schedule, call, latencies[index]);
                awaitQuietly(sampled); // alive until the window's end is sampled: its scheduling counts go with it
            }, Workload.threadName(index));
            caller.setUncaughtExceptionHandler((thread, e) -> failure.compareAndSet(null, e));
            callers.add(caller);
        }
        callers.forEach(Thread::start);
        long measureFrom = origin + TimeUnit.MILLISECONDS.toNanos(s.warmupMillis());
        Disturbances disturbances;
        long startMillis;
        try {
            sleepUntil(measureFrom);
            startMillis = System.currentTimeMillis();
            Set<String> callerNames = callers.stream().map(Thread::getName).collect(Collectors.toSet());
            Disturbances atStart = Disturbances.sample(callerNames);
            sleepUntil(measureFrom + TimeUnit.MILLISECONDS.toNanos(s.measureMillis()));
            disturbances = Disturbances.sample(callerNames).since(atStart);
        } finally {
            sampled.countDown();
        }
        for (Thread caller : callers) {
            caller.join(); // also publishes the caller's histogram and outcome to this thread
        }
        if (failure.get() != null) {
            throw new IllegalStateException("a caller failed", failure.get());
        }
        Histogram all = PacedLoop.newHistogram();
        long made = 0;
        long measured = 0;
        long missed = 0;
        for (int i = 0; i < s.threads(); i++) {
            all.add(latencies[i]);
            made += outcomes[i].made();
            measured += outcomes[i].recorded();
            missed += outcomes[i].missed();
        }
        LineCheck lines = trial.finish("latency@" + s.rate(), s.threads(), made);
        LatencyResults.appendHistogram(s.histograms(), s.tag(), all, startMillis, startMillis + s.measureMillis());
        LatencyPoint point = new LatencyPoint(s.peer().id(), s.rate(), s.threads(), s.lineSize(), s.warmupMillis(),
                s.measureMillis(), made, measured, missed, LatencyPoint.Percentiles.of(all), lines, s.tag(), disturbances);
        System.out.println("[latency] peer=" + point.peer() + " rate=" + point.rate() + " threads=" + point.threads()
                + " nanos " + LatencyPoint.Percentiles.LABELS + "=" + point.latency().values()
                + (point.behind() ? " BEHIND: " + missed + " calls never made" : "") + " gc/steal: " + disturbances.text());
        return point;
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Sleeps (this thread only samples; it makes no calls) until {@code deadline} of {@link System#nanoTime()}. */
    private static void sleepUntil(long deadline) throws InterruptedException {
        for (long left; (left = deadline - System.nanoTime()) > 0; ) {
            TimeUnit.NANOSECONDS.sleep(left);
        }
    }
}
