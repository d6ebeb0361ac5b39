package io.github.lockfreelog.benchmarks.cli;

import io.github.lockfreelog.benchmarks.peers.Peer;
import io.github.lockfreelog.benchmarks.peers.Workload;
import io.github.lockfreelog.benchmarks.report.Charts;
import io.github.lockfreelog.benchmarks.results.CostResult;
import io.github.lockfreelog.benchmarks.results.Format;
import io.github.lockfreelog.benchmarks.results.LatencyPoint;
import io.github.lockfreelog.benchmarks.results.LatencyResults;
import io.github.lockfreelog.benchmarks.results.ThroughputResult;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.function.ToDoubleFunction;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;

/**
 * The {@code scaling} mode: how lockfreelog and the file peers grow with threads, from 1 to twice the
 * machine's CPUs (1, 2, 4, ... and 2 x CPUs), in one run. Per thread count: lines delivered per second
 * (JMH, as {@code quick}), the callers' CPU per call and the process's CPU per delivered line (one
 * {@code cost} round), and the p99.9 latency at a paced rate, all callers together ({@link #RATE} unless
 * {@code --rates} says otherwise). Writes {@code scaling-STAMP.txt} (the tables, the machine above them),
 * the three TSV files of its parts and {@code scaling-STAMP-throughput.png} (lines/s by threads).
 */
final class ScalingRunner {

    /** The file peers the mode compares by default. */
    static final List<String> PEERS = List.of(Peer.LOCKFREELOG.id(), Peer.LOGBACK_FILE.id(), Peer.LOG4J2_FILE.id(),
            Peer.LOG4J2_RAF.id(), Peer.LOG4J2_MMAP.id());
    /** The paced rate of the latency column, events per second from all callers together. */
    static final long RATE = 100_000;

    private final PrintStream out;

    ScalingRunner(PrintStream out) {
        this.out = out;
    }

    /** 1, 2, 4, ... below twice {@code cpus}, then twice {@code cpus}: 1, 2, 4 on 2 CPUs; 1, 2, 4, 8, 16, 32 on 16. */
    static List<Integer> threads(int cpus) {
        List<Integer> threads = new ArrayList<>();
        for (int t = 1; t < 2 * cpus; t *= 2) {
            threads.add(t);
        }
        threads.add(2 * cpus);
        return threads;
    }

    int run(Arguments arguments) throws IOException, RunnerException, InterruptedException {
        List<Integer> threads = arguments.threads != null ? arguments.threads
                : threads(Runtime.getRuntime().availableProcessors());
        List<String> peers = arguments.peers != null ? arguments.peers : PEERS;
        int warmup = arguments.warmupSeconds != null ? arguments.warmupSeconds : 2;
        int measure = arguments.measureSeconds != null ? arguments.measureSeconds : 4;
        Plan.Phase phase = new Plan.Phase("throughput", threads, List.of(Workload.DEFAULT_LINE_SIZE), 1, 2, 1, 3, 1);
        Plan.Cost cost = new Plan.Cost(threads, warmup, measure, 1);
        Plan.Latency latency = new Plan.Latency(arguments.rates != null ? arguments.rates : List.of(RATE), threads, warmup,
                measure, 2, 1);
        String stamp = RunEnvironment.stamp();
        Path results = arguments.resultsDirectory();
        Files.createDirectories(results);
        String environment = RunEnvironment.environment("scaling", stamp);
        long seconds = phase.estimateSeconds(peers.size()) + cost.estimateSeconds(peers.size())
                + latency.estimateSeconds(peers.size());
        out.printf(Locale.ROOT, "lockfreelog benchmarks, scaling mode: peers %s, threads %s, about %d minutes. Results: %s%n",
                peers, threads, (seconds + 59) / 60, results);

        List<ThroughputResult> throughput = new ArrayList<>();
        Path throughputTsv = results.resolve("scaling-" + stamp + ".tsv");
        for (int t : threads) {
            out.printf(Locale.ROOT, "%n==== scaling: throughput, %d thread(s) ====%n", t);
            for (RunResult run : new Runner(BenchmarkRunner.options(phase, t, peers)).run()) {
                try {
                    throughput.add(ThroughputResult.of(run));
                } catch (IllegalArgumentException e) {
                    out.println("Left out of the tables: " + run.getParams().id() + ": " + e.getMessage());
                }
            }
            ThroughputResult.write(throughputTsv, environment, throughput);
        }
        List<CostResult> costs = new CostRunner(out).runCost(cost, peers, results.resolve("scaling-" + stamp + "-cost.tsv"),
                environment);
        LatencyResults.Run paced = new LatencyRunner(out).run(latency, peers,
                results.resolve("scaling-" + stamp + "-latency.tsv"), environment);

        String tables = render(threads, peers, throughput, costs, paced.points());
        String text = "lockfreelog benchmark results: " + environment + "\n\n" + tables;
        Files.writeString(results.resolve("scaling-" + stamp + ".txt"), text, StandardCharsets.UTF_8);
        out.println();
        out.println("=".repeat(100));
        out.print(text);
        out.println("=".repeat(100));
        Path png = results.resolve("scaling-" + stamp + "-throughput.png");
        try {
            Charts.drawThroughput(throughput, png, ", scaling mode, " + RunEnvironment.machine());
            out.println("Chart: " + png);
        } catch (IOException | RuntimeException | LinkageError e) {
            out.println("Could not draw the chart (" + e + "); redraw later with: chart " + throughputTsv);
        }
        return 0;
    }

