package io.github.lockfreelog.benchmarks.kafka;

import io.github.lockfreelog.kafka.testing.ChildJvm;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.apache.kafka.common.utils.AppInfoParser;

/**
 * The kafka-kill mode: the same kill test for each Kafka peer. Per peer and round, a fresh topic; a child JVM
 * ({@link KafkaKillChild}) logs from four threads as fast as its appender takes events; after 1 to 2 s (drawn from a
 * seeded {@link Random}; the seed is printed, {@code --seed} replays it) it is killed with SIGKILL. The lockfreelog
 * peer is then restarted on the same journal, as an application's restart would, and stopped once it delivered its
 * backlog; the other peers have nothing to recover. Then the topic is read ({@code read_committed}) and counted against
 * what the child acknowledged ({@link KafkaKillTally}). The broker is a KRaft broker in a JVM of its own
 * ({@link KafkaBrokerChild}). Writes {@code kafka-kill-STAMP.tsv} (a row per round) and {@code kafka-kill-STAMP.txt}
 * (the tables).
 */
final class KafkaKillRunner {

    static final Set<String> OPTIONS = Set.of("--peers", "--rounds", "--seed", "--kill-after", "--kill-spread", "--results",
            "--work");
    static final String USAGE = "kafka-kill [--peers " + String.join(",", KafkaKillChild.PEERS) + "] [--rounds N (5)]"
            + " [--seed S] [--kill-after MS (1000)] [--kill-spread MS (1000)] [--results DIR (docs/benchmark-results)] [--work DIR (journals, ack files, children's"
            + " standard error; a new folder in java.io.tmpdir)]";
    static final String[] COLUMNS = {"peer", "round", "killed_after_ms", "acknowledged", "found", "missing",
        "duplicates", "out_of_order", "beyond_acknowledged", "foreign", "restart", "note"};

    private final PrintStream out;

    KafkaKillRunner(PrintStream out) {
        this.out = out;
    }

    /** One round's figures; {@code tally} is null when the round failed ({@code note} says why). */
    record Round(String peer, int round, int killedAfterMillis, KafkaKillTally tally, String restart, String note) {
    }

