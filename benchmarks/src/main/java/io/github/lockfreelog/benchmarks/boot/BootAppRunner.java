package io.github.lockfreelog.benchmarks.boot;

import io.github.lockfreelog.benchmarks.cli.Arguments;
import io.github.lockfreelog.benchmarks.cli.LatencyRunner;
import io.github.lockfreelog.benchmarks.cli.RunEnvironment;
import io.github.lockfreelog.benchmarks.measure.Trial;
import io.github.lockfreelog.benchmarks.peers.BootLogging;
import io.github.lockfreelog.benchmarks.report.Spread;
import io.github.lockfreelog.benchmarks.results.Format;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
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
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;

/**
 * The {@code boot-app} mode: for each sink, one at a time, a JVM of its own runs {@link BootApp}, a
 * {@code SpringApplication} with the starter, and bursts lines into Spring Boot's {@code CONSOLE}, Spring Boot's
 * {@code FILE}, lockfreelog's console or lockfreelog's file; its standard output is a pipe read by
 * {@code grep -c} (as a container's log pipe is read by its runtime), which counts the burst lines that came
 * through. The times are those until the last call of a burst returned (the best of the measured bursts, after
 * the warm-up ones); the line check counts every burst line in the pipe or in the log file and its rolled
 * archives. Spring Boot's defaults apply (rolling at 10 MB, gzip), except what {@code --boot-property} sets.
 */
final class BootAppRunner {

    /** One sink: its id and the application's arguments that make it the only one the burst lines go to. */
    enum BootSink {
        BOOT_CONSOLE("boot-console", "Spring Boot's CONSOLE (ConsoleAppender on System.out), starter off", false,
                "CONSOLE:ConsoleAppender", "--lockfreelog.enabled=false"),
        BOOT_FILE("boot-file", "Spring Boot's FILE (RollingFileAppender, Boot's rolling), starter off, console OFF", true,
                "FILE:RollingFileAppender", "--lockfreelog.enabled=false", "--logging.threshold.console=OFF"),
        LOCKFREELOG_CONSOLE("lockfreelog-console", "the starter's console (lockfreelog.console.enabled=true), no file",
                false, "LOCKFREE_CONSOLE:LockFreeConsoleAppender", "--lockfreelog.console.enabled=true"),
        LOCKFREELOG_FILE("lockfreelog-file", "the starter's file in place of Boot's FILE, console OFF", true,
                "LOCKFREE_FILE:LockFreeFileAppender", "--lockfreelog.console.enabled=false", "--logging.threshold.console=OFF");

        private final String id;
        private final String description;
        private final boolean file;
        private final String appender;
        private final List<String> arguments;

        BootSink(String id, String description, boolean file, String appender, String... arguments) {
            this.id = id;
            this.description = description;
            this.file = file;
            this.appender = appender;
            this.arguments = List.of(arguments);
        }

        String id() {
            return id;
        }

        static BootSink of(String id) {
            return Arrays.stream(values()).filter(s -> s.id.equals(id)).findFirst().orElseThrow(() ->
                    new IllegalArgumentException("unknown sink=" + id + ", known=" + Arrays.stream(values()).map(BootSink::id)
                            .toList()));
        }

        /** The sink this one is compared with (Spring Boot's own of the same kind), and the target of issue 27. */
        BootSink comparedWith() {
            return this == LOCKFREELOG_CONSOLE ? BOOT_CONSOLE : this == LOCKFREELOG_FILE ? BOOT_FILE : null;
        }

        double target() {
            return this == LOCKFREELOG_CONSOLE ? 4.0 : 3.0;
        }
    }

    /** One JVM's outcome for one sink. */
    record Fork(BootSink sink, int round, List<Long> burstNanos, long expected, long delivered, String details) {

        long bestNanos() {
            return burstNanos.stream().mapToLong(Long::longValue).min().orElse(-1);
        }
    }

    /** Seconds one application JVM may take, all bursts included, before it is killed. */
    static final long FORK_TIMEOUT_SECONDS = 600;

    private final PrintStream out;

    BootAppRunner(PrintStream out) {
        this.out = out;
    }

