package io.github.lockfreelog.benchmarks;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** The runner's command line: a command, file arguments, and {@code --name value} options. */
final class Arguments {

    String command = "quick";
    final List<String> files = new ArrayList<>();
    List<String> peers;
    List<Integer> threads;
    List<Long> rates;
    Integer warmupSeconds;
    Integer measureSeconds;
    Integer forks;
    Integer events;
    Path results;
    Path docs;
    String label;

    static String usage() {
        return "usage: java -jar benchmarks/target/benchmarks.jar quick|latency-quick|latency|full|console|cost|virtual"
                + "|report FILE.tsv|chart FILE.tsv [OUT.png]|peers"
                + " [--peers a,b] [--threads 1,2,4] [--rates 10000,100000] [--warmup S] [--measure S] [--forks N]"
                + " [--events N (virtual)]"
                + " [--results DIR] [--docs DIR] [--label TEXT]\n"
                + "peers: " + String.join(",", Peer.ids());
    }

    static Arguments parse(String[] args) {
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
                case "--events" -> a.events = Integer.valueOf(value);
                case "--results" -> a.results = Paths.get(value);
                case "--docs" -> a.docs = Paths.get(value);
                case "--label" -> a.label = value;
                default -> throw new IllegalArgumentException("unknown option " + arg);
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

    List<String> peers() {
        return peers != null ? peers : Peer.defaultIds(command);
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
