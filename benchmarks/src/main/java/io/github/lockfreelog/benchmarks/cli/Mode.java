package io.github.lockfreelog.benchmarks.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;

/**
 * A command whose classes live in a package the file modes never load (the Kafka modes, the OTLP kill test, the Spring
 * Boot application mode): {@link Modes} finds it by class name, so that a run of the file modes needs no broker, no
 * OpenTelemetry SDK and no Spring context on its class path. An implementation is public, with a public no-argument
 * constructor.
 */
public interface Mode {

    /** Runs the command; {@code args} is the whole command line, its first word the command. Returns the exit status. */
    int run(String[] args, PrintStream out) throws Exception;

    /** The command's usage line, for the runner's help. */
    String usage();

    /**
     * A class of each jar the mode needs beyond the file benchmarks' (a class path trimmed for the file modes lacks
     * them): checked before it runs, so that it stops with a message that names them rather than halfway.
     */
    List<String> requires();

    /** The mode's own peers, a line each (id and what it is), for the {@code peers} command; empty when it has none. */
    default String peers() {
        return "";
    }

    /** Whether {@code tsv} is a saved run of this mode, which {@link #report} and {@link #chart} then read. */
    default boolean reads(Path tsv) throws IOException {
        return false;
    }

    /** Prints the tables of a saved run again. */
    default void report(Path tsv, PrintStream out) throws IOException {
        throw new UnsupportedOperationException("no saved runs");
    }

    /** Draws the charts of a saved run again: into {@code png}, or the mode's chart in {@code docs} when null. */
    default void chart(Path tsv, Path png, Path docs, String subtitle, PrintStream out) throws IOException {
        throw new UnsupportedOperationException("no saved runs");
    }
}