    int run(Arguments arguments) throws IOException, InterruptedException {
        List<BootSink> sinks = (arguments.sinks == null ? Arrays.stream(BootSink.values()).map(BootSink::id).toList()
                : arguments.sinks).stream().map(BootSink::of).toList();
        int events = arguments.events == null ? 300_000 : arguments.events;
        int threads = arguments.threads == null ? 4 : arguments.threads.get(0);
        int warmups = arguments.warmupSeconds == null ? 1 : arguments.warmupSeconds;
        int bursts = arguments.measureSeconds == null ? 4 : arguments.measureSeconds;
        int rounds = arguments.forks == null ? 1 : arguments.forks;
        String stamp = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").format(ZonedDateTime.now(ZoneOffset.UTC));
        Path results = arguments.resultsDirectory();
        Files.createDirectories(results);
        out.printf(Locale.ROOT, "lockfreelog benchmarks, boot-app mode: sinks %s, %d events from %d threads per burst,"
                + " %d warm-up and %d measured bursts per JVM, %d round(s). Results: %s%n", sinks.stream().map(BootSink::id)
                .toList(), events, threads, warmups, bursts, rounds, results);
        List<Fork> forks = new ArrayList<>();
        for (int round = 1; round <= rounds; round++) {
            for (BootSink sink : sinks) {
                Fork fork = fork(sink, round, events, threads, warmups, bursts, arguments.bootProperties);
                forks.add(fork);
                out.printf(Locale.ROOT, "[boot-app] sink=%s round=%d bestMs=%s burstsMs=%s delivered=%d expected=%d%s %s%n",
                        sink.id(), round, Format.fixed(fork.bestNanos() / 1e6, 0), fork.burstNanos().stream()
                                .map(n -> Format.fixed(n / 1e6, 0)).toList(), fork.delivered(), fork.expected(),
                        fork.delivered() < fork.expected() ? " LOST=" + (fork.expected() - fork.delivered()) : "",
                        fork.details());
            }
        }
        String environment = RunEnvironment.environment("boot-app", stamp);
        String text = "lockfreelog benchmark results: " + environment + "\n\n" + render(forks, events, threads, warmups, bursts);
        Path txt = results.resolve("boot-app-" + stamp + ".txt");
        Files.writeString(txt, text, StandardCharsets.UTF_8);
        out.println();
        out.println("=".repeat(100));
        out.print(text);
        out.println("=".repeat(100));
        out.println("Results: " + txt);
        return forks.stream().allMatch(f -> !f.burstNanos().isEmpty()) ? 0 : 1;
    }

    /** The table: per sink, the best burst of each round (median over the rounds), the line check, and the targets. */
    static String render(List<Fork> forks, int events, int threads, int warmups, int bursts) {
        StringBuilder text = new StringBuilder(String.format(Locale.ROOT, "### Spring Boot application: %,d lines from %d"
                + " threads per burst, best of %d after %d warm-up burst%s (ms until the last call returned; lower is"
                + " better)%n%n| sink | best ms (median over rounds) | each round's best | lines delivered / logged |%n"
                + "| --- | ---: | --- | --- |%n", events, threads, bursts, warmups, warmups == 1 ? "" : "s"));
        Map<BootSink, Double> medians = new LinkedHashMap<>();
        for (BootSink sink : BootSink.values()) {
            List<Fork> of = forks.stream().filter(f -> f.sink() == sink).toList();
            if (of.isEmpty()) {
                continue;
            }
            Spread best = Spread.of(of.stream().filter(f -> f.bestNanos() >= 0).map(f -> f.bestNanos() / 1e6).toList());
            medians.put(sink, best.median());
            long delivered = of.stream().mapToLong(Fork::delivered).sum();
            long expected = of.stream().mapToLong(Fork::expected).sum();
            text.append(String.format(Locale.ROOT, "| %s: %s | %s | %s | %s |%n", sink.id(), sink.description,
                    best.isEmpty() ? "-" : Format.fixed(best.median(), 0), of.stream().map(f -> f.bestNanos() < 0 ? "-"
                            : Format.fixed(f.bestNanos() / 1e6, 0)).toList(), delivered == expected ? "all " + expected
                            : "LOST " + (expected - delivered) + " of " + expected));
        }
        text.append("\nTargets of issue 27 (reported, not asserted; medians of the rounds' best bursts):\n");
        for (BootSink sink : List.of(BootSink.LOCKFREELOG_CONSOLE, BootSink.LOCKFREELOG_FILE)) {
            Double own = medians.get(sink);
            Double boot = medians.get(sink.comparedWith());
            String label = String.format(Locale.ROOT, "%s at least %sx faster than %s", sink.id(),
                    Format.fixed(sink.target(), 0), sink.comparedWith().id());
            if (own == null || boot == null || own.isNaN() || boot.isNaN()) {
                text.append(String.format(Locale.ROOT, "  [n/a   ] %-55s (no result)%n", label));
            } else {
                double speedup = boot / own;
                text.append(String.format(Locale.ROOT, "  [%s] %-55s %s vs %s ms (%sx)%n", speedup >= sink.target()
                        ? "MET   " : "MISSED", label, Format.fixed(own, 0), Format.fixed(boot, 0), Format.fixed(speedup, 1)));
            }
        }
        return text.toString();
    }

