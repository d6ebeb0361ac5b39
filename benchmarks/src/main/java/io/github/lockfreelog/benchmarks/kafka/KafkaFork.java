package io.github.lockfreelog.benchmarks.kafka;

import io.github.lockfreelog.benchmarks.jmh.LatencyBenchmark;
import io.github.lockfreelog.benchmarks.measure.Meters;
import io.github.lockfreelog.benchmarks.measure.PacedLoop;
import io.github.lockfreelog.benchmarks.peers.LineCounter;
import io.github.lockfreelog.benchmarks.peers.Sink;
import io.github.lockfreelog.benchmarks.peers.Workload;
import io.github.lockfreelog.benchmarks.results.Disturbances;
import io.github.lockfreelog.benchmarks.results.LatencyPoint;
import io.github.lockfreelog.benchmarks.results.LatencyResults;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.HdrHistogram.Histogram;

/**
 * The {@code main} of one measurement of the kafka mode, in a JVM of its own: one peer ({@link KafkaPeer}) at one
 * thread count, configured with {@link KafkaSinks}, its settings in system properties ({@value #PREFIX}*) given by
 * {@link KafkaRunner}. Its figures go to a result file of {@code key=value} lines; the runner counts the records in
 * the topics afterwards (a file reference counts its own file here).
 *
 * <p>A {@code throughput} fork runs two trials of the peer, each a fresh start of the framework on a topic of its
 * own, stopped (and so flushed) at its end, every stop given {@value #STOP_SECONDS} s:
 * <ol>
 *   <li>paced (topic {@code pacedTopic}): the callers log bursts of {@value #BURST} calls, the bursts due at
 *       {@code rate} calls per second all callers together, for {@code warmupMillis} (the warm-up: the JIT compiles
 *       the paths) and then {@code pacedMillis}, each caller reading its own CPU time around each burst of the
 *       latter: the caller's CPU per call while the peer keeps up, which the file appender's is compared with;</li>
 *   <li>measured (topic {@code topic}): the callers log back to back for {@code measureMillis}; the window runs from
 *       the first call until the framework's stop returned, so that the records still buffered at the end are
 *       delivered within it: process CPU time, the broker's CPU time, and the callers' CPU time over their loop.</li>
 * </ol>
 *
 * <p>A {@code latency} fork makes one call (so that a producer made at the first call is not timed), then runs
 * {@link PacedLoop} from each caller at {@code rate} events per second together (warm-up, measured window, grace),
 * as the latency mode does, and appends the callers' histogram to the run's HdrHistogram log.
 */
public final class KafkaFork {

    static final String PREFIX = "lockfreelog.kafka.";
    /** Prefix of the producer settings handed to the peers ({@code --producer-property}). */
    static final String PRODUCER_PREFIX = PREFIX + "producer.";
    /** Calls per burst in the paced trial. */
    static final int BURST = 1_000;
    /** Seconds every peer's stop may take (lockfreelog's default stopTimeout); then the fork goes on without it. */
    static final int STOP_SECONDS = 10;
    /**
     * Calls between two readings of the clock in a back-to-back loop: fewer than the cost mode's 128, as a blocking
     * peer's call may take milliseconds (about 1.5 ns more per call for every peer).
     */
    static final int CALLS_PER_CLOCK_READ = 16;

    private final KafkaPeer peer;
    private final int threads;
    private final Path directory;
    private final String message = Workload.message(Workload.DEFAULT_LINE_SIZE);
    private final KafkaCallers callers;
    private final Map<String, String> producerProperties = new LinkedHashMap<>();
    private final Map<String, String> result = new LinkedHashMap<>();

    private KafkaFork() {
        peer = KafkaPeer.of(required("peer"));
        threads = Integer.parseInt(required("threads"));
        directory = Paths.get(required("directory"));
        callers = new KafkaCallers(threads, message);
        System.getProperties().stringPropertyNames().stream().filter(p -> p.startsWith(PRODUCER_PREFIX)).sorted()
                .forEach(p -> producerProperties.put(p.substring(PRODUCER_PREFIX.length()), System.getProperty(p)));
    }

