package io.github.lockfreelog.benchmarks.kafka;

import io.github.lockfreelog.testsupport.ChildJvm;
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

/**
 * The kill test that kafka-kill ({@link KafkaKillRunner}) and otlp-kill (the otlp package's {@code OtlpKillRunner})
 * share: per peer and round, a child JVM logs from four threads as fast as its appender takes events ({@link
 * KafkaKillChild#logUntilKilled}) and is killed with SIGKILL after a seeded delay ({@code --seed} replays it); the
 * lockfreelog peer is then restarted on the same journal, as an application's restart would, and stopped once it
 * delivered its backlog; then what the target holds is counted against what the child acknowledged
 * ({@link KafkaKillTally}). Writes {@code MODE-STAMP.tsv} (a row per round) and {@code MODE-STAMP.txt} (the tables).
 * A subclass says what the children send to ({@link #open}) and how a round reads it back ({@link Target#round}).
 */
public abstract class KillTest {

    static final Set<String> OPTIONS = Set.of("--peers", "--rounds", "--seed", "--kill-after", "--kill-spread", "--results",
            "--work");
    static final String[] COLUMNS = {"peer", "round", "killed_after_ms", "acknowledged", "found", "missing",
        "duplicates", "out_of_order", "beyond_acknowledged", "foreign", "restart", "note"};

    protected final PrintStream out;
    private final String mode;
    private final List<String> peers;

    /** {@code mode}: the command ({@code kafka-kill}); {@code peers}: those {@code --peers} may name, the default all. */
    protected KillTest(PrintStream out, String mode, List<String> peers) {
        this.out = out;
        this.mode = mode;
        this.peers = peers;
    }

    /** One round's figures; {@code tally} is null when the round failed ({@code note} says why). */
    public record Round(String peer, int round, int killedAfterMillis, KafkaKillTally tally, String restart, String note) {
    }

    /** What the children of a run send to (a broker, a receiver), open for the whole run. */
    protected interface Target extends AutoCloseable {

        /** Runs one round of {@code peer}: its child killed {@code delay} ms after it is ready. */
        Round round(Path work, String stamp, String peer, int round, int delay) throws IOException, InterruptedException;
    }

    /** The usage line of the mode. */
    public String usage() {
        return mode + " [--peers " + String.join(",", peers) + "] [--rounds N (5)] [--seed S] [--kill-after MS (1000)]"
                + " [--kill-spread MS (1000)] [--results DIR (docs/benchmark-results)] [--work DIR (journals, ack files,"
                + " children's standard error; a new folder in java.io.tmpdir)]";
    }

    /** Opens the run's target, printing where it is. */
    protected abstract Target open(Path work) throws IOException, InterruptedException;

    /** What the run's first line says beyond the mode, seed, rounds, Java and machine (e.g. the client's version). */
    protected String environmentTail() {
        return "";
    }

    public final int run(String[] args) throws Exception {
        KafkaModeOptions options;
        List<String> chosen;
        int rounds;
        long seed;
        int killAfter;
        int killSpread;
        try {
            options = KafkaModeOptions.parse(args, OPTIONS);
            chosen = List.of(options.text("--peers", String.join(",", peers)).split(","));
            for (String peer : chosen) {
                if (!peers.contains(peer)) {
                    throw new IllegalArgumentException("unknown peer " + peer + " for --peers; peers: " + peers);
                }
            }
            rounds = (int) options.number("--rounds", 5, 1, 1000);
            seed = options.number("--seed", System.nanoTime(), Long.MIN_VALUE, Long.MAX_VALUE);
            // the kill comes killAfter ms after the child is ready, plus up to killSpread ms (seeded)
            killAfter = (int) options.number("--kill-after", 1000, 0, 600_000);
            killSpread = (int) options.number("--kill-spread", 1000, 0, 600_000);
        } catch (IllegalArgumentException e) {
            return KafkaModeOptions.refuse(e, usage());
        }
        String stamp = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").format(ZonedDateTime.now(ZoneOffset.UTC));
        Path results = options.results();
        Files.createDirectories(results);
        Path work = options.text("--work", null) != null ? Files.createDirectories(Paths.get(options.text("--work", null)))
                : Files.createTempDirectory("lockfreelog-" + mode + "-");
        Path tsv = results.resolve(mode + "-" + stamp + ".tsv");
        String environment = String.format(Locale.ROOT, "%s mode, %s, seed %d, %d round(s), kill %d to %d ms after"
                + " ready, Java %s (%s), %d CPUs, %s%s", mode, stamp, seed, rounds, killAfter, killAfter + killSpread,
                System.getProperty("java.version"), System.getProperty("java.vm.name"),
                Runtime.getRuntime().availableProcessors(), System.getProperty("os.name"), environmentTail());
        out.println("lockfreelog benchmarks, " + environment);
        out.println("Seed " + seed + " (replay with --seed " + seed + "); peers " + chosen + "; work folder " + work
                + "; results " + tsv);
        Files.writeString(tsv, "# " + environment + "\n" + String.join("\t", COLUMNS) + "\n", StandardCharsets.UTF_8);

        Random random = new Random(seed);
        List<Round> done = new ArrayList<>();
        try (Target target = open(work)) {
            out.println(header());
            for (String peer : chosen) {
                for (int round = 1; round <= rounds; round++) {
                    int delay = killAfter + random.nextInt(killSpread + 1);
                    Round result;
                    try {
                        result = target.round(work, stamp, peer, round, delay);
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
        Files.writeString(results.resolve(mode + "-" + stamp + ".txt"), text, StandardCharsets.UTF_8);
        out.println();
        out.println("=".repeat(100));
        out.print(text);
        out.println("=".repeat(100));
        out.println("Results: " + tsv);
        return 0;
    }

    /**
     * What a killed child left: the numbers its threads acknowledged and, for a peer restarted on its journal, what
     * its restart said ({@code -} for one that has none); {@code failure} when the child ended by itself before the kill.
     */
    protected record Killed(long[] acks, String restart, String failure) {
    }

    /**
     * Runs {@code childMain} with {@code childArgs} and {@code log}, kills it {@code delay} ms after its {@code READY},
     * reads its ack file; then, when {@code restart}, runs it again with {@code recover} and waits for its stop.
     */
    protected static Killed kill(String childMain, String heap, List<String> childArgs, Path ackFile, boolean restart,
            Path work, String name, int delay) throws IOException, InterruptedException {
        int exit;
        try (ChildJvm child = start(childMain, heap, childArgs, "log", work, name)) {
            child.await("READY", 120);
            Thread.sleep(delay);
            exit = child.kill();
        }
        if (exit != 137) {
            return new Killed(null, "-", "the child ended by itself (exit " + exit + ") before the kill");
        }
        long[] acks = KafkaKillChild.readAcks(ackFile);
        String restarted = "-";
        if (restart) {
            try (ChildJvm child = start(childMain, heap, childArgs, "recover", work, name + ".restart")) {
                String started = child.await("RESTARTED", 120);
                String stopped = child.await("STOPPED", 600);
                int restartExit = child.exit(60);
                restarted = "restart: " + started.substring("RESTARTED ".length()) + "; at its stop: "
                        + stopped.substring("STOPPED ".length()) + (restartExit == 0 ? "" : "; exit " + restartExit);
            }
        }
        return new Killed(acks, restarted, null);
    }

    private static ChildJvm start(String childMain, String heap, List<String> childArgs, String mode, Path work,
            String name) throws IOException {
        List<String> args = new ArrayList<>(childArgs);
        args.add(mode);
        return ChildJvm.start(childMain, List.of(heap), args, work, name);
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
