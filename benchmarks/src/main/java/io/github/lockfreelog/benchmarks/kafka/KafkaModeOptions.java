package io.github.lockfreelog.benchmarks.kafka;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The options of the kafka-kill and kafka-journal modes ({@code --name value}), parsed apart from the file modes' {@code Arguments}
 * (their peers are not the appender benchmarks' peers). Results go to {@code docs/benchmark-results} unless
 * {@code --results} says otherwise.
 */
final class KafkaModeOptions {

    private final Map<String, String> values = new LinkedHashMap<>();

    private KafkaModeOptions() {
    }

    /** Parses {@code args} after the mode's name; an option not in {@code allowed}, or without a value, is refused. */
    static KafkaModeOptions parse(String[] args, Set<String> allowed) {
        KafkaModeOptions options = new KafkaModeOptions();
        for (int i = 1; i < args.length; i++) {
            String name = args[i];
            if (!allowed.contains(name)) {
                throw new IllegalArgumentException("unknown option " + name + " for " + args[0] + "; allowed: " + allowed);
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException("option " + name + " needs a value");
            }
            options.values.put(name, args[++i]);
        }
        return options;
    }

    /** Prints a refused command line's problem and the mode's usage; returns the exit status, 2. */
    static int refuse(IllegalArgumentException problem, String usage) {
        System.err.println(problem.getMessage());
        System.err.println("usage: java -jar benchmarks/target/benchmarks.jar " + usage);
        return 2;
    }

    String text(String name, String otherwise) {
        return values.getOrDefault(name, otherwise);
    }

    long number(String name, long otherwise, long min, long max) {
        String value = values.get(name);
        if (value == null) {
            return otherwise;
        }
        long parsed;
        try {
            parsed = Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be a whole number from " + min + " to " + max + ": " + value);
        }
        if (parsed < min || parsed > max) {
            throw new IllegalArgumentException(name + " must be from " + min + " to " + max + ": " + value);
        }
        return parsed;
    }

    /** {@code --results}, else the repository's {@code docs/benchmark-results} (run from its root or benchmarks/). */
    Path results() {
        String results = values.get("--results");
        if (results != null) {
            return Paths.get(results);
        }
        if (Paths.get("benchmarks", "pom.xml").toFile().isFile()) {
            return Paths.get("docs", "benchmark-results");
        }
        return Paths.get("..", "docs", "benchmark-results");
    }
}
