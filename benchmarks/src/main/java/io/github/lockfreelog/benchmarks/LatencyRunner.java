package io.github.lockfreelog.benchmarks;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Runs a {@link Plan} of latency points, one {@link LatencyFork} JVM per peer, rate and thread count,
 * and gathers their results into the run's table (rewritten after every point, so an interrupted run
 * keeps what it measured) and histogram log (which the forks append to). Peers take turns within each
 * rate and thread count.
 */
final class LatencyRunner {

    /** Seconds a fork takes beyond its schedule: JVM start, configuring the peer, stopping, counting lines. */
    static final int FORK_OVERHEAD_SECONDS = 3;

    /** Seconds a fork may take beyond its schedule and grace before it is ended (Log4j2's stop alone may wait 60). */
    static final int FORK_TIMEOUT_MARGIN_SECONDS = 120;

    /**
     * Heap of every fork, as the JMH forks get. The young generation is fixed: G1 sizes it adaptively
     * and reaches its steady size only after a few collections, which a peer that allocates a lot
     * makes during the warm-up and a peer that allocates little makes in the measured window, where
     * each adds a pause of several milliseconds to its tail. With a fixed size, collections follow
     * each peer's allocation alone.
     */
    static final List<String> FORK_JVM_ARGS = List.of("-Xms1g", "-Xmx1g", "-Xmn512m");

    /**
     * Rates (events per second, all threads together), thread counts and times of a latency run.
     * {@code graceSeconds} is how long a caller that fell behind may keep catching up after the schedule ends.
     */
    record Plan(List<Long> rates, List<Integer> threads, int warmupSeconds, int measureSeconds, int graceSeconds,
            int forks) {

        Plan {
            if (forks < 1) {
                throw new IllegalArgumentException("--forks must be at least 1, got " + forks);
            }
        }

        long points(int peers) {
            return (long) rates.size() * threads.size() * peers * forks;
        }

        /** Rough seconds, for peers that keep up (a peer that falls behind adds up to the grace). */
        long estimateSeconds(int peers) {
            return points(peers) * (warmupSeconds + measureSeconds + FORK_OVERHEAD_SECONDS);
        }
    }

    private final PrintStream out;

    LatencyRunner(PrintStream out) {
        this.out = out;
    }

    /** Runs every point of {@code plan} for {@code peers}; a fork that fails is reported and recorded as failed. */
    LatencyResults.Run run(Plan plan, List<String> peers, Path tsv, String environment)
            throws IOException, InterruptedException {
        List<LatencyPoint> points = new ArrayList<>();
        List<LatencyResults.Failure> failures = new ArrayList<>();
        Path forkOutput = tsv.resolveSibling(tsv.getFileName() + ".point");
        Path histograms = LatencyResults.histogramsFor(tsv);
        LatencyResults.startHistogramLog(histograms);
        for (long rate : plan.rates()) {
            for (int threads : plan.threads()) {
                for (int fork = 1; fork <= plan.forks(); fork++) {
                    out.printf(Locale.ROOT, "%n==== latency: %s events/s, %d thread(s), peers %s, fork %d of %d ====%n",
                            Format.rate(rate), threads, peers, fork, plan.forks());
                    for (String peer : peers) {
                        LatencyFork.Settings settings = new LatencyFork.Settings(Peer.of(peer), rate, threads,
                                Workload.DEFAULT_LINE_SIZE, TimeUnit.SECONDS.toMillis(plan.warmupSeconds()),
                                TimeUnit.SECONDS.toMillis(plan.measureSeconds()),
                                TimeUnit.SECONDS.toMillis(plan.graceSeconds()), forkOutput, histograms,
                                peer + "-" + Format.rate(rate) + "-" + threads + "t-" + fork);
                        Files.deleteIfExists(forkOutput);
                        long timeout = plan.warmupSeconds() + plan.measureSeconds() + plan.graceSeconds()
                                + FORK_TIMEOUT_MARGIN_SECONDS;
                        if (fork(settings, timeout) && Files.exists(forkOutput)) {
                            points.add(LatencyResults.readPoint(forkOutput));
                        } else {
                            failures.add(new LatencyResults.Failure(peer, rate, threads));
                            out.printf(Locale.ROOT, "[latency] peer=%s rate=%d threads=%d FAILED: no result%n", peer, rate,
                                    threads);
                        }
                        LatencyResults.write(new LatencyResults.Run(environment, points, failures), tsv);
                    }
                }
            }
        }
        Files.deleteIfExists(forkOutput);
        LatencyResults.Run run = new LatencyResults.Run(environment, points, failures);
        LatencyResults.write(run, tsv);
        return run;
    }

    /** The runner's own settings for forks, as system properties: where they write their logs, whether to keep them. */
    static List<String> forkProperties() {
        return Stream.of(Trial.DIRECTORY_PROPERTY, Trial.KEEP_FILES_PROPERTY).filter(p -> System.getProperty(p) != null)
                .map(p -> "-D" + p + "=" + System.getProperty(p)).toList();
    }

    /** Runs one fork with the runner's own Java, class path and the forks' system properties; true when it succeeded. */
    private boolean fork(LatencyFork.Settings settings, long timeoutSeconds)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(FORK_JVM_ARGS);
        command.addAll(forkProperties());
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(LatencyFork.class.getName());
        command.addAll(settings.arguments());
        Process process = new ProcessBuilder(command).inheritIO().start();
        if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
            out.printf(Locale.ROOT, "[latency] fork ended after %d s without finishing%n", timeoutSeconds);
            return false;
        }
        return process.exitValue() == 0;
    }
}