    /** The four tables: rows by threads, a column per peer; the machine named above each. */
    static String render(List<Integer> threads, List<String> peers, List<ThroughputResult> throughput,
            List<CostResult> costs, List<LatencyPoint> latency) {
        String machine = RunEnvironment.machine();
        StringBuilder text = new StringBuilder();
        table(text, "Lines delivered per second (" + machine + ")", threads, peers, (peer, t) -> average(
                throughput.stream().filter(r -> r.peer().equals(peer) && r.threads() == t
                        && r.lineSize() == Workload.DEFAULT_LINE_SIZE),
                r -> r.opsPerSecond() * r.lines().deliveredFraction()), Format::si);
        table(text, "Callers' CPU per call, ns (" + machine + ")", threads, peers,
                (peer, t) -> average(costs.stream().filter(c -> c.peer().equals(peer) && c.threads() == t),
                        CostResult::callerNanosPerCall), Format::nanos);
        table(text, "Process CPU per delivered line, ns (" + machine + ")", threads, peers,
                (peer, t) -> average(costs.stream().filter(c -> c.peer().equals(peer) && c.threads() == t),
                        CostResult::totalNanosPerLine), Format::nanos);
        long rate = latency.isEmpty() ? RATE : latency.get(0).rate();
        table(text, "p99.9 latency at " + Format.rate(rate) + " events/s, all callers together, µs (" + machine + ")",
                threads, peers, (peer, t) -> average(latency.stream().filter(p -> p.peer().equals(peer) && p.threads() == t),
                        p -> p.latency().p999() / 1000.0), v -> Format.fixed(v, 1));
        return text.toString();
    }

    private interface Cell {
        OptionalDouble value(String peer, int threads);
    }

    private static <T> OptionalDouble average(java.util.stream.Stream<T> rows, ToDoubleFunction<T> value) {
        return rows.mapToDouble(value).filter(v -> !Double.isNaN(v)).average();
    }

    private static void table(StringBuilder text, String title, List<Integer> threads, List<String> peers, Cell cell,
            java.util.function.DoubleFunction<String> format) {
        text.append("### ").append(title).append("\n\n| threads |");
        peers.forEach(p -> text.append(' ').append(p).append(" |"));
        text.append("\n| ---: |");
        peers.forEach(p -> text.append(" ---: |"));
        text.append('\n');
        for (int t : threads) {
            text.append("| ").append(t).append(" |");
            for (String peer : peers) {
                OptionalDouble v = cell.value(peer, t);
                text.append(' ').append(v.isPresent() ? format.apply(v.getAsDouble()) : "-").append(" |");
            }
            text.append('\n');
        }
        text.append('\n');
    }
}
