package io.github.lockfreelog.benchmarks.cli;

import io.github.lockfreelog.benchmarks.peers.ByName;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The registry of the commands whose classes the file modes never load: each command's {@link Mode} by class name.
 * A new mode of that kind is a line here and its {@link Mode} in its package; the file modes (quick, cost, latency, scaling,
 * drain, ...) are dispatched by {@link BenchmarkRunner} itself.
 */
final class Modes {

    private static final String BASE = "io.github.lockfreelog.benchmarks.";
    /** Command to class, in the order the usage lists them. */
    private static final Map<String, String> CLASSES = new LinkedHashMap<>();

    static {
        CLASSES.put("kafka", BASE + "kafka.KafkaCommands");
        CLASSES.put("kafka-quick", BASE + "kafka.KafkaCommands");
        CLASSES.put("kafka-kill", BASE + "kafka.KafkaCommands");
        CLASSES.put("kafka-journal", BASE + "kafka.KafkaCommands");
        CLASSES.put("otlp-kill", BASE + "otlp.OtlpCommands");
        CLASSES.put("boot-app", BASE + "boot.BootCommands");
    }

    /** The modes whose saved runs {@code report} and {@code chart} may be given (their own file formats). */
    private static final List<String> SAVED_RUNS = List.of("kafka");

    private Modes() {
    }

    static boolean has(String command) {
        return CLASSES.containsKey(command);
    }

    /** The command's mode; an {@link IllegalStateException} saying which jars are missing when it cannot be loaded. */
    static Mode of(String command) {
        return ByName.load(CLASSES.get(command), Mode.class, "the " + command + " mode");
    }

    /** The modes, among those with saved runs, that are on the class path. */
    static List<Mode> savedRunReaders() {
        List<Mode> readers = new ArrayList<>();
        for (String command : SAVED_RUNS) {
            try {
                readers.add(of(command));
            } catch (IllegalStateException e) {
                // not on this class path (a trimmed one): its files cannot be read here, the others can
            }
        }
        return readers;
    }

    /** The usage line of each mode, one per class; where one cannot be loaded, a line that says so. */
    static List<String> usages() {
        List<String> lines = new ArrayList<>();
        Map<String, String> seen = new LinkedHashMap<>();
        CLASSES.forEach((command, name) -> seen.putIfAbsent(name, command));
        seen.forEach((name, command) -> {
            try {
                lines.add(of(command).usage());
            } catch (IllegalStateException e) {
                lines.add(command + " (not on this class path: " + name + ")");
            }
        });
        return lines;
    }
}
