package io.github.lockfreelog.benchmarks.otlp;

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
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * The otlp-kill mode: the kafka-kill test for the OTLP peers, against one {@link OtlpReceiver} in this JVM (it keeps
 * each record's body and {@code log.record.uid}). Per peer and round, a path of its own; a child JVM
 * ({@link OtlpKillChild}) logs from four threads as fast as its appender takes events and is killed with SIGKILL 1 to
 * 2 s after it is ready (seeded). lockfreelog-otlp is then restarted on the same journal and stopped once it delivered
 * its backlog; the OpenTelemetry appender has nothing to recover. Then what the receiver holds is counted against what
 * the child acknowledged ({@link KafkaKillTally}); a repeat whose uid is not its first copy's is counted in the note.
 * Writes {@code otlp-kill-STAMP.tsv} and {@code otlp-kill-STAMP.txt}.
 */
final class OtlpKillRunner {

    static final Set<String> OPTIONS = KafkaKillRunner.OPTIONS;
    static final String USAGE = "otlp-kill [--peers " + String.join(",", OtlpKillChild.PEERS) + "] [--rounds N (5)]"
            + " [--seed S] [--kill-after MS (1000)] [--kill-spread MS (1000)] [--results DIR] [--work DIR]";
    /** How long the receiver must stay without a new record before a killed peer's round is counted. */
    private static final long SETTLE_MILLIS = 1_500;

    private final PrintStream out;

    OtlpKillRunner(PrintStream out) {
        this.out = out;
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
            peers = List.of(options.text("--peers", String.join(",", OtlpKillChild.PEERS)).split(","));
            for (String peer : peers) {
                if (!OtlpKillChild.PEERS.contains(peer)) {
                    throw new IllegalArgumentException("unknown peer " + peer + " for --peers; peers: " + OtlpKillChild.PEERS);
                }
            }
            rounds = (int) options.number("--rounds", 5, 1, 1000);
            seed = options.number("--seed", System.nanoTime(), Long.MIN_VALUE, Long.MAX_VALUE);
            killAfter = (int) options.number("--kill-after", 1000, 0, 600_000);
            killSpread = (int) options.number("--kill-spread", 1000, 0, 600_000);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.err.println("usage: java -jar benchmarks/target/benchmarks.jar " + USAGE);
            return 2;
        }
        String stamp = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").format(ZonedDateTime.now(ZoneOffset.UTC));
        Path results = options.results();
        Files.createDirectories(results);
        Path work = options.text("--work", null) != null ? Files.createDirectories(Paths.get(options.text("--work", null)))
                : Files.createTempDirectory("lockfreelog-otlp-kill-");
        Path tsv = results.resolve("otlp-kill-" + stamp + ".tsv");
        String environment = String.format(Locale.ROOT, "otlp-kill mode, %s, seed %d, %d round(s), kill %d to %d ms after"
                + " ready, Java %s (%s), %d CPUs, %s", stamp, seed, rounds, killAfter, killAfter + killSpread,
                System.getProperty("java.version"), System.getProperty("java.vm.name"),
                Runtime.getRuntime().availableProcessors(), System.getProperty("os.name"));
        out.println("lockfreelog benchmarks, " + environment);
        out.println("Seed " + seed + " (replay with --seed " + seed + "); peers " + peers + "; work folder " + work
                + "; results " + tsv);
        Files.writeString(tsv, "# " + environment + "\n" + String.join("\t", KafkaKillRunner.COLUMNS) + "\n",
                StandardCharsets.UTF_8);
        Random random = new Random(seed);
        List<KafkaKillRunner.Round> done = new ArrayList<>();
        try (OtlpReceiver receiver = OtlpReceiver.start(true)) {
            out.println("OTLP receiver at " + receiver.baseUrl());
            out.println(KafkaKillRunner.header());
            for (String peer : peers) {
                for (int round = 1; round <= rounds; round++) {
                    int delay = killAfter + random.nextInt(killSpread + 1);
                    KafkaKillRunner.Round result;
                    try {
                        result = round(receiver, work, stamp, peer, round, delay);
                    } catch (IOException | RuntimeException e) {
                        result = new KafkaKillRunner.Round(peer, round, delay, null, "-", "failed: " + e.getMessage());
                    }
                    done.add(result);
                    out.println(KafkaKillRunner.row(result));
                    Files.writeString(tsv, KafkaKillRunner.tsvRow(result), StandardCharsets.UTF_8,
                            StandardOpenOption.APPEND);
                }
            }
        }
        String text = "lockfreelog benchmark results: " + environment + "\n\n" + KafkaKillRunner.render(done);
        Files.writeString(results.resolve("otlp-kill-" + stamp + ".txt"), text, StandardCharsets.UTF_8);
        out.println();
        out.println("=".repeat(100));
        out.print(text);
        out.println("=".repeat(100));
        out.println("Results: " + tsv);
        return 0;
    }

    private KafkaKillRunner.Round round(OtlpReceiver receiver, Path work, String stamp, String peer, int round, int delay)
            throws IOException, InterruptedException {
        String name = peer + "-" + round;
        String trial = "kill-" + stamp + "-" + name;
        Path ackFile = work.resolve(name + ".ack");
        Path journal = work.resolve(name + ".journal");
        boolean lockfreelog = peer.equals(Peer.LOCKFREELOG_OTLP.id());
        List<String> childArgs = List.of(peer, OtlpReceiver.endpoint(receiver.baseUrl(), trial),
                lockfreelog ? journal.toString() : "-", ackFile.toString());
        int exit;
        try (ChildJvm child = start(childArgs, "log", work, name)) {
            child.await("READY", 120);
            Thread.sleep(delay);
            exit = child.kill();
        }
        if (exit != 137) {
            return new KafkaKillRunner.Round(peer, round, delay, null, "-", "the child ended by itself (exit " + exit
                    + ") before the kill");
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
        List<OtlpReceiver.Received> received = settled(receiver.trial(trial));
        KafkaKillTally tally = KafkaKillTally.of(received.stream().map(r -> r.body() == null ? "" : r.body()).toList(),
                acks);
        List<String> notes = new ArrayList<>();
        if (lockfreelog && tally.markers != 1) {
            notes.add("restart marker found " + tally.markers + " time(s)");
        }
        long otherUid = uidMismatches(received);
        if (otherUid > 0 || (lockfreelog && received.stream().anyMatch(r -> r.uid() == null))) {
            notes.add(otherUid + " repeat(s) with another uid than the first copy's; records without uid "
                    + received.stream().filter(r -> r.uid() == null).count());
        }
        return new KafkaKillRunner.Round(peer, round, delay, tally, restart, String.join("; ", notes));
    }

    /** The trial's records once no new one came for {@value #SETTLE_MILLIS} ms (a killed peer's requests in flight). */
    private static List<OtlpReceiver.Received> settled(OtlpReceiver.Trial trial) throws InterruptedException {
        long seen = -1;
        while (true) {
            long now;
            synchronized (trial) {
                now = trial.records;
            }
            if (now == seen) {
                synchronized (trial) {
                    return List.copyOf(trial.kept);
                }
            }
            seen = now;
            Thread.sleep(SETTLE_MILLIS);
        }
    }

    /** Repeats of a body whose uid is not the first copy's: a repeat must be recognisable as one. */
    static long uidMismatches(List<OtlpReceiver.Received> received) {
        Map<String, String> first = new HashMap<>();
        long mismatches = 0;
        for (OtlpReceiver.Received r : received) {
            String before = first.putIfAbsent(r.body(), String.valueOf(r.uid()));
            if (before != null && !before.equals(String.valueOf(r.uid()))) {
                mismatches++;
            }
        }
        return mismatches;
    }

    private static ChildJvm start(List<String> childArgs, String mode, Path work, String name) throws IOException {
        List<String> args = new ArrayList<>(childArgs);
        args.add(mode);
        return ChildJvm.start(OtlpKillChild.class.getName(), List.of("-Xmx1g"), args, work, name);
    }
}
