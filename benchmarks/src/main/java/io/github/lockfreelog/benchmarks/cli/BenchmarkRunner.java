package io.github.lockfreelog.benchmarks.cli;

import io.github.lockfreelog.benchmarks.jmh.AppenderBenchmark;
import io.github.lockfreelog.benchmarks.jmh.VirtualBenchmark;
import io.github.lockfreelog.benchmarks.measure.Meters;
import io.github.lockfreelog.benchmarks.peers.ByName;
import io.github.lockfreelog.benchmarks.peers.Peer;
import io.github.lockfreelog.benchmarks.peers.RunnerService;
import io.github.lockfreelog.benchmarks.peers.Workload;
import io.github.lockfreelog.benchmarks.report.Charts;
import io.github.lockfreelog.benchmarks.report.CostReport;
import io.github.lockfreelog.benchmarks.report.LatencyReport;
import io.github.lockfreelog.benchmarks.report.OtlpCostReport;
import io.github.lockfreelog.benchmarks.report.Report;
import io.github.lockfreelog.benchmarks.report.VirtualReport;
import io.github.lockfreelog.benchmarks.results.CostResult;
import io.github.lockfreelog.benchmarks.results.LatencyResults;
import io.github.lockfreelog.benchmarks.results.ThroughputResult;
import io.github.lockfreelog.benchmarks.results.VirtualResult;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * The {@code main} of the benchmarks jar: runs a mode's {@link Plan} (throughput under JMH, read from
 * JMH's results in this process, then the paced latency forks of {@link LatencyRunner}), saves and
 * prints its tables and draws its charts; or prints and draws them again from a saved run.
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar quick            # throughput at 1, 2, 4 threads; about 5 minutes
 * java -jar benchmarks/target/benchmarks.jar latency-quick    # latency at 100k events/s, 1 thread; about 2 minutes
 * java -jar benchmarks/target/benchmarks.jar latency          # latency at 10k, 100k, 500k events/s x 1, 2, 4 threads
 * java -jar benchmarks/target/benchmarks.jar full             # throughput, line sizes and latency; under 45 minutes
 * java -jar benchmarks/target/benchmarks.jar console          # the console peers into a pipe: quick's throughput, latency-quick's point
 * java -jar benchmarks/target/benchmarks.jar cost             # CPU time per delivered line and per call, 1, 2, 4 threads, 3 rounds
 * java -jar benchmarks/target/benchmarks.jar scaling          # file peers from 1 to 2 x CPUs threads: lines/s, CPU, p99.9
 * java -jar benchmarks/target/benchmarks.jar drain            # one drainer's ceiling: a full 1.9 GB journal to tmpfs and disk
 * java -jar benchmarks/target/benchmarks.jar virtual          # a new virtual thread per event: allocation and waits (Java 21+)
 * java -jar benchmarks/target/benchmarks.jar cost --workload boot-file   # any mode in Spring Boot's own format (boot-file,
 *                                                                         # boot-console, boot-ecs) against Boot's appenders
 * java -jar benchmarks/target/benchmarks.jar boot-app         # a SpringApplication with the starter: 300k-line bursts, 4 sinks
 * java -jar benchmarks/target/benchmarks.jar kafka            # lockfreelog-kafka and its peers against one local broker; ~13 min
 * java -jar benchmarks/target/benchmarks.jar kafka-quick      # the same, shorter; about 5 minutes
 * java -jar benchmarks/target/benchmarks.jar report FILE.tsv  # the tables again, from a saved run
 * java -jar benchmarks/target/benchmarks.jar chart FILE.tsv [OUT.png] [--label "text for the title"]
 * java -jar benchmarks/target/benchmarks.jar peers            # what each peer is
 * java -jar benchmarks/target/benchmarks.jar kafka-kill       # kill -9 of each Kafka peer: acknowledged events missing, duplicates
 * java -jar benchmarks/target/benchmarks.jar kafka-journal    # start-up time and resident memory of a 1 GB Kafka journal
 * java -jar benchmarks/target/benchmarks.jar otlp-kill        # kill -9 of each OTLP peer: acknowledged events missing, duplicates
 * java -jar benchmarks/target/benchmarks.jar cost --peers lockfreelog-otlp,otel-logback,otel-logback-large-queue,lockfreelog
 *                                                             # OTLP: delivered records/s, CPU per record, caller CPU per call
 * </pre>
 *
 * Options: see {@link Arguments#usage()}.
 */
public final class BenchmarkRunner {

    private final PrintStream out;
    private final ReportCommands reports;

    BenchmarkRunner(PrintStream out) {
        this.out = out;
        this.reports = new ReportCommands(out);
    }

    public static void main(String[] args) throws Exception {
        System.exit(new BenchmarkRunner(System.out).run(args));
    }

    int run(String[] args) throws Exception {
        String command = args.length > 0 && !args[0].startsWith("--") ? args[0] : "quick";
        if (Modes.has(command)) { // Kafka, OTLP, Spring Boot: found by name, with options of their own
            Mode mode;
            try {
                mode = Modes.of(command);
            } catch (IllegalStateException e) {
                System.err.println(e.getMessage());
                return 2;
            }
            return mode.run(args, out);
        }
        if (command.equals("drain")) { // options of its own
            return new DrainRunner(out).run(args);
        }
        Arguments arguments;
        try {
            arguments = Arguments.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.err.println(Arguments.usage());
            return 2;
        }
        arguments.forkSystemProperties().forEach(System::setProperty);
        startRunnerServices(arguments);
        Plan plan = Plan.of(arguments);
        switch (arguments.command) {
            case "quick", "latency-quick", "latency", "full", "console" -> runSession(arguments.command, plan, arguments);
            case "cost" -> runCost(arguments);
            case "scaling" -> {
                return new ScalingRunner(out).run(arguments);
            }
            case "virtual" -> runVirtual(arguments);
            case "report" -> {
                try {
                    reports.report(arguments);
                } catch (IOException e) { // a file of another mode, or saved before one of its columns existed
                    System.err.println("report: " + e.getMessage());
                    return 2;
                }
            }
            case "chart" -> reports.chart(arguments);
            case "peers" -> {
                Arrays.stream(Peer.values()).forEach(p -> out.printf(Locale.ROOT, "%-22s %s%n", p.id(), p.description()));
                out.println();
                out.println("workloads (--workload):");
                Arrays.stream(Workload.Kind.values())
                        .forEach(k -> out.printf(Locale.ROOT, "%-22s %s%n", k.id(), k.description()));
                for (String mode : List.of("kafka")) {
                    out.println();
                    try {
                        out.print(Modes.of(mode).peers());
                    } catch (IllegalStateException | LinkageError e) {
                        out.println(mode + " peers: " + e.getMessage());
                    }
                }
            }

            default -> {
                out.println(Arguments.usage());
                return arguments.command.equals("help") ? 0 : 2;
            }
        }
        return 0;
    }

    /**
     * The services the run's peers need in this JVM ({@link Peer#runnerService()}: the OTLP peers' receiver, so the
     * forks' CPU time never includes it), each started once and named to the forks by system properties; they live
     * until this JVM exits.
     */
    private void startRunnerServices(Arguments arguments) throws IOException {
        if (arguments.command.equals("report") || arguments.command.equals("chart") || arguments.command.equals("peers")) {
            return;
        }
        List<String> services = arguments.peers().stream().filter(id -> Peer.ids().contains(id))
                .map(id -> Peer.of(id).runnerService()).filter(s -> s != null).distinct().toList();
        for (String name : services) {
            RunnerService service = ByName.load(name, RunnerService.class, "peers " + arguments.peers());
            if (System.getProperty(service.property()) == null) { // a runner started with the property uses that one
                System.setProperty(service.property(), service.start(out));
            }
        }
    }

    /**
     * Runs a mode's JMH phases and then its latency points, writing into the results folder, per run:
     * {@code NAME-STAMP.tsv} (throughput), {@code NAME-STAMP-latency.tsv} and {@code .hlog} (latency),
     * {@code NAME-STAMP.txt} (every table), {@code NAME-STAMP-latency.md}, and the charts (into
     * {@code docs/} for {@code full}).
     */
    private void runSession(String name, Plan plan, Arguments arguments)
            throws IOException, RunnerException, InterruptedException {
        String stamp = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").format(ZonedDateTime.now(ZoneOffset.UTC));
        Path results = arguments.resultsDirectory();
        Files.createDirectories(results);
        String mode = name;
        name = RunEnvironment.runName(mode, arguments); // the files of a boot-* run: quick-boot-file-STAMP.tsv, ...
        Path throughputTsv = results.resolve(name + "-" + stamp + ".tsv");
        Path latencyTsv = results.resolve(name + "-" + stamp + "-latency.tsv");
        List<String> peers = arguments.peers();
        out.printf(Locale.ROOT, "lockfreelog benchmarks, %s mode: %d peers, about %d minutes. Results: %s%n", name,
                peers.size(), (plan.estimateSeconds(peers.size()) + 59) / 60, results);
        String environment = RunEnvironment.environment(mode, stamp);

        List<ThroughputResult> throughput = new ArrayList<>();
        for (Plan.Phase phase : plan.jmh()) {
            for (int threads : phase.threads()) {
                out.printf(Locale.ROOT, "%n==== %s: %s, %d thread(s), line sizes %s ====%n", name, phase.label(), threads,
                        phase.lineSizes());
                for (RunResult run : new Runner(options(phase, threads, peers)).run()) {
                    try {
                        throughput.add(ThroughputResult.of(run));
                    } catch (IllegalArgumentException e) { // its fork failed before its counters were set
                        out.println("Left out of the tables: " + run.getParams().id() + ": " + e.getMessage());
                    }
                }
                ThroughputResult.write(throughputTsv, environment, throughput); // an interrupted run keeps what it measured
            }
        }
        LatencyResults.Run latency = plan.latency() == null ? null
                : new LatencyRunner(out).run(plan.latency(), peers, latencyTsv, environment);

        StringBuilder text = new StringBuilder("lockfreelog benchmark results: " + environment + "\n\n");
        if (!plan.jmh().isEmpty()) {
            text.append(new Report(throughput).render());
        }
        if (latency != null) {
            String markdown = new LatencyReport(latency).render();
            Files.writeString(results.resolve(name + "-" + stamp + "-latency.md"),
                    "# lockfreelog latency: " + environment + "\n\n" + markdown, StandardCharsets.UTF_8);
            text.append(plan.jmh().isEmpty() ? "" : "\n").append(markdown);
        }
        Files.writeString(results.resolve(name + "-" + stamp + ".txt"), text, StandardCharsets.UTF_8);
        out.println();
        out.println("=".repeat(100));
        out.print(text);
        out.println("=".repeat(100));
        String subtitle = ", " + name + " mode, " + RunEnvironment.machine();
        boolean toDocs = name.equals("full"); // the classic workload's full run only (a boot-* run is full-boot-*)
        if (!plan.jmh().isEmpty()) {
            out.println("Throughput results: " + throughputTsv);
            reports.drawThroughputCharts(throughput, throughputTsv, toDocs ? arguments.docsDirectory().resolve("benchmark-throughput.png")
                    : results.resolve(name + "-" + stamp + "-throughput.png"), subtitle);
        }
        if (latency != null) {
            out.println("Latency results: " + latencyTsv + ", histograms: " + LatencyResults.histogramsFor(latencyTsv));
            reports.drawLatencyCharts(latency.points(), latencyTsv, results.resolve(name + "-" + stamp + "-latency.png"), subtitle,
                    true);
            if (toDocs) {
                reports.drawLatencyCharts(latency.points(), latencyTsv, arguments.docsDirectory().resolve("benchmark-latency.png"),
                        subtitle, false);
            }
        }
    }

    /**
     * The cost mode: per thread count, rounds of one fork per peer; writes {@code cost-STAMP-cost.tsv}
     * (a row per fork), {@code cost-STAMP.txt} and {@code -cost.md} (the table and the targets), and
     * {@code cost-STAMP-cost.png} (CPU time per delivered line by threads).
     */
    private void runCost(Arguments arguments) throws IOException, RunnerException {
        Plan.Cost plan = Plan.cost(arguments);
        List<String> peers = arguments.peers();
        String stamp = RunEnvironment.stamp();
        Path results = arguments.resultsDirectory();
        Files.createDirectories(results);
        String name = RunEnvironment.runName("cost", arguments);
        Path tsv = results.resolve(name + "-" + stamp + "-cost.tsv");
        out.printf(Locale.ROOT, "lockfreelog benchmarks, cost mode: %d peers, threads %s, %d round(s), about %d minutes."
                + " Results: %s%n", peers.size(), plan.threads(), plan.rounds(), (plan.estimateSeconds(peers.size()) + 59) / 60,
                results);
        String environment = RunEnvironment.environment("cost", stamp);
        List<CostResult> cost = new CostRunner(out).runCost(plan, peers, tsv, environment);
        String text = new CostReport(cost).render();
        Files.writeString(results.resolve(name + "-" + stamp + "-cost.md"), "# lockfreelog cost per line: " + environment
                + "\n\n" + text, StandardCharsets.UTF_8);
        printAndSave(results.resolve(name + "-" + stamp + ".txt"), environment, text);
        out.println("Cost results: " + tsv);
        reports.drawCostChart(cost, tsv, results.resolve(name + "-" + stamp + "-cost.png"),
                ", cost mode, " + RunEnvironment.machine());
        if (OtlpCostReport.applies(cost)) {
            try {
                Charts.drawOtlp(cost, results.resolve(name + "-" + stamp + "-otlp.png"), ", cost mode, " + RunEnvironment.machine())
                        .forEach(p -> out.println("Chart: " + p));
            } catch (IOException | RuntimeException | LinkageError e) {
                out.println("Could not draw the OTLP chart (" + e + ")");
            }
        }
    }

    /**
     * The virtual mode: a fork per peer and executor (a new virtual thread per event, a pool of platform
     * threads); writes {@code virtual-STAMP-virtual.tsv} and {@code virtual-STAMP.txt}. Skipped, with a
     * message, on a JVM without virtual threads.
     */
    private void runVirtual(Arguments arguments) throws IOException, RunnerException {
        if (!VirtualBenchmark.virtualThreadsAvailable()) {
            out.println("virtual mode skipped: this JVM (Java " + System.getProperty("java.version")
                    + ") has no virtual threads; run it with Java 21 or later, e.g."
                    + " /usr/lib/jvm/temurin-25-jdk-amd64/bin/java -jar benchmarks/target/benchmarks.jar virtual");
            return;
        }
        Plan.Virtual plan = Plan.virtual(arguments);
        List<String> peers = arguments.peers != null ? arguments.peers : CostRunner.VIRTUAL_PEERS;
        String stamp = RunEnvironment.stamp();
        Path results = arguments.resultsDirectory();
        Files.createDirectories(results);
        Path tsv = results.resolve("virtual-" + stamp + "-virtual.tsv");
        out.printf(Locale.ROOT, "lockfreelog benchmarks, virtual mode: peers %s and the executor alone, %d events per fork,"
                + " virtual threads and %d platform threads, %d round(s). Allocation: %s. Results: %s%n", peers,
                plan.events(), plan.platformThreads(), plan.rounds(),
                Meters.measuresAllocation() ? "getTotalThreadAllocatedBytes()" : "not available in this JVM", results);
        String environment = RunEnvironment.environment("virtual", stamp);
        List<VirtualResult> virtual = new CostRunner(out).runVirtual(plan, peers, tsv, environment);
        printAndSave(results.resolve("virtual-" + stamp + ".txt"), environment, VirtualReport.render(virtual));
        out.println("Virtual-thread results: " + tsv);
    }

    private void printAndSave(Path txt, String environment, String tables) throws IOException {
        String text = "lockfreelog benchmark results: " + environment + "\n\n" + tables;
        Files.writeString(txt, text, StandardCharsets.UTF_8);
        out.println();
        out.println("=".repeat(100));
        out.print(text);
        out.println("=".repeat(100));
    }

    /** JMH's options for one phase at one thread count: every peer and line size, in ops/s, with {@code -prof gc}. */
    static Options options(Plan.Phase phase, int threads, List<String> peers) {
        List<String> jvmArgs = new ArrayList<>(LatencyRunner.FORK_JVM_ARGS);
        jvmArgs.addAll(LatencyRunner.forkProperties());
        return new OptionsBuilder()
                .include(AppenderBenchmark.class.getName() + ".log$")
                .param("peer", peers.toArray(String[]::new))
                .param("lineSize", phase.lineSizes().stream().map(String::valueOf).toArray(String[]::new))
                .mode(org.openjdk.jmh.annotations.Mode.Throughput)
                .timeUnit(TimeUnit.SECONDS)
                .threads(threads)
                .forks(phase.forks())
                .warmupIterations(phase.warmupIterations())
                .warmupTime(TimeValue.seconds(phase.warmupSeconds()))
                .measurementIterations(phase.measurementIterations())
                .measurementTime(TimeValue.seconds(phase.measurementSeconds()))
                .jvmArgsAppend(jvmArgs.toArray(String[]::new))
                .addProfiler(GCProfiler.class)
                .shouldFailOnError(false) // one broken peer must not hide the others; its row shows "-"
                .build();
    }


}
