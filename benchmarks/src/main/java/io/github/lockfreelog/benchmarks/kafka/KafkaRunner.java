package io.github.lockfreelog.benchmarks.kafka;

import ch.qos.logback.classic.Level;
import io.github.lockfreelog.benchmarks.cli.Arguments;
import io.github.lockfreelog.benchmarks.cli.LatencyRunner;
import io.github.lockfreelog.benchmarks.cli.RunEnvironment;
import io.github.lockfreelog.benchmarks.measure.Trial;
import io.github.lockfreelog.benchmarks.peers.Workload;
import io.github.lockfreelog.benchmarks.report.LatencyReport;
import io.github.lockfreelog.benchmarks.results.Disturbances;
import io.github.lockfreelog.benchmarks.results.Format;
import io.github.lockfreelog.benchmarks.results.LatencyPoint;
import io.github.lockfreelog.benchmarks.results.LatencyResults;
import io.github.lockfreelog.benchmarks.results.LineCheck;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.HdrHistogram.Histogram;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;

/**
 * The kafka mode: starts one broker for the whole run ({@link KafkaBroker}, a JVM of its own), then runs each peer
 * ({@link KafkaPeer}) at each thread count in a fresh JVM of its own ({@link KafkaFork}), each trial on a fresh topic
 * of one partition, replication 1, and counts what reached each topic with a {@code read_committed} consumer after
 * the fork ended; then the latency points the same way. Writes {@code kafka-STAMP.tsv} (a row per throughput fork),
 * {@code kafka-STAMP-latency.tsv} and {@code .hlog} (the latency points, in the latency mode's format),
 * {@code kafka-STAMP.txt} and {@code .md} (the tables), and the charts. The tables are rewritten after every fork,
 * so an interrupted run keeps what it measured.
 */
final class KafkaRunner {

    /** Seconds a fork may take beyond its own time before it is killed (each stop may take 10). */
    static final int FORK_TIMEOUT_MARGIN_SECONDS = 120;
    /** Seconds the broker may take to start. */
    static final int BROKER_START_SECONDS = 120;

    private final PrintStream out;

    KafkaRunner(PrintStream out) {
        this.out = out;
    }

