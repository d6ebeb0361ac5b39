package io.github.lockfreelog.benchmarks.peers;

import java.io.IOException;
import java.io.PrintStream;

/**
 * What a peer needs in the runner's JVM before its forks start, so that the forks' CPU time never includes it: the
 * OTLP peers' receiver ({@link Peer#runnerService()} names its class). It lives until the runner's JVM exits.
 */
public interface RunnerService {

    /** The system property that names the service to the forks; a runner started with it set uses that one. */
    String property();

    /** Starts the service; returns the property's value (set in the runner's JVM, which hands it to the forks). */
    String start(PrintStream out) throws IOException;
}
