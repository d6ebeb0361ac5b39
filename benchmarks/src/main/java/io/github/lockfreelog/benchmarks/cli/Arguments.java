package io.github.lockfreelog.benchmarks.cli;

import io.github.lockfreelog.benchmarks.measure.PacedLoop;
import io.github.lockfreelog.benchmarks.measure.SlowCalls;
import io.github.lockfreelog.benchmarks.peers.BootLogging;
import io.github.lockfreelog.benchmarks.peers.Peer;
import io.github.lockfreelog.benchmarks.peers.Workload;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The runner's command line: a command, file arguments, and {@code --name value} options. */
public final class Arguments {

    public String command = "quick";
    final List<String> files = new ArrayList<>();
    public List<String> peers;
    public List<Integer> threads;
    public List<Long> rates;
    public Integer warmupSeconds;
    public Integer measureSeconds;
    public Integer forks;
    public Integer events;
    Path results;
    Path docs;
    String label;
    Workload.Kind workload = Workload.Kind.CLASSIC;
    /** The boot-app mode's sinks ({@code --sinks}); null: all four. */
    public List<String> sinks;
    /** Spring Boot properties for the boot-* workloads' forks ({@code --boot-property NAME=VALUE}, repeatable). */
    public final Map<String, String> bootProperties = new LinkedHashMap<>();
    /**
     * How long the kafka mode's paced callers spin before each call of a latency point ({@code --spin-micros}); the
     * rest of the wait they park. {@link PacedLoop#SPIN_NANOS} unless given.
     */
    public long spinMicros = java.util.concurrent.TimeUnit.NANOSECONDS.toMicros(PacedLoop.SPIN_NANOS);
    /** Producer settings for the kafka mode's peers ({@code --producer-property NAME=VALUE}, repeatable). */
    public final Map<String, String> producerProperties = new LinkedHashMap<>();

    static String usage() {
        return "usage: java -jar benchmarks/target/benchmarks.jar quick|latency-quick|latency|full|console|cost|scaling|virtual"
                + "|report FILE.tsv|chart FILE.tsv [OUT.png]|peers"
                + " [--peers a,b] [--threads 1,2,4] [--rates 10000,100000] [--warmup S] [--measure S] [--forks N]"
                + " [--events N (virtual)] [--workload " + String.join("|", Workload.Kind.ids()) + "]"
                + " [--boot-property NAME=VALUE (boot-* workloads and boot-app; repeatable)]"
                + " [--sinks boot-console,boot-file,lockfreelog-console,lockfreelog-file (boot-app; there --events is per"
                + " burst, --threads the burst's threads, --warmup/--measure the warm-up/measured bursts, --forks rounds)]"
                + " [--producer-property NAME=VALUE (kafka modes: a producer setting for every Kafka peer; repeatable)]"
                + " [--spin-micros N (kafka modes: how long paced latency callers spin before each call; 100, 0 parks only)]"
                + " [--slow-calls MICROS (latency modes: count each call slower than this by cause; a diagnosis)]"
                + " [--results DIR] [--docs DIR] [--label TEXT]\n"
                + "peers: " + String.join(",", Peer.ids()) + "\n"
                + "   or: java -jar benchmarks/target/benchmarks.jar " + DrainRunner.USAGE
                + Modes.usages().stream().map(u -> "\n   or: java -jar benchmarks/target/benchmarks.jar " + u)
                        .collect(java.util.stream.Collectors.joining());
    }

    /**
     * The command line of a {@link Mode} that takes these options (kafka, boot-app): parsed, its fork properties set in
     * this JVM; null after the problem and the usage were printed (the mode then exits with 2).
     */
    public static Arguments forMode(String[] args) {
        try {
            Arguments arguments = parse(args);
            arguments.forkSystemProperties().forEach(System::setProperty);
            return arguments;
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.err.println(usage());
            return null;
        }
    }

    public static Arguments parse(String[] args) {
        Arguments a = new Arguments();
        boolean commandSeen = false;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (!arg.startsWith("--")) {
                if (commandSeen) {
                    a.files.add(arg);
                } else {
                    a.command = arg;
                    commandSeen = true;
                }
                continue;
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException("option " + arg + " needs a value");
            }
            String value = args[++i];
            switch (arg) {
                case "--peers" -> a.peers = List.of(value.split(",")); // checked below, against the command's peers
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
                case "--events" -> a.events = Integer.valueOf(value);
                case "--results" -> a.results = Paths.get(value);
                case "--docs" -> a.docs = Paths.get(value);
                case "--label" -> a.label = value;
                case "--slow-calls" -> {
                    if (Long.parseLong(value) <= 0) {
                        throw new IllegalArgumentException("--slow-calls must be a number of microseconds above 0: " + value);
                    }
                    System.setProperty(SlowCalls.PROPERTY, value); // the forks get it (LatencyRunner.forkProperties)
                }
                case "--workload" -> a.workload = Workload.Kind.of(value);
                case "--sinks" -> a.sinks = List.of(value.split(",")); // checked by the boot-app mode
                case "--boot-property" -> {
                    int equals = value.indexOf('=');
                    if (equals <= 0) {
                        throw new IllegalArgumentException("--boot-property must be NAME=VALUE, got " + value);
                    }
                    a.bootProperties.put(value.substring(0, equals), value.substring(equals + 1));
                }
                case "--spin-micros" -> {
                    a.spinMicros = Long.parseLong(value);
                    if (a.spinMicros < 0) {
                        throw new IllegalArgumentException("--spin-micros must be 0 or more microseconds: " + value);
                    }
                }
                case "--producer-property" -> {
                    int equals = value.indexOf('=');
                    if (equals <= 0) {
                        throw new IllegalArgumentException("--producer-property must be NAME=VALUE, got " + value);
                    }
                    a.producerProperties.put(value.substring(0, equals), value.substring(equals + 1));
                }
                default -> throw new IllegalArgumentException("unknown option " + arg);
            }
        }
        if (a.peers != null && !a.isKafka()) { // the kafka modes check their own peers
            for (String id : a.peers) {
                Peer.of(id);
            }
            for (String id : a.peers) {
                String refusal = Peer.of(id).refusal(a.workload);
                if (refusal != null) {
                    throw new IllegalArgumentException(refusal);
                }
            }
        }
        return a;
    }

    /**
     * The system properties that carry the workload to the forks (the runner sets them in its own JVM and
     * {@link LatencyRunner#forkProperties()} hands them on): {@value Workload#PROPERTY}, and each Boot property
     * under {@value BootLogging#PROPERTY_PREFIX}.
     */
    Map<String, String> forkSystemProperties() {
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put(Workload.PROPERTY, workload.id());
        bootProperties.forEach((name, value) -> properties.put(BootLogging.PROPERTY_PREFIX + name, value));
        return properties;
    }

    /** Whether the command is one of the kafka modes, whose peers are the kafka package's {@code KafkaPeer}s. */
    boolean isKafka() {
        return command.equals("kafka") || command.equals("kafka-quick");
    }

    Path file(int index, String message) {
        if (files.size() <= index) {
            throw new IllegalArgumentException(message);
        }
        return Paths.get(files.get(index));
    }

    public List<String> peers() {
        return peers != null ? peers : Peer.defaultIds(command, workload);
    }

    /** {@code benchmarks/results} of the repository (run from its root or from benchmarks/), else {@code ./results}. */
    public Path resultsDirectory() {
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