    int run(Arguments arguments) throws IOException, InterruptedException {
        boolean quick = arguments.command.equals("kafka-quick");
        KafkaPlan plan = KafkaPlan.of(arguments, quick);
        List<String> peers = arguments.peers != null ? KafkaPeer.order(arguments.peers) : KafkaPeer.ids();
        String name = arguments.command;
        String stamp = RunEnvironment.stamp();
        Path results = arguments.resultsDirectory();
        Files.createDirectories(results);
        Path tsv = results.resolve(name + "-" + stamp + ".tsv");
        Path latencyTsv = results.resolve(name + "-" + stamp + "-latency.tsv");
        Path histograms = LatencyResults.histogramsFor(latencyTsv).toAbsolutePath();
        Path base = forkBase();
        out.printf(Locale.ROOT, "lockfreelog benchmarks, %s mode: peers %s; threads %s, %d s warm-up + %d s paced at %s/s"
                + " + %d s measured; latency at %s events/s from %s thread(s); %d round(s); forks' folders in %s; about %d"
                + " minutes. Results: %s%n", name, peers, plan.threads(), plan.warmupSeconds(), plan.pacedSeconds(),
                Format.rate(plan.rates().get(0)), plan.measureSeconds(), plan.rates().stream().map(Format::rate).toList(),
                plan.latencyThreads(), plan.rounds(), base, (plan.estimateSeconds(peers.size()) + 59) / 60, results);
        KafkaSinks.resetLogback(Level.WARN); // this JVM's own Kafka clients (admin, consumer): warnings only
        String environment = RunEnvironment.environment(name, stamp);
        List<KafkaResult> throughput = new ArrayList<>();
        List<LatencyPoint> points = new ArrayList<>();
        List<LatencyResults.Failure> failures = new ArrayList<>();
        int failed = 0;
        try (RunBroker broker = RunBroker.start(base, out); Admin admin = Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap()))) {
            String runId = Long.toString(System.currentTimeMillis() % 1_000_000_000L, 36);
            for (int round = 1; round <= plan.rounds(); round++) {
                for (int threads : plan.threads()) {
                    for (String id : peers) {
                        out.printf(Locale.ROOT, "%n==== %s: %s, %d thread(s), throughput, round %d of %d ====%n", name, id,
                                threads, round, plan.rounds());
                        String topic = "bench-" + runId + "-" + id + "-" + threads + "t-" + round;
                        try {
                            throughput.add(throughputFork(admin, broker, base, plan, KafkaPeer.of(id), threads, round,
                                    topic, arguments));
                        } catch (IOException | RuntimeException e) {
                            failed++;
                            out.println("[kafka] peer=" + id + " threads=" + threads + " FAILED: " + e.getMessage());
                        }
                        KafkaResult.write(tsv, environment, throughput);
                    }
                }
            }
            LatencyResults.startHistogramLog(histograms);
            for (long rate : plan.rates()) {
                for (int threads : plan.latencyThreads()) {
                    for (int round = 1; round <= plan.rounds(); round++) {
                        for (String id : peers) {
                            out.printf(Locale.ROOT, "%n==== %s: %s, %s events/s, %d thread(s), latency, round %d of %d ====%n",
                                    name, id, Format.rate(rate), threads, round, plan.rounds());
                            String topic = "bench-" + runId + "-" + id + "-" + Format.rate(rate) + "-" + threads + "t-" + round;
                            try {
                                points.add(latencyFork(admin, broker, base, plan, KafkaPeer.of(id), rate, threads, round,
                                        topic, histograms, arguments));
                            } catch (IOException | RuntimeException e) {
                                failed++;
                                failures.add(new LatencyResults.Failure(id, rate, threads));
                                out.println("[latency] peer=" + id + " rate=" + rate + " threads=" + threads + " FAILED: "
                                        + e.getMessage());
                            }
                            LatencyResults.write(new LatencyResults.Run(environment, points, failures), latencyTsv);
                        }
                    }
                }
            }
        }
        LatencyResults.Run latency = new LatencyResults.Run(environment, points, failures);
        String text = new KafkaReport(throughput).render() + "\n" + KafkaReport.latencyHeading()
                + new LatencyReport(latency).render();
        Files.writeString(results.resolve(name + "-" + stamp + ".md"), "# lockfreelog and its Kafka peers: " + environment
                + "\n\n" + text, StandardCharsets.UTF_8);
        String all = "lockfreelog benchmark results: " + environment + "\n\n" + text;
        Files.writeString(results.resolve(name + "-" + stamp + ".txt"), all, StandardCharsets.UTF_8);
        out.println();
        out.println("=".repeat(100));
        out.print(all);
        out.println("=".repeat(100));
        out.println("Results: " + tsv + ", latency: " + latencyTsv + ", histograms: " + histograms);
        String subtitle = ", " + name + " mode, " + RunEnvironment.machine();
        KafkaCharts.draw(throughput, points, tsv, results.resolve(name + "-" + stamp + "-delivered.png"),
                results.resolve(name + "-" + stamp + "-latency.png"), subtitle, out);
        return failed == 0 ? 0 : 1;
    }

    private KafkaResult throughputFork(Admin admin, RunBroker broker, Path base, KafkaPlan plan, KafkaPeer peer, int threads,
            int round, String topic, Arguments arguments) throws IOException, InterruptedException {
        String pacedTopic = topic + "-paced";
        List<String> topics = List.of(pacedTopic, topic);
        if (peer.isKafka()) {
            RunBroker.createTopics(admin, topics);
        }
        long rate = plan.rates().get(0);
        Map<String, String> settings = new HashMap<>();
        settings.put("kind", "throughput");
        settings.put("topic", topic);
        settings.put("pacedTopic", pacedTopic);
        settings.put("warmupMillis", Long.toString(plan.warmupSeconds() * 1000L));
        settings.put("pacedMillis", Long.toString(plan.pacedSeconds() * 1000L));
        settings.put("measureMillis", Long.toString(plan.measureSeconds() * 1000L));
        settings.put("rate", Long.toString(rate));
        long seconds = plan.warmupSeconds() + plan.pacedSeconds() + plan.measureSeconds() + FORK_TIMEOUT_MARGIN_SECONDS;
        Map<String, String> r = fork(broker, base, peer, threads, settings, seconds, arguments);
        try {
            long pacedCalls = Long.parseLong(r.get("pacedCalls"));
            long calls = Long.parseLong(r.get("calls"));
            LineCheck paced = check(admin, broker, peer, pacedTopic, Long.parseLong(r.get("pacedMade")), r, "paced");
            LineCheck lines = check(admin, broker, peer, topic, calls, r, "measured");
            KafkaResult result = new KafkaResult(peer.id(), threads, round, plan.warmupSeconds() * 1000L,
                    plan.pacedSeconds() * 1000L, plan.measureSeconds() * 1000L, rate, pacedCalls,
                    Long.parseLong(r.get("pacedCallerCpuNanos")), paced, r.getOrDefault("pacedDetails", ""), calls,
                    Long.parseLong(r.get("callerCpuNanos")), Long.parseLong(r.get("callersNanos")),
                    Long.parseLong(r.get("deliveryNanos")), Long.parseLong(r.get("processCpuNanos")),
                    Long.parseLong(r.get("brokerCpuNanos")), lines, r.getOrDefault("details", ""));
            out.printf(Locale.ROOT, "[kafka] peer=%s threads=%d accepted=%d delivered=%d%s delivered/s=%s in %s s,"
                    + " process CPU/record=%s ns, caller CPU/call=%s ns back to back, %s ns paced (%d calls; paced"
                    + " topic %d of %d)%n", peer.id(), threads, calls, lines.written(),
                    lines.losing() ? " LOST=" + lines.lost() : result.extra() > 0 ? " EXTRA=" + result.extra() : "",
                    Format.si(result.deliveredPerSecond()), Format.fixed(result.deliveryNanos() / 1e9, 2),
                    Format.nanos(result.processNanosPerRecord()), Format.nanos(result.callerNanosPerCall()),
                    Format.nanos(result.pacedCallerNanosPerCall()), pacedCalls, paced.written(), paced.accepted());
            return result;
        } finally {
            if (peer.isKafka()) {
                RunBroker.deleteTopics(admin, topics);
            }
        }
    }

    private LatencyPoint latencyFork(Admin admin, RunBroker broker, Path base, KafkaPlan plan, KafkaPeer peer, long rate,
            int threads, int round, String topic, Path histograms, Arguments arguments)
            throws IOException, InterruptedException {
        if (peer.isKafka()) {
            RunBroker.createTopics(admin, List.of(topic));
        }
        String tag = LatencyPoint.tag(peer.id(), rate, threads, round);
        Map<String, String> settings = new HashMap<>();
        settings.put("kind", "latency");
        settings.put("topic", topic);
        settings.put("rate", Long.toString(rate));
        settings.put("warmupMillis", Long.toString(plan.latencyWarmupSeconds() * 1000L));
        settings.put("measureMillis", Long.toString(plan.latencyMeasureSeconds() * 1000L));
        settings.put("graceMillis", Long.toString(plan.graceSeconds() * 1000L));
        settings.put("spinMicros", Long.toString(arguments.spinMicros));
        settings.put("histograms", histograms.toString());
        settings.put("tag", tag);
        long seconds = plan.latencyWarmupSeconds() + plan.latencyMeasureSeconds() + plan.graceSeconds()
                + FORK_TIMEOUT_MARGIN_SECONDS;
        Map<String, String> r = fork(broker, base, peer, threads, settings, seconds, arguments);
        try {
            long made = Long.parseLong(r.get("made"));
            LineCheck lines = check(admin, broker, peer, topic, made, r, "latency");
            Histogram histogram = LatencyResults.readHistograms(histograms).get(tag);
            if (histogram == null) {
                throw new IOException("no histogram " + tag + " in " + histograms);
            }
            out.printf(Locale.ROOT, "[latency] peer=%s rate=%d threads=%d made=%d delivered=%d%s%n", peer.id(), rate,
                    threads, made, lines.written(), lines.losing() ? " LOST=" + lines.lost() : "");
            return new LatencyPoint(peer.id(), rate, threads, Workload.DEFAULT_LINE_SIZE,
                    plan.latencyWarmupSeconds() * 1000L, plan.latencyMeasureSeconds() * 1000L, made,
                    Long.parseLong(r.get("measured")), Long.parseLong(r.get("missed")),
                    LatencyPoint.Percentiles.of(histogram), lines, tag,
                    new Disturbances(Long.parseLong(r.get("gcPauses")), Long.parseLong(r.get("gcPauseMillis")),
                            Long.parseLong(r.get("stealMillis")), Long.parseLong(r.get("callerPreemptions")),
                            Long.parseLong(r.get("callerWaitMicros"))));
        } finally {
            if (peer.isKafka()) {
                RunBroker.deleteTopics(admin, List.of(topic));
            }
        }
    }

    /**
     * A trial's check: for a Kafka peer the records in its topic (counted here), for the file reference the lines its
     * fork counted in its file.
     */
    private static LineCheck check(Admin admin, RunBroker broker, KafkaPeer peer, String topic, long accepted,
            Map<String, String> result, String trial) throws IOException {
        if (!peer.isKafka()) {
            return new LineCheck(accepted, Long.parseLong(result.get(trial + ".written")),
                    Long.parseLong(result.get(trial + ".bytes")), Long.parseLong(result.get(trial + ".nulBytes")));
        }
        long[] count = RunBroker.countRecords(broker.bootstrap(), topic);
        return new LineCheck(accepted, count[0], count[1], 0);
    }

    /**
     * Runs one fork and returns its result; its output goes to a file in its folder, of which its own summary lines
     * are printed (all of it when it failed, and the folder is kept).
     */
    private Map<String, String> fork(RunBroker broker, Path base, KafkaPeer peer, int threads, Map<String, String> settings,
            long timeoutSeconds, Arguments arguments) throws IOException, InterruptedException {
        Path directory = Files.createTempDirectory(base, "lockfreelog-kafka-" + peer.id() + "-");
        Path result = directory.resolve("result.txt");
        Path output = directory.resolve("output.txt");
        List<String> command = new ArrayList<>();
        command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(LatencyRunner.FORK_JVM_ARGS);
        Map<String, String> properties = new HashMap<>(settings);
        properties.put("peer", peer.id());
        properties.put("threads", Integer.toString(threads));
        properties.put("directory", directory.toString());
        properties.put("result", result.toString());
        properties.put("bootstrap", broker.bootstrap());
        properties.put("brokerPid", Long.toString(broker.pid()));
        properties.forEach((k, v) -> command.add("-D" + KafkaFork.PREFIX + k + "=" + v));
        arguments.producerProperties.forEach((k, v) -> command.add("-D" + KafkaFork.PRODUCER_PREFIX + k + "=" + v));
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(KafkaFork.class.getName());
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
        boolean ended = process.waitFor(timeoutSeconds, TimeUnit.SECONDS);
        if (!ended) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
        List<String> lines = Files.exists(output) ? Files.readAllLines(output, StandardCharsets.UTF_8) : List.of();
        if (!ended || process.exitValue() != 0 || !Files.exists(result)) {
            out.println("---- the fork's output (" + output + ") ----");
            lines.stream().skip(Math.max(0, lines.size() - 60)).forEach(out::println);
            throw new IOException((ended ? "the fork exited with " + process.exitValue() : "the fork ran past "
                    + timeoutSeconds + " s and was killed") + "; its folder: " + directory);
        }
        lines.stream().filter(l -> l.startsWith("[")).forEach(out::println);
        List<String> warnings = lines.stream().filter(l -> l.contains(" WARN ") || l.contains(" ERROR ")).toList();
        warnings.stream().limit(10).forEach(l -> out.println("  (fork) " + l)); // the Kafka client's own
        if (warnings.size() > 10) {
            out.println("  (fork) ... " + (warnings.size() - 10) + " more warnings in its output");
        }
        Map<String, String> values = new HashMap<>();
        for (String line : Files.readAllLines(result, StandardCharsets.UTF_8)) {
            int equals = line.indexOf('=');
            if (equals > 0) {
                values.put(line.substring(0, equals), line.substring(equals + 1));
            }
        }
        if (!Boolean.getBoolean(Trial.KEEP_FILES_PROPERTY)) {
            deleteRecursively(directory);
        }
        return values;
    }

    /**
     * Where the forks' folders go (journals, the file reference's file): {@value Trial#DIRECTORY_PROPERTY} when set,
     * else {@code /dev/shm} where it is a writable folder (memory, as a container's tmpfs), else {@code java.io.tmpdir}.
     */
    static Path forkBase() throws IOException {
        String set = System.getProperty(Trial.DIRECTORY_PROPERTY);
        Path shm = Paths.get("/dev/shm");
        Path base = set != null ? Paths.get(set) : Files.isDirectory(shm) && Files.isWritable(shm) ? shm
                : Paths.get(System.getProperty("java.io.tmpdir"));
        return Files.createDirectories(base);
    }

    private static void deleteRecursively(Path root) throws IOException {
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }


}
