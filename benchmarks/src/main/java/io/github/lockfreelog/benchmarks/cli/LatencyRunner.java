package io.github.lockfreelog.benchmarks.cli;

import io.github.lockfreelog.benchmarks.jmh.LatencyBenchmark;
import io.github.lockfreelog.benchmarks.measure.SlowCalls;
import io.github.lockfreelog.benchmarks.measure.Trial;
import io.github.lockfreelog.benchmarks.peers.BootLogging;
import io.github.lockfreelog.benchmarks.peers.Peer;
import io.github.lockfreelog.benchmarks.peers.Workload;
import io.github.lockfreelog.benchmarks.results.Counters;
import io.github.lockfreelog.benchmarks.results.Disturbances;
import io.github.lockfreelog.benchmarks.results.Format;
import io.github.lockfreelog.benchmarks.results.LatencyPoint;
import io.github.lockfreelog.benchmarks.results.LatencyResults;
import io.github.lockfreelog.benchmarks.results.LineCheck;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.HdrHistogram.Histogram;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Runs the latency points of a {@link Plan} under JMH, one {@link LatencyBenchmark} fork per peer, rate,
 * thread count and round, and gathers each point from JMH's counters and the histogram the fork
 * appended to the run's HdrHistogram log. The run's table is rewritten after every round, so an
 * interrupted run keeps what it measured. Peers take turns within each round.
 */
public final class LatencyRunner {

    /** Seconds a fork may take beyond its schedule and grace before JMH gives up on it (Log4j2's stop alone may wait 60). */
    static final int FORK_TIMEOUT_MARGIN_SECONDS = 120;

    /**
     * Heap of every fork, JMH's throughput forks included. The young generation is fixed: G1 sizes it
     * adaptively and reaches its steady size only after a few collections, which a peer that allocates
     * a lot makes during the warm-up and a peer that allocates little makes in the measured window,
     * where each adds a pause of several milliseconds to its tail. With a fixed size, collections
     * follow each peer's allocation alone.
     */
    public static final List<String> FORK_JVM_ARGS = List.of("-Xms1g", "-Xmx1g", "-Xmn512m");

    private final PrintStream out;

    LatencyRunner(PrintStream out) {
        this.out = out;
    }

    /**
     * The runner's own settings for forks, as system properties: where they write their logs, whether to keep them,
     * the workload ({@value Workload#PROPERTY}), the Spring Boot properties of a boot-* workload, and the OTLP receiver
     * of the run ({@value Peer#OTLP_RECEIVER_PROPERTY}).
     */
    static List<String> forkProperties() {
        Stream<String> boot = System.getProperties().stringPropertyNames().stream()
                .filter(p -> p.startsWith(BootLogging.PROPERTY_PREFIX)).sorted();
        List<String> properties = Stream.concat(Stream.of(Trial.DIRECTORY_PROPERTY, Trial.KEEP_FILES_PROPERTY,
                Workload.PROPERTY, SlowCalls.PROPERTY, Peer.OTLP_RECEIVER_PROPERTY), boot)
                .filter(p -> System.getProperty(p) != null).map(p -> "-D" + p + "=" + System.getProperty(p)).toList();
        if (System.getProperty(SlowCalls.PROPERTY) == null) {
            return properties;
        }
        List<String> diagnosis = new ArrayList<>(properties);
        diagnosis.add("--add-exports=java.management/sun.management=ALL-UNNAMED"); // SlowCalls reads the safepoint count
        // the heap's pages touched at start: else the callers' first touches of new heap pages (thousands a second,
        // with Logback's 120 bytes an event) are faults of their own, and every slow call would find some
        diagnosis.add("-XX:+AlwaysPreTouch");
        return diagnosis;
    }