    int run(String[] args) throws IOException, InterruptedException {
        KafkaModeOptions options;
        List<String> peers;
        int rounds;
        long seed;
        int killAfter;
        int killSpread;
        try {
            options = KafkaModeOptions.parse(args, OPTIONS);
            peers = List.of(options.text("--peers", String.join(",", KafkaKillChild.PEERS)).split(","));
            for (String peer : peers) {
                if (!KafkaKillChild.PEERS.contains(peer)) {
                    throw new IllegalArgumentException("unknown peer " + peer + " for --peers; peers: " + KafkaKillChild.PEERS);
                }
            }
            rounds = (int) options.number("--rounds", 5, 1, 1000);
            seed = options.number("--seed", System.nanoTime(), Long.MIN_VALUE, Long.MAX_VALUE);
            // the kill comes killAfter ms after the child is ready, plus up to killSpread ms (seeded)
            killAfter = (int) options.number("--kill-after", 1000, 0, 600_000);
            killSpread = (int) options.number("--kill-spread", 1000, 0, 600_000);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.err.println("usage: java -jar benchmarks/target/benchmarks.jar " + USAGE);
            return 2;
        }
        quietKafkaClients();
        String stamp = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").format(ZonedDateTime.now(ZoneOffset.UTC));
        Path results = options.results();
        Files.createDirectories(results);
        Path work = options.text("--work", null) != null ? Files.createDirectories(Paths.get(options.text("--work", null)))
                : Files.createTempDirectory("lockfreelog-kafka-kill-");
        Path tsv = results.resolve("kafka-kill-" + stamp + ".tsv");
        String environment = String.format(Locale.ROOT, "kafka-kill mode, %s, seed %d, %d round(s), kill %d to %d ms after"
                + " ready, Java %s (%s), %d CPUs, %s, kafka-clients %s", stamp, seed, rounds, killAfter, killAfter + killSpread,
                System.getProperty("java.version"),
                System.getProperty("java.vm.name"), Runtime.getRuntime().availableProcessors(), System.getProperty("os.name"),
                AppInfoParser.getVersion());
        out.println("lockfreelog benchmarks, " + environment);
        out.println("Seed " + seed + " (replay with --seed " + seed + "); peers " + peers + "; work folder " + work
                + "; results " + tsv);
        Files.writeString(tsv, "# " + environment + "\n" + String.join("\t", COLUMNS) + "\n", StandardCharsets.UTF_8);

        Random random = new Random(seed);
        List<Round> done = new ArrayList<>();
        out.println("Starting the broker (a KRaft broker in a child JVM) ...");
        try (KafkaBrokerChild broker = KafkaBrokerChild.start(work)) {
            out.println("Broker at " + broker.bootstrap);
            out.println(header());
            for (String peer : peers) {
                for (int round = 1; round <= rounds; round++) {
                    int delay = killAfter + random.nextInt(killSpread + 1);
                    Round result;
                    try {
                        result = round(broker, work, stamp, peer, round, delay);
                    } catch (IOException | RuntimeException e) {
                        result = new Round(peer, round, delay, null, "-", "failed: " + e.getMessage());
                    }
                    done.add(result);
                    out.println(row(result));
                    Files.writeString(tsv, tsvRow(result), StandardCharsets.UTF_8, StandardOpenOption.APPEND);
                }
            }
        }
        String text = "lockfreelog benchmark results: " + environment + "\n\n" + render(done);
        Files.writeString(results.resolve("kafka-kill-" + stamp + ".txt"), text, StandardCharsets.UTF_8);
        out.println();
        out.println("=".repeat(100));
        out.print(text);
        out.println("=".repeat(100));
        out.println("Results: " + tsv);
        return 0;
    }

    private Round round(KafkaBrokerChild broker, Path work, String stamp, String peer, int round, int delay)
            throws IOException, InterruptedException {
        String name = peer + "-" + round;
        String topic = "kill-" + stamp + "-" + name;
        broker.createTopic(topic);
        Path ackFile = work.resolve(name + ".ack");
        Path journal = work.resolve(name + ".journal");
        boolean lockfreelog = peer.equals("lockfreelog-kafka");
        List<String> childArgs = List.of(peer, broker.bootstrap, topic, lockfreelog ? journal.toString() : "-",
                ackFile.toString());
        int exit;
        try (ChildJvm child = start(childArgs, "log", work, name)) {
            child.await("READY", 120);
            Thread.sleep(delay);
            exit = child.kill();
        }
        if (exit != 137) {
            return new Round(peer, round, delay, null, "-", "the child ended by itself (exit " + exit + ") before the kill");
        }
        long[] acks = KafkaKillChild.readAcks(ackFile);
        String restart = "-";
        if (lockfreelog) {
            try (ChildJvm child = start(childArgs, "recover", work, name + ".restart")) {
                String restarted = child.await("RESTARTED", 120);
                String stopped = child.await("STOPPED", 600);
                int restartExit = child.exit(60);
                restart = "restart: " + restarted.substring("RESTARTED ".length()) + "; at its stop: "
                        + stopped.substring("STOPPED ".length()) + (restartExit == 0 ? "" : "; exit " + restartExit);
            }
        }
        List<String> values = broker.readCommitted(topic).stream()
                .map(value -> value == null ? "" : new String(value, StandardCharsets.UTF_8)).toList();
        KafkaKillTally tally = KafkaKillTally.of(values, acks);
        String note = lockfreelog && tally.markers != 1 ? "restart marker found " + tally.markers + " time(s)" : "";
        return new Round(peer, round, delay, tally, restart, note);
    }

