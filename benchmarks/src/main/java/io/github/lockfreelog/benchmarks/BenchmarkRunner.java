package io.github.lockfreelog.benchmarks;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatFactory;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Runs {@link AppenderBenchmark} (throughput, under JMH) and the paced latency forks
 * ({@link LatencyRunner}) for every peer, and prints their tables: throughput, the ratio to
 * lockfreelog, allocation, latency percentiles, and lines written against lines accepted.
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar quick            # throughput at 1, 2, 4 threads; about 5 minutes
 * java -jar benchmarks/target/benchmarks.jar latency-quick    # latency at 100k events/s, 1 thread; about 2 minutes
 * java -jar benchmarks/target/benchmarks.jar latency          # latency at 10k, 100k, 500k events/s x 1, 2, 4 threads
 * java -jar benchmarks/target/benchmarks.jar full             # throughput, line sizes and latency; under 45 minutes
 * java -jar benchmarks/target/benchmarks.jar report FILE.json # the tables again, from saved results
 * java -jar benchmarks/target/benchmarks.jar chart FILE.json [OUT.png] [--label "text for the title"]
 * java -jar benchmarks/target/benchmarks.jar peers            # what each peer is
 * options: --peers a,b,c  --threads 1,2,4  --rates 10000,100000  --forks N  --results DIR  --docs DIR
 *          --warmup S --measure S (seconds per latency point)
 *          --forks N: JMH forks per benchmark; in the latency modes, forks per point, interleaved across
 *          peers, each row then showing the fork with the median p99.9
 * </pre>
 */
public final class BenchmarkRunner {

    static final List<Integer> QUICK_THREADS = List.of(1, 2, 4);
    /** Throughput in full mode: the three of issue 12's targets, then contention well past the CPUs (issue 6's 64). */
    static final List<Integer> FULL_THREADS = List.of(1, 2, 4, 16, 64);
    static final List<Integer> LINE_SIZES = List.of(64, 256, 1024, 4096);
    static final List<Long> LATENCY_RATES = List.of(10_000L, 100_000L, 500_000L);
    static final List<Integer> LATENCY_THREADS = List.of(1, 2, 4);

    /** The latency point the README shows and the docs' latency chart draws. */
    static final long HEADLINE_RATE = 100_000;
    static final int HEADLINE_THREADS = 1;

    /** One batch of JMH runs: a mode, the thread counts (one JMH run each) and line sizes. */
    record Phase(String label, Mode mode, List<Integer> threads, List<Integer> lineSizes, int forks,
            int warmupIterations, int warmupSeconds, int measurementIterations, int measurementSeconds, boolean gc) {

        /** Rough seconds: iterations plus about {@value #JMH_FORK_OVERHEAD_SECONDS} s per fork for JVM start, stopping, counting and deleting lines. */
        long estimateSeconds(int peers) {
            long perFork = (long) warmupIterations * warmupSeconds + (long) measurementIterations * measurementSeconds
                    + JMH_FORK_OVERHEAD_SECONDS;
            return perFork * forks * peers * threads.size() * lineSizes.size();
        }
    }

    /** Seconds a JMH fork takes beyond its iterations (JVM start, stopping the peer, counting a few GB of lines). */
    static final int JMH_FORK_OVERHEAD_SECONDS = 5;

    /** What one mode runs: JMH phases (may be none) and a latency plan (may be null). */
    record Plan(List<Phase> jmh, LatencyRunner.Plan latency) {

        long estimateSeconds(int peers) {
            return jmh.stream().mapToLong(p -> p.estimateSeconds(peers)).sum()
                    + (latency == null ? 0 : latency.estimateSeconds(peers));
        }
    }

    private final PrintStream out;

    BenchmarkRunner(PrintStream out) {
        this.out = out;
    }

    public static void main(String[] args) throws Exception {
        System.exit(new BenchmarkRunner(System.out).run(args));
    }