    public static void main(String[] args) throws Exception {
        KafkaFork fork = new KafkaFork();
        String kind = required("kind");
        switch (kind) {
            case "throughput" -> fork.throughput();
            case "latency" -> fork.latency();
            default -> throw new IllegalArgumentException(PREFIX + "kind must be throughput or latency, got " + kind);
        }
        StringBuilder text = new StringBuilder();
        fork.result.forEach((k, v) -> text.append(k).append('=').append(v.replace('\n', ' ')).append('\n'));
        Files.writeString(Paths.get(required("result")), text, StandardCharsets.UTF_8);
        System.out.println("[kafka] peer=" + fork.peer.id() + " kind=" + kind + " threads=" + fork.threads + " "
                + fork.result.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(" ")));
        System.exit(0); // the Kafka client's and Log4j2's threads are not all daemons
    }

    private void throughput() throws Exception {
        long warmupMillis = Long.parseLong(required("warmupMillis"));
        long pacedMillis = Long.parseLong(required("pacedMillis"));
        long measureMillis = Long.parseLong(required("measureMillis"));
        long rate = Long.parseLong(required("rate"));
        long brokerPid = Long.getLong(PREFIX + "brokerPid", -1);

        Sink paced = open(required("pacedTopic"), "paced");
        prime(paced);
        long origin = System.nanoTime() + millis(100);
        long measureFrom = origin + millis(warmupMillis);
        List<long[]> bursts = callers.run(i -> callers.bursts(paced, origin, rate, i, measureFrom, measureFrom + millis(pacedMillis)));
        String pacedStop = stopWithin(paced);
        long pacedMade = sum(bursts, 2) + 1; // and the priming call
        result.put("pacedDetails", join(paced.details(), pacedStop));
        result.put("pacedMade", Long.toString(pacedMade));
        result.put("pacedCalls", Long.toString(sum(bursts, 0)));
        result.put("pacedCallerCpuNanos", Long.toString(sum(bursts, 1)));
        finishFile(paced, "paced", pacedMade);

        Sink measured = open(required("topic"), "measured");
        long[] window = new long[3];
        CyclicBarrier start = new CyclicBarrier(threads, () -> {
            window[0] = System.nanoTime();
            window[1] = Meters.processCpuNanos();
            window[2] = brokerCpuNanos(brokerPid);
        });
        List<long[]> loops = callers.run(i -> {
            await(start);
            long cpu = Meters.currentThreadCpuNanos();
            long calls = callers.loop(measured, window[0] + millis(measureMillis));
            return new long[] {calls, Meters.currentThreadCpuNanos() - cpu, System.nanoTime()};
        });
        long callersEnd = loops.stream().mapToLong(l -> l[2]).max().orElse(window[0]);
        String measuredStop = stopWithin(measured);
        long end = System.nanoTime();
        long processCpu = Meters.processCpuNanos() - window[1];
        long brokerCpu = window[2] < 0 ? -1 : brokerCpuNanos(brokerPid) - window[2];
        result.put("calls", Long.toString(sum(loops, 0)));
        result.put("callerCpuNanos", Long.toString(sum(loops, 1)));
        result.put("callersNanos", Long.toString(callersEnd - window[0]));
        result.put("deliveryNanos", Long.toString(end - window[0]));
        result.put("processCpuNanos", Long.toString(processCpu));
        result.put("brokerCpuNanos", Long.toString(brokerCpu < 0 ? -1 : brokerCpu));
        finishFile(measured, "measured", sum(loops, 0));
        result.put("details", join(measured.details(), measuredStop));
    }

    /**
     * Stops the peer (which flushes what it accepted), waiting at most {@value #STOP_SECONDS} s, lockfreelog's
     * default {@code stopTimeout}, for every peer alike; returns a note when the stop was still running then (it goes
     * on meanwhile; what it has not delivered when the fork exits is not in the topic).
     */
    private static String stopWithin(Sink sink) throws InterruptedException {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread stop = new Thread(() -> {
            try {
                sink.stop();
            } catch (Throwable t) {
                failure.set(t);
            }
        }, "peer-stop");
        stop.setDaemon(true);
        stop.start();
        stop.join(TimeUnit.SECONDS.toMillis(STOP_SECONDS) + 500);
        if (stop.isAlive()) {
            return "stop=\"still running after " + STOP_SECONDS + " s\"";
        }
        return failure.get() == null ? "" : "stop=\"failed: " + failure.get().toString().replace('"', '\'') + "\"";
    }

    /**
     * One call before a paced schedule, counted as made, and the peer's set-up after it: a producer made at the first
     * call (logback-kafka-appender), the first fetch of the topic's metadata (every Kafka peer), and lockfreelog-kafka's
     * sink set up on its drainer ({@link Sink#awaitReady}) fall outside the schedule.
     */
    private void prime(Sink sink) throws InterruptedException {
        sink.log(message);
        sink.awaitReady(TimeUnit.SECONDS.toNanos(60));
    }

    private static String join(String a, String b) {
        return a.isEmpty() ? b : b.isEmpty() ? a : a + " " + b;
    }

    private void latency() throws Exception {
        long rate = Long.parseLong(required("rate"));
        long warmupMillis = Long.parseLong(required("warmupMillis"));
        long measureMillis = Long.parseLong(required("measureMillis"));
        long graceMillis = Long.parseLong(required("graceMillis"));
        long spinNanos = TimeUnit.MICROSECONDS.toNanos(Long.parseLong(required("spinMicros")));
        Sink sink = open(required("topic"), "latency");
        prime(sink);
        long origin = System.nanoTime() + LatencyBenchmark.START_DELAY_NANOS;
        Set<String> names = IntStream.range(0, threads).mapToObj(Workload::threadName).collect(Collectors.toSet());
        AtomicReference<Disturbances> disturbances = new AtomicReference<>(new Disturbances(-1, -1, -1));
        long[] windowStartMillis = new long[1];
        CountDownLatch sampled = new CountDownLatch(1); // the callers live until then: the sampler reads their threads
        Thread sampler = new Thread(() -> {
            try {
                long from = origin + millis(warmupMillis);
                sleepUntil(from);
                windowStartMillis[0] = System.currentTimeMillis();
                Disturbances atStart = Disturbances.sample(names);
                sleepUntil(from + millis(measureMillis));
                disturbances.set(Disturbances.sample(names).since(atStart));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                sampled.countDown();
            }
        }, "disturbance-sampler");
        sampler.setDaemon(true);
        sampler.start();
        List<Histogram> histograms = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            histograms.add(PacedLoop.newHistogram());
        }
        Runnable call = () -> sink.log(message);
        List<long[]> outcomes = callers.run(i -> {
            PacedLoop.Outcome o = PacedLoop.realTime(spinNanos).run(new PacedLoop.Schedule(origin, rate, threads, i,
                    millis(warmupMillis), millis(measureMillis), millis(graceMillis)), call, histograms.get(i));
            try {
                sampled.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return new long[] {o.made(), o.recorded(), o.missed()};
        });
        sampler.join();
        String stopped = stopWithin(sink);
        Histogram all = PacedLoop.newHistogram();
        histograms.forEach(all::add);
        long made = sum(outcomes, 0) + 1; // and the priming call
        finishFile(sink, "latency", made);
        String tag = required("tag");
        LatencyResults.appendHistogram(Paths.get(required("histograms")), tag, all, windowStartMillis[0],
                windowStartMillis[0] + measureMillis);
        Disturbances d = disturbances.get();
        result.put("made", Long.toString(made));
        result.put("measured", Long.toString(sum(outcomes, 1)));
        result.put("missed", Long.toString(sum(outcomes, 2)));
        result.put("gcPauses", Long.toString(d.gcPauses()));
        result.put("gcPauseMillis", Long.toString(d.gcPauseMillis()));
        result.put("stealMillis", Long.toString(d.stealMillis()));
        result.put("callerPreemptions", Long.toString(d.callerPreemptions()));
        result.put("callerWaitMicros", Long.toString(d.callerWaitMicros()));
        result.put("tag", tag);
        result.put("details", join(sink.details(), stopped));
        System.out.println("[latency] peer=" + peer.id() + " rate=" + rate + " threads=" + threads + " nanos "
                + LatencyPoint.Percentiles.LABELS + "=" + LatencyPoint.Percentiles.of(all).values()
                + (sum(outcomes, 2) > 0 ? " BEHIND: calls never made" : "") + " gc/steal: " + d.text());
    }

    private Sink open(String topic, String trial) throws IOException {
        Path folder = Files.createDirectories(directory.resolve(trial));
        return KafkaSinks.open(peer, new KafkaSinks.Target(required("bootstrap"), topic, producerProperties), folder);
    }

    /** The file reference's line check of one trial, {@code <trial>.written} and {@code .bytes}; nothing for a Kafka peer. */
    private void finishFile(Sink sink, String trial, long accepted) throws IOException {
        if (sink.logFile() == null) {
            return;
        }
        LineCounter.Count count = sink.count();
        result.put(trial + ".written", Long.toString(count.lines()));
        result.put(trial + ".bytes", Long.toString(count.bytes()));
        result.put(trial + ".nulBytes", Long.toString(count.nulBytes()));
        if (count.lines() != accepted) {
            System.out.println("[lines] peer=" + peer.id() + " trial=" + trial + " accepted=" + accepted + " written="
                    + count.lines());
        }
        Files.deleteIfExists(sink.logFile()); // a few hundred MB on /dev/shm
    }

    /** utime + stime of the broker's process, from {@code /proc/PID/stat}; -1 where that cannot be read. */
    static long brokerCpuNanos(long pid) {
        if (pid <= 0) {
            return -1;
        }
        try {
            return Meters.procStatCpuNanos(Files.readString(Paths.get("/proc", Long.toString(pid), "stat"),
                    StandardCharsets.US_ASCII));
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    private static long sum(List<long[]> values, int index) {
        return values.stream().mapToLong(v -> v[index]).sum();
    }

    private static long millis(long millis) {
        return TimeUnit.MILLISECONDS.toNanos(millis);
    }

    private static void await(CyclicBarrier barrier) {
        try {
            barrier.await();
        } catch (Exception e) {
            throw new IllegalStateException("the callers' start barrier broke", e);
        }
    }

    private static void sleepUntil(long deadline) throws InterruptedException {
        for (long left; (left = deadline - System.nanoTime()) > 0; ) {
            TimeUnit.NANOSECONDS.sleep(left);
        }
    }

    private static String required(String name) {
        String value = System.getProperty(PREFIX + name);
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("system property " + PREFIX + name + " is required");
        }
        return value;
    }
}
