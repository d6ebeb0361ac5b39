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

    static List<String> commands() {
        return List.copyOf(CLASSES.keySet());
    }

    static boolean has(String command) {
        return CLASSES.containsKey(command);
    }

    /**
     * The command's mode, its jars checked ({@link Mode#requires()}); an {@link IllegalStateException} that names what is
     * missing when it cannot be loaded or a jar it needs is not on the class path.
     */
    static Mode of(String command) {
        return load(command, CLASSES.get(command));
    }

    static Mode load(String command, String className) {
        Mode mode = ByName.load(className, Mode.class, "the " + command + " mode");
        List<String> missing = mode.requires().stream().filter(name -> !present(name)).toList();
        if (!missing.isEmpty()) {
            throw new IllegalStateException("the " + command + " mode needs " + missing + " on the class path, which lacks"
                    + " them (benchmarks/target/benchmarks.jar has every jar)");
        }
        return mode;
    }

    private static boolean present(String className) {
        try {
            Class.forName(className, false, Modes.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /** The modes, among those with saved runs, that are on the class path. */
    static List<Mode> savedRunReaders() {
        List<Mode> readers = new ArrayList<>();
        for (String command : SAVED_RUNS) {
            try {
                readers.add(of(command));
            } catch (IllegalStateException | LinkageError e) {
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
            } catch (IllegalStateException | LinkageError e) {
                lines.add(command + " (not runnable on this class path: " + e.getMessage() + ")");
            }
        });
        return lines;
    }
}