    /** Runs {@link BootApp} for {@code sink} in a JVM of its own, its standard output into {@code grep -c}; counts its lines. */
    private Fork fork(BootSink sink, int round, int events, int threads, int warmups, int bursts,
            Map<String, String> bootProperties) throws IOException, InterruptedException {
        Path base = Paths.get(System.getProperty(Trial.DIRECTORY_PROPERTY, System.getProperty("java.io.tmpdir")));
        Files.createDirectories(base);
        Path directory = Files.createTempDirectory(base, "lockfreelog-boot-app-" + sink.id() + "-");
        Path result = directory.resolve("result.txt");
        Path status = directory.resolve("exit-status");
        Path errors = directory.resolve("stderr.txt");
        List<String> command = new ArrayList<>();
        command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(LatencyRunner.FORK_JVM_ARGS);
        command.add("-D" + BootApp.RESULT + "=" + result);
        command.add("-D" + BootApp.EVENTS + "=" + events);
        command.add("-D" + BootApp.THREADS + "=" + threads);
        command.add("-D" + BootApp.WARMUP_BURSTS + "=" + warmups);
        command.add("-D" + BootApp.BURSTS + "=" + bursts);
        // Logback, as in a starter application: log4j-core is on this jar's class path for the Log4j2 peers.
        command.add("-Dorg.springframework.boot.logging.LoggingSystem="
                + "org.springframework.boot.logging.logback.LogbackLoggingSystem");
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(BootApp.class.getName());
        command.addAll(applicationArguments(sink, directory, bootProperties));
        // sh: the application's standard output into grep -c (the pipe's reader), the application's exit status kept.
        List<String> shell = new ArrayList<>(List.of("sh", "-c",
                "{ \"$@\"; echo $? > \"$0\"; } | grep -c -F -e '" + BootApp.MARKER + "'", status.toString()));
        shell.addAll(command);
        Process process = new ProcessBuilder(shell).redirectError(errors.toFile()).start();
        String counted;
        try (InputStream stdout = process.getInputStream()) {
            if (!process.waitFor(FORK_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
                throw new IOException("the application of sink " + sink.id() + " did not end within " + FORK_TIMEOUT_SECONDS
                        + " s; its folder: " + directory);
            }
            counted = new String(stdout.readAllBytes(), StandardCharsets.US_ASCII).trim();
        }
        String exit = Files.exists(status) ? Files.readString(status, StandardCharsets.US_ASCII).trim() : "?";
        if (!exit.equals("0") || !Files.exists(result)) {
            throw new IOException("the application of sink " + sink.id() + " exited with " + exit + "; its errors: "
                    + tail(errors) + " (folder " + directory + ")");
        }
        List<String> lines = Files.readAllLines(result, StandardCharsets.UTF_8);
        String appenders = BootApp.value(lines, "appenders");
        if (appenders == null || !Arrays.asList(appenders.split(",")).contains(sink.appender)) {
            throw new IOException("the application of sink " + sink.id() + " logged through " + appenders + ", not "
                    + sink.appender + " (folder " + directory + ")");
        }
        long delivered = sink.file ? countMarked(directory) : Long.parseLong(counted.isEmpty() ? "0" : counted);
        String details = "appenders=" + appenders + lines.stream().filter(l -> l.startsWith("lockfreelog="))
                .map(l -> " " + l).reduce("", String::concat);
        Fork fork = new Fork(sink, round, BootApp.burstNanos(lines), Long.parseLong(BootApp.value(lines, "expected")),
                delivered, details);
        if (!Boolean.getBoolean(Trial.KEEP_FILES_PROPERTY)) {
            deleteRecursively(directory);
        }
        return fork;
    }

    /** The application's arguments for {@code sink}: Spring Boot's and the starter's properties, then the user's. */
    static List<String> applicationArguments(BootSink sink, Path directory, Map<String, String> bootProperties) {
        List<String> arguments = new ArrayList<>();
        arguments.add("--spring.application.name=" + BootLogging.APPLICATION_NAME);
        arguments.add("--spring.main.banner-mode=off");
        if (sink.file) {
            arguments.add("--logging.file.name=" + directory.resolve("app.log"));
        }
        if (sink == BootSink.LOCKFREELOG_CONSOLE) { // in the run's folder, deleted with it, not in java.io.tmpdir
            arguments.add("--lockfreelog.console.journal=" + directory.resolve("console.journal"));
        }
        arguments.addAll(sink.arguments);
        bootProperties.forEach((name, value) -> arguments.add("--" + name + "=" + value));
        return arguments;
    }

    /** Burst lines in {@code app.log} and its rolled archives ({@code app.log.*}, gzipped or not). */
    static long countMarked(Path directory) throws IOException {
        long count = 0;
        try (Stream<Path> files = Files.list(directory)) {
            for (Path file : files.filter(f -> f.getFileName().toString().startsWith("app.log")).toList()) {
                try (InputStream raw = Files.newInputStream(file);
                        InputStream in = file.toString().endsWith(".gz") ? new GZIPInputStream(raw, 1 << 16) : raw;
                        BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8), 1 << 16)) {
                    String line;
                    while ((line = reader.readLine()) != null) {
                        if (line.contains(BootApp.MARKER)) {
                            count++;
                        }
                    }
                }
            }
        }
        return count;
    }

    private static String tail(Path file) throws IOException {
        if (!Files.exists(file)) {
            return "";
        }
        String text = Files.readString(file, StandardCharsets.UTF_8).trim();
        return text.length() <= 2_000 ? text : "..." + text.substring(text.length() - 2_000);
    }

    private static void deleteRecursively(Path root) throws IOException {
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }
}