    int run(String[] args) throws IOException, RunnerException, InterruptedException {
        Arguments arguments;
        try {
            arguments = Arguments.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.err.println(usage());
            return 2;
        }
        switch (arguments.command) {
            case "quick" -> runSession("quick", quickPlan(arguments), arguments, false);
            case "latency-quick" -> runSession("latency-quick", latencyQuickPlan(arguments), arguments, false);
            case "latency" -> runSession("latency", latencyPlan(arguments), arguments, false);
            case "full" -> runSession("full", fullPlan(arguments), arguments, true);
            case "report" -> report(arguments);
            case "chart" -> chart(arguments);
            case "peers" -> Arrays.stream(Peer.values())
                    .forEach(p -> out.printf(Locale.ROOT, "%-20s %s%n", p.id(), p.description()));
            default -> {
                out.println(usage());
                return arguments.command.equals("help") ? 0 : 2;
            }
        }
        return 0;
    }

    static String usage() {
        return "usage: java -jar benchmarks/target/benchmarks.jar quick|latency-quick|latency|full|report FILE.json"
                + "|chart FILE.json [OUT.png]|peers"
                + " [--peers a,b] [--threads 1,2,4] [--rates 10000,100000] [--warmup S] [--measure S] [--forks N]"
                + " [--results DIR] [--docs DIR] [--label TEXT]\n"
                + "peers: " + String.join(",", Peer.ids());
    }

    static Plan quickPlan(Arguments arguments) {
        List<Integer> threads = arguments.threads != null ? arguments.threads : QUICK_THREADS;
        int forks = arguments.forks != null ? arguments.forks : 1;
        return new Plan(List.of(new Phase("throughput", Mode.Throughput, threads, List.of(Workload.DEFAULT_LINE_SIZE),
                forks, 2, 1, 3, 1, true)), null);
    }

    /** The headline point only: 100k events/s from 1 thread, every peer. */
    static Plan latencyQuickPlan(Arguments arguments) {
        return new Plan(List.of(), new LatencyRunner.Plan(
                arguments.rates != null ? arguments.rates : List.of(HEADLINE_RATE),
                arguments.threads != null ? arguments.threads : List.of(HEADLINE_THREADS),
                orElse(arguments.warmupSeconds, 3), orElse(arguments.measureSeconds, 5), 2, orElse(arguments.forks, 1)));
    }

    static Plan latencyPlan(Arguments arguments) {
        return new Plan(List.of(), latencyPoints(arguments));
    }

    private static LatencyRunner.Plan latencyPoints(Arguments arguments) {
        return new LatencyRunner.Plan(arguments.rates != null ? arguments.rates : LATENCY_RATES,
                arguments.threads != null ? arguments.threads : LATENCY_THREADS,
                orElse(arguments.warmupSeconds, 2), orElse(arguments.measureSeconds, 5), 2, orElse(arguments.forks, 1));
    }

    private static int orElse(Integer value, int otherwise) {
        return value != null ? value : otherwise;
    }

    /**
     * Throughput at {@link #FULL_THREADS}, the line-size sweep, and the latency plan; sized to end within
     * 45 minutes on 2 CPUs with every peer (see {@link Plan#estimateSeconds}). JMH's {@code SampleTime}
     * mode is not part of it: it times calls made back to back, which hides every stall behind one
     * sample (coordinated omission); the paced latency forks replace it.
     */
    static Plan fullPlan(Arguments arguments) {
        List<Integer> threads = arguments.threads != null ? arguments.threads : FULL_THREADS;
        int forks = arguments.forks != null ? arguments.forks : 1;
        return new Plan(List.of(
                new Phase("throughput", Mode.Throughput, threads, List.of(Workload.DEFAULT_LINE_SIZE), forks, 2, 2, 4, 2, true),
                new Phase("line-size", Mode.Throughput, List.of(Report.SWEEP_THREADS), LINE_SIZES, forks, 2, 1, 3, 1, true)),
                latencyPoints(arguments));
    }