    /** This JVM's Kafka clients (the admin client, the consumer) log warnings only, not their settings at each start. */
    static void quietKafkaClients() {
        if (org.slf4j.LoggerFactory.getILoggerFactory() instanceof ch.qos.logback.classic.LoggerContext logback) {
            logback.getLogger("org.apache.kafka").setLevel(ch.qos.logback.classic.Level.WARN);
        }
    }

    private static ChildJvm start(List<String> childArgs, String mode, Path work, String name) throws IOException {
        List<String> args = new ArrayList<>(childArgs);
        args.add(mode);
        return ChildJvm.start(KafkaKillChild.class.getName(), List.of("-Xmx512m"), args, work, name);
    }

    static String header() {
        return String.format(Locale.ROOT, "%-24s %5s %8s %12s %12s %9s %10s %8s %7s %7s  %s", "peer", "round", "kill ms",
                "acknowledged", "found", "missing", "duplicates", "order", "beyond", "foreign", "restart / note");
    }

    static String row(Round r) {
        KafkaKillTally t = r.tally();
        if (t == null) {
            return String.format(Locale.ROOT, "%-24s %5d %8d  %s", r.peer(), r.round(), r.killedAfterMillis(), r.note());
        }
        String tail = (r.restart().equals("-") ? "" : r.restart()) + (r.note().isEmpty() ? "" : " " + r.note());
        return String.format(Locale.ROOT, "%-24s %5d %8d %,12d %,12d %,9d %,10d %,8d %,7d %,7d  %s", r.peer(), r.round(),
                r.killedAfterMillis(), t.acknowledged, t.found, t.missing, t.duplicates, t.outOfOrder,
                t.beyondAcknowledged, t.foreign, tail.trim());
    }

    static String tsvRow(Round r) {
        KafkaKillTally t = r.tally();
        List<String> cells = new ArrayList<>(List.of(r.peer(), Integer.toString(r.round()),
                Integer.toString(r.killedAfterMillis())));
        if (t == null) {
            cells.addAll(Arrays.asList("", "", "", "", "", "", ""));
        } else {
            for (long value : new long[] {t.acknowledged, t.found, t.missing, t.duplicates, t.outOfOrder,
                t.beyondAcknowledged, t.foreign}) {
                cells.add(Long.toString(value));
            }
        }
        cells.add(r.restart().replace('\t', ' '));
        cells.add(r.note().replace('\t', ' '));
        return String.join("\t", cells) + "\n";
    }

    /** Every round, then per peer: rounds, acknowledged, and how many were missing, duplicated, out of order. */
    static String render(List<Round> rounds) {
        StringBuilder text = new StringBuilder("Each round: a child JVM logs from 4 threads and is killed with SIGKILL"
                + " (kill ms after it is ready); acknowledged = the logging call returned.\n\n");
        text.append(header()).append('\n');
        rounds.forEach(r -> text.append(row(r)).append('\n'));
        text.append('\n').append(String.format(Locale.ROOT, "%-24s %6s %6s %14s %10s %14s %11s %9s%n", "peer", "rounds",
                "failed", "acknowledged", "missing", "rounds w/ loss", "duplicates", "order"));
        Map<String, List<Round>> byPeer = new LinkedHashMap<>();
        rounds.forEach(r -> byPeer.computeIfAbsent(r.peer(), k -> new ArrayList<>()).add(r));
        byPeer.forEach((peer, list) -> {
            List<KafkaKillTally> ok = list.stream().map(Round::tally).filter(t -> t != null).toList();
            text.append(String.format(Locale.ROOT, "%-24s %6d %6d %,14d %,10d %14d %,11d %,9d%n", peer, list.size(),
                    list.size() - ok.size(), ok.stream().mapToLong(t -> t.acknowledged).sum(),
                    ok.stream().mapToLong(t -> t.missing).sum(), ok.stream().filter(t -> t.missing > 0).count(),
                    ok.stream().mapToLong(t -> t.duplicates).sum(), ok.stream().mapToLong(t -> t.outOfOrder).sum()));
        });
        return text.toString();
    }
}