    /** Runs every point of {@code plan} for {@code peers}; a peer whose fork gave no result is recorded as failed. */
    LatencyResults.Run run(Plan.Latency plan, List<String> peers, Path tsv, String environment) throws IOException, RunnerException {
        List<LatencyPoint> points = new ArrayList<>();
        List<LatencyResults.Failure> failures = new ArrayList<>();
        Path histograms = LatencyResults.histogramsFor(tsv).toAbsolutePath();
        LatencyResults.startHistogramLog(histograms);
        for (long rate : plan.rates()) {
            for (int threads : plan.threads()) {
                for (int round = 1; round <= plan.forks(); round++) {
                    out.printf(Locale.ROOT, "%n==== latency: %s events/s, %d thread(s), peers %s, fork %d of %d ====%n",
                            Format.rate(rate), threads, peers, round, plan.forks());
                    Collection<RunResult> runs = new Runner(options(plan, peers, rate, threads, round, histograms)).run();
                    Map<String, Histogram> measured = LatencyResults.readHistograms(histograms);
                    for (String peer : peers) {
                        String tag = LatencyPoint.tag(peer, rate, threads, round);
                        RunResult run = runs.stream().filter(r -> r.getParams().getParam("peer").equals(peer)).findFirst()
                                .orElse(null);
                        LatencyPoint point = run == null || !measured.containsKey(tag) ? null : point(run, measured.get(tag), tag);
                        if (point != null) {
                            points.add(point);
                        } else {
                            failures.add(new LatencyResults.Failure(peer, rate, threads));
                            out.printf(Locale.ROOT, "[latency] peer=%s rate=%d threads=%d FAILED: no result%n", peer, rate,
                                    threads);
                        }
                    }
                    LatencyResults.write(new LatencyResults.Run(environment, points, failures), tsv);
                }
            }
        }
        return new LatencyResults.Run(environment, points, failures);
    }

    /** One round of one rate and thread count: a fork per peer, one invocation each, with the forks' heap and settings. */
    static Options options(Plan.Latency plan, List<String> peers, long rate, int threads, int round, Path histograms) {
        List<String> jvmArgs = new ArrayList<>(FORK_JVM_ARGS);
        jvmArgs.addAll(forkProperties());
        jvmArgs.add("-D" + LatencyBenchmark.HISTOGRAMS_PROPERTY + "=" + histograms);
        return new OptionsBuilder()
                .include(LatencyBenchmark.class.getName() + ".callOnSchedule$")
                .param("peer", peers.toArray(String[]::new))
                .param("rate", Long.toString(rate))
                .param("lineSize", Integer.toString(Workload.DEFAULT_LINE_SIZE))
                .param("warmupMillis", Long.toString(plan.warmupSeconds() * 1000L))
                .param("measureMillis", Long.toString(plan.measureSeconds() * 1000L))
                .param("graceMillis", Long.toString(plan.graceSeconds() * 1000L))
                .param("round", Integer.toString(round))
                .threads(threads)
                .forks(1)
                .warmupIterations(0)
                .measurementIterations(1)
                .timeout(TimeValue.seconds(plan.warmupSeconds() + plan.measureSeconds() + plan.graceSeconds()
                        + FORK_TIMEOUT_MARGIN_SECONDS))
                .jvmArgsAppend(jvmArgs.toArray(String[]::new))
                .shouldFailOnError(false) // one broken peer must not hide the others; its row says FAILED
                .build();
    }

    /** The point of one fork: its parameters and counters from JMH, its percentiles from its histogram; null without counters. */
    static LatencyPoint point(RunResult run, Histogram histogram, String tag) {
        BenchmarkParams params = run.getParams();
        try {
            long made = Counters.of(run, "made");
            return new LatencyPoint(params.getParam("peer"), Long.parseLong(params.getParam("rate")), params.getThreads(),
                    Integer.parseInt(params.getParam("lineSize")), Long.parseLong(params.getParam("warmupMillis")),
                    Long.parseLong(params.getParam("measureMillis")), made, Counters.of(run, "measured"),
                    Counters.of(run, "missed"), LatencyPoint.Percentiles.of(histogram),
                    new LineCheck(made, Counters.of(run, "written"), Counters.of(run, "fileBytes"), Counters.of(run, "nulBytes")),
                    tag, new Disturbances(Counters.of(run, "gcPauses"), Counters.of(run, "gcPauseMillis"),
                            Counters.of(run, "stealMillis"), Counters.of(run, "callerPreemptions"),
                            Counters.of(run, "callerWaitMicros")));
        } catch (IllegalArgumentException e) {
            return null; // its fork failed before the counters were set
        }
    }
}