    /**
     * Runs a mode's JMH phases and then its latency points, writing into the results folder, per run:
     * {@code NAME-STAMP.json} (JMH) and {@code NAME-STAMP-latency.json}, each with its {@code .lines.tsv}
     * ledger; {@code NAME-STAMP.txt} (every table) and {@code NAME-STAMP-latency.md}; and the charts
     * (into {@code docs/} for {@code full}).
     */
    private void runSession(String name, Plan plan, Arguments arguments, boolean chartsToDocs)
            throws IOException, RunnerException, InterruptedException {
        String stamp = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").format(ZonedDateTime.now(ZoneOffset.UTC));
        Path results = arguments.resultsDirectory();
        Files.createDirectories(results);
        Path json = results.resolve(name + "-" + stamp + ".json");
        Path latencyJson = results.resolve(name + "-" + stamp + "-latency.json");
        List<String> peers = arguments.peers != null ? arguments.peers : Peer.ids();
        out.printf(Locale.ROOT, "lockfreelog benchmarks, %s mode: %d peers, about %d minutes. Results: %s%n", name,
                peers.size(), (plan.estimateSeconds(peers.size()) + 59) / 60, results);
        String environment = String.format(Locale.ROOT, "%s mode, %s, Java %s (%s), %d CPUs, %s", name, stamp,
                System.getProperty("java.version"), System.getProperty("java.vm.name"),
                Runtime.getRuntime().availableProcessors(), System.getProperty("os.name"));

        List<RunResult> all = new ArrayList<>();
        for (Phase phase : plan.jmh()) {
            for (int threads : phase.threads()) {
                out.printf(Locale.ROOT, "%n==== %s: %s, %d thread(s), line sizes %s ====%n", name, phase.label(), threads,
                        phase.lineSizes());
                all.addAll(new Runner(options(phase, threads, peers, ledgerFor(json))).run());
                writeJson(all, json); // after every run, so an interrupted run keeps what it measured
            }
        }
        LatencyResults.Run latency = plan.latency() == null ? null
                : new LatencyRunner(out).run(plan.latency(), peers, latencyJson, ledgerFor(latencyJson), environment);

        StringBuilder text = new StringBuilder("lockfreelog benchmark results: " + environment + "\n\n");
        if (!plan.jmh().isEmpty()) {
            text.append(new Report(JmhResults.read(json), Ledger.read(ledgerFor(json))).render());
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
        String subtitle = ", " + name + " mode, " + Runtime.getRuntime().availableProcessors() + " CPUs";
        if (!plan.jmh().isEmpty()) {
            out.println("JSON: " + json);
            out.println("Lines ledger: " + ledgerFor(json));
            drawThroughputCharts(json, chartsToDocs ? arguments.docsDirectory().resolve("benchmark-throughput.png")
                    : results.resolve(name + "-" + stamp + "-throughput.png"), subtitle);
        }
        if (plan.latency() != null) {
            out.println("Latency JSON: " + latencyJson);
            drawLatencyCharts(latencyJson, results.resolve(name + "-" + stamp + "-latency.png"), subtitle, true);
            if (chartsToDocs) {
                drawLatencyCharts(latencyJson, arguments.docsDirectory().resolve("benchmark-latency.png"), subtitle, false);
            }
        }
    }

    /** System properties every fork gets: the ledger it appends to, and the runner's own settings for forks. */
    static List<String> forkProperties(Path ledger) {
        List<String> properties = new ArrayList<>(List.of("-D" + Ledger.PROPERTY + "=" + ledger.toAbsolutePath()));
        for (String property : List.of(Trial.DIRECTORY_PROPERTY, Trial.KEEP_FILES_PROPERTY)) {
            if (System.getProperty(property) != null) {
                properties.add("-D" + property + "=" + System.getProperty(property));
            }
        }
        return properties;
    }

    static OptionsBuilder options(Phase phase, int threads, List<String> peers, Path ledger) {
        List<String> jvmArgs = new ArrayList<>(LatencyRunner.FORK_JVM_ARGS);
        jvmArgs.addAll(forkProperties(ledger));
        OptionsBuilder builder = new OptionsBuilder();
        ChainedOptionsBuilder chain = builder
                .include(AppenderBenchmark.class.getName() + ".log$")
                .param("peer", peers.toArray(String[]::new))
                .param("lineSize", phase.lineSizes().stream().map(String::valueOf).toArray(String[]::new))
                .mode(phase.mode())
                .timeUnit(phase.mode() == Mode.Throughput ? TimeUnit.SECONDS : TimeUnit.NANOSECONDS)
                .threads(threads)
                .forks(phase.forks())
                .warmupIterations(phase.warmupIterations())
                .warmupTime(TimeValue.seconds(phase.warmupSeconds()))
                .measurementIterations(phase.measurementIterations())
                .measurementTime(TimeValue.seconds(phase.measurementSeconds()))
                .jvmArgsAppend(jvmArgs.toArray(String[]::new))
                .shouldFailOnError(false); // one broken peer must not hide the others; its row shows "-"
        if (phase.gc()) {
            chain.addProfiler(GCProfiler.class);
        }
        return builder;
    }

    static void writeJson(Collection<RunResult> results, Path json) throws IOException {
        try (PrintStream stream = new PrintStream(Files.newOutputStream(json), true, StandardCharsets.UTF_8)) {
            ResultFormatFactory.getInstance(ResultFormatType.JSON, stream).writeOut(results);
        }
    }

    /** {@code results/quick-X.json} -> {@code results/quick-X.lines.tsv}. */
    static Path ledgerFor(Path json) {
        String name = json.getFileName().toString();
        String base = name.endsWith(".json") ? name.substring(0, name.length() - ".json".length()) : name;
        return json.resolveSibling(base + ".lines.tsv");
    }

    private void report(Arguments arguments) throws IOException {
        Path json = arguments.file(0, "report needs the JSON file of a run");
        if (LatencyResults.isLatencyRun(json)) {
            out.print(new LatencyReport(LatencyResults.read(json)).render());
        } else {
            out.print(new Report(JmhResults.read(json), Ledger.read(ledgerFor(json))).render());
        }
    }

    private void chart(Arguments arguments) throws IOException {
        Path json = arguments.file(0, "chart needs the JSON file of a run");
        boolean latency = LatencyResults.isLatencyRun(json);
        Path png = arguments.files.size() > 1 ? Paths.get(arguments.files.get(1))
                : arguments.docsDirectory().resolve(latency ? "benchmark-latency.png" : "benchmark-throughput.png");
        String subtitle = arguments.label == null ? "" : ", " + arguments.label;
        if (latency) {
            drawLatencyCharts(json, png, subtitle, false);
        } else {
            drawThroughputCharts(json, png, subtitle);
        }
    }

    /**
     * Draws the lines-delivered-by-threads chart into {@code png} and, when the results hold a line-size
     * sweep, the line-size chart beside it ({@code throughput} in the name becomes {@code line-size}).
     * A failure to draw (no fonts on a bare headless JVM) is reported, not thrown: the JSON is what counts.
     */
    private void drawThroughputCharts(Path json, Path png, String subtitle) {
        try {
            List<JmhResults.Result> results = JmhResults.read(json);
            Map<String, Ledger.Entry> ledger = Ledger.read(ledgerFor(json));
            if (Charts.throughputByThreads(results, ledger, png, subtitle)) {
                out.println("Chart: " + png);
            } else {
                out.println("No throughput results for a chart in " + json);
            }
            String name = png.getFileName().toString();
            String sweepName = name.contains("throughput") ? name.replace("throughput", "line-size")
                    : name.replaceFirst("(\\.png)?$", "-line-size.png");
            Path sweep = png.resolveSibling(sweepName);
            if (Charts.throughputByLineSize(results, ledger, sweep, subtitle)) {
                out.println("Chart: " + sweep);
            }
        } catch (IOException | RuntimeException | LinkageError e) {
            out.println("Could not draw the charts (" + e + "); redraw later with: chart " + json);
        }
    }

    /**
     * Draws the latency chart of the headline point ({@value #HEADLINE_RATE} events/s, {@value #HEADLINE_THREADS}
     * thread; the first point of the run when it has no such point) into {@code png}, and with {@code everyPoint}
     * one chart per rate and thread count beside it ({@code NAME-100k-1t.png}). Failures are reported, not thrown.
     */
    private void drawLatencyCharts(Path json, Path png, String subtitle, boolean everyPoint) {
        try {
            List<LatencyPoint> points = LatencyResults.read(json).points();
            if (points.isEmpty()) {
                out.println("No latency results for a chart in " + json);
                return;
            }
            if (everyPoint) {
                Set<String> drawn = new TreeSet<>();
                for (LatencyPoint p : points) {
                    String suffix = "-" + Report.rate(p.rate()) + "-" + p.threads() + "t.png";
                    if (drawn.add(suffix)) {
                        Path each = png.resolveSibling(png.getFileName().toString().replaceFirst("(\\.png)?$", suffix));
                        Charts.latencyByPercentile(points, p.rate(), p.threads(), each, subtitle);
                        out.println("Chart: " + each);
                    }
                }
                return;
            }
            boolean headline = LatencyReport.find(points, Report.REFERENCE, HEADLINE_RATE, HEADLINE_THREADS) != null;
            Charts.latencyByPercentile(points, headline ? HEADLINE_RATE : points.get(0).rate(),
                    headline ? HEADLINE_THREADS : points.get(0).threads(), png, subtitle);
            out.println("Chart: " + png);
        } catch (IOException | RuntimeException | LinkageError e) {
            out.println("Could not draw the latency charts (" + e + "); redraw later with: chart " + json);
        }
    }

    /** Command line: a command, file arguments, and {@code --name value} options. */
    static final class Arguments {
        String command = "quick";
        final List<String> files = new ArrayList<>();
        List<String> peers;
        List<Integer> threads;
        List<Long> rates;
        Integer warmupSeconds;
        Integer measureSeconds;
        Integer forks;
        Path results;
        Path docs;
        String label;

        static Arguments parse(String[] args) {
            Arguments a = new Arguments();
            boolean commandSeen = false;
            for (int i = 0; i < args.length; i++) {
                String arg = args[i];
                if (arg.startsWith("--")) {
                    if (i + 1 >= args.length) {
                        throw new IllegalArgumentException("option " + arg + " needs a value");
                    }
                    String value = args[++i];
                    switch (arg) {
                        case "--peers" -> {
                            a.peers = List.of(value.split(","));
                            a.peers.forEach(Peer::of);
                        }
                        case "--threads" -> a.threads = Arrays.stream(value.split(",")).map(Integer::valueOf).toList();
                        case "--rates" -> {
                            a.rates = Arrays.stream(value.split(",")).map(Long::valueOf).toList();
                            if (a.rates.stream().anyMatch(rate -> rate <= 0)) {
                                throw new IllegalArgumentException("--rates must be events per second above 0: " + value);
                            }
                        }
                        case "--warmup" -> a.warmupSeconds = Integer.valueOf(value);
                        case "--measure" -> a.measureSeconds = Integer.valueOf(value);
                        case "--forks" -> a.forks = Integer.valueOf(value);
                        case "--results" -> a.results = Paths.get(value);
                        case "--docs" -> a.docs = Paths.get(value);
                        case "--label" -> a.label = value;
                        default -> throw new IllegalArgumentException("unknown option " + arg);
                    }
                } else if (!commandSeen) {
                    a.command = arg;
                    commandSeen = true;
                } else {
                    a.files.add(arg);
                }
            }
            return a;
        }

        Path file(int index, String message) {
            if (files.size() <= index) {
                throw new IllegalArgumentException(message);
            }
            return Paths.get(files.get(index));
        }

        /** {@code benchmarks/results} of the repository (run from its root or from benchmarks/), else {@code ./results}. */
        Path resultsDirectory() {
            if (results != null) {
                return results;
            }
            Path root = repositoryRoot();
            return root == null ? Paths.get("results") : root.resolve("benchmarks").resolve("results");
        }

        /** The repository's {@code docs/} folder, else {@code ./docs}. */
        Path docsDirectory() {
            if (docs != null) {
                return docs;
            }
            Path root = repositoryRoot();
            return root == null ? Paths.get("docs") : root.resolve("docs");
        }

        private static Path repositoryRoot() {
            if (Files.isRegularFile(Paths.get("benchmarks", "pom.xml"))) {
                return Paths.get("");
            }
            Path cwd = Paths.get("").toAbsolutePath();
            if (cwd.getFileName() != null && cwd.getFileName().toString().equals("benchmarks")
                    && Files.isRegularFile(Paths.get("..", "pom.xml"))) {
                return Paths.get("..");
            }
            return null;
        }
    }
}
