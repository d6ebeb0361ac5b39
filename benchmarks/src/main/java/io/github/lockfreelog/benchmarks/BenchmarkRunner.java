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
 * Runs {@link AppenderBenchmark} for every peer and prints one table: throughput, the ratio to
 * lockfreelog, allocation, and lines written against lines accepted.
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar quick            # 1, 2, 4 threads; about 4-5 minutes
 * java -jar benchmarks/target/benchmarks.jar full             # 1..64 threads, latency, line sizes; about 1.5 hours
 * java -jar benchmarks/target/benchmarks.jar report FILE.json # the tables again, from saved results
 * java -jar benchmarks/target/benchmarks.jar chart FILE.json [OUT.png] [--label "text for the title"]
 * java -jar benchmarks/target/benchmarks.jar peers            # what each peer is
 * options: --peers a,b,c  --threads 1,2,4  --forks N  --results DIR  --docs DIR
 * </pre>
 */
public final class BenchmarkRunner {

    static final List<Integer> ALL_THREADS = List.of(1, 2, 4, 8, 16, 32, 64);
    static final List<Integer> QUICK_THREADS = List.of(1, 2, 4);
    static final List<Integer> LINE_SIZES = List.of(64, 128, 256, 512, 1024, 2048, 4096);

    /** One batch of JMH runs: a mode, the thread counts (one JMH run each) and line sizes. */
    record Phase(String label, Mode mode, List<Integer> threads, List<Integer> lineSizes, int forks,
            int warmupIterations, int warmupSeconds, int measurementIterations, int measurementSeconds, boolean gc) {

        /** Rough seconds: iterations plus about 5 s per fork for JVM start, stopping, counting and deleting lines. */
        long estimateSeconds(int peers) {
            long perFork = (long) warmupIterations * warmupSeconds + (long) measurementIterations * measurementSeconds + 5;
            return perFork * forks * peers * threads.size() * lineSizes.size();
        }
    }

    private final PrintStream out;

    BenchmarkRunner(PrintStream out) {
        this.out = out;
    }

    public static void main(String[] args) throws Exception {
        System.exit(new BenchmarkRunner(System.out).run(args));
    }

    int run(String[] args) throws IOException, RunnerException {
        Arguments arguments;
        try {
            arguments = Arguments.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.err.println(usage());
            return 2;
        }
        switch (arguments.command) {
            case "quick" -> runPlan("quick", quickPlan(arguments), arguments, false);
            case "full" -> runPlan("full", fullPlan(arguments), arguments, true);
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
        return "usage: java -jar benchmarks/target/benchmarks.jar quick|full|report FILE.json|chart FILE.json [OUT.png]|peers"
                + " [--peers a,b] [--threads 1,2,4] [--forks N] [--results DIR] [--docs DIR] [--label TEXT]\n"
                + "peers: " + String.join(",", Peer.ids());
    }

    static List<Phase> quickPlan(Arguments arguments) {
        List<Integer> threads = arguments.threads != null ? arguments.threads : QUICK_THREADS;
        int forks = arguments.forks != null ? arguments.forks : 1;
        return List.of(new Phase("throughput", Mode.Throughput, threads, List.of(Workload.DEFAULT_LINE_SIZE), forks,
                2, 1, 3, 1, true));
    }

    static List<Phase> fullPlan(Arguments arguments) {
        List<Integer> threads = arguments.threads != null ? arguments.threads : ALL_THREADS;
        int forks = arguments.forks != null ? arguments.forks : 2;
        return List.of(
                new Phase("throughput", Mode.Throughput, threads, List.of(Workload.DEFAULT_LINE_SIZE), forks, 3, 2, 5, 2, true),
                new Phase("latency", Mode.SampleTime, threads, List.of(Workload.DEFAULT_LINE_SIZE), Math.max(1, forks / 2),
                        3, 2, 5, 2, false),
                new Phase("line-size", Mode.Throughput, List.of(Report.SWEEP_THREADS), LINE_SIZES, Math.max(1, forks / 2),
                        3, 2, 5, 2, true));
    }

    private void runPlan(String name, List<Phase> plan, Arguments arguments, boolean chartsToDocs)
            throws IOException, RunnerException {
        String stamp = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").format(ZonedDateTime.now(ZoneOffset.UTC));
        Path results = arguments.resultsDirectory();
        Files.createDirectories(results);
        Path json = results.resolve(name + "-" + stamp + ".json");
        Path ledger = ledgerFor(json);
        List<String> peers = arguments.peers != null ? arguments.peers : Peer.ids();
        long seconds = plan.stream().mapToLong(p -> p.estimateSeconds(peers.size())).sum();
        out.printf(Locale.ROOT, "lockfreelog benchmarks, %s mode: %d peers, about %d minutes. Results: %s%n", name,
                peers.size(), (seconds + 59) / 60, json);

        List<RunResult> all = new ArrayList<>();
        for (Phase phase : plan) {
            for (int threads : phase.threads()) {
                out.printf(Locale.ROOT, "%n==== %s: %s, %d thread(s), line sizes %s ====%n", name, phase.label(), threads,
                        phase.lineSizes());
                Collection<RunResult> runResults = new Runner(options(phase, threads, peers, ledger)).run();
                all.addAll(runResults);
                writeJson(all, json); // after every run, so an interrupted run keeps what it measured
            }
        }

        Report report = new Report(JmhResults.read(json), Ledger.read(ledger));
        String environment = String.format(Locale.ROOT, "%s mode, %s, Java %s (%s), %d CPUs, %s", name, stamp,
                System.getProperty("java.version"), System.getProperty("java.vm.name"),
                Runtime.getRuntime().availableProcessors(), System.getProperty("os.name"));
        String text = "lockfreelog benchmark results: " + environment + "\n\n" + report.render();
        Files.writeString(results.resolve(name + "-" + stamp + ".txt"), text, StandardCharsets.UTF_8);
        out.println();
        out.println("=".repeat(100));
        out.print(text);
        out.println("=".repeat(100));
        out.println("JSON: " + json);
        out.println("Lines ledger: " + ledger);
        String subtitle = ", " + name + " mode, " + Runtime.getRuntime().availableProcessors() + " CPUs";
        Path throughputPng = chartsToDocs ? arguments.docsDirectory().resolve("benchmark-throughput.png")
                : results.resolve(name + "-" + stamp + "-throughput.png");
        drawCharts(json, throughputPng, subtitle);
    }

    static OptionsBuilder options(Phase phase, int threads, List<String> peers, Path ledger) {
        List<String> jvmArgs = new ArrayList<>(List.of("-Xms1g", "-Xmx1g",
                "-D" + Ledger.PROPERTY + "=" + ledger.toAbsolutePath()));
        for (String property : List.of(Trial.DIRECTORY_PROPERTY, Trial.KEEP_FILES_PROPERTY)) {
            if (System.getProperty(property) != null) {
                jvmArgs.add("-D" + property + "=" + System.getProperty(property));
            }
        }
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
        out.print(new Report(JmhResults.read(json), Ledger.read(ledgerFor(json))).render());
    }

    private void chart(Arguments arguments) throws IOException {
        Path json = arguments.file(0, "chart needs the JSON file of a run");
        Path png = arguments.files.size() > 1 ? Paths.get(arguments.files.get(1))
                : arguments.docsDirectory().resolve("benchmark-throughput.png");
        drawCharts(json, png, arguments.label == null ? "" : ", " + arguments.label);
    }

    /**
     * Draws the throughput-by-threads chart into {@code png} and, when the results hold a line-size
     * sweep, the line-size chart beside it ({@code throughput} in the name becomes {@code line-size}).
     * A failure to draw (no fonts on a bare headless JVM) is reported, not thrown: the JSON is what counts.
     */
    private void drawCharts(Path json, Path png, String subtitle) {
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

    /** Command line: a command, file arguments, and {@code --name value} options. */
    static final class Arguments {
        String command = "quick";
        final List<String> files = new ArrayList<>();
        List<String> peers;
        List<Integer> threads;
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
