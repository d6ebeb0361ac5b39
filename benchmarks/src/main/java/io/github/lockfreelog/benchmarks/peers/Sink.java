package io.github.lockfreelog.benchmarks.peers;

import java.io.IOException;
import java.nio.file.Path;

/** One peer, configured in this JVM: what the benchmark logs through and stops at the end. */
public interface Sink {

    /** Logs one INFO line through the framework's own API. */
    void log(String message);

    /** Stops the framework so that everything it accepted is flushed to its file. */
    void stop() throws IOException;

    /**
     * Reads a number that moves whenever the peer swaps buffers or waits for one (lockfreelog: its journal's
     * active term count), for the slow-call diagnosis ({@code SlowCalls}); null for a peer without one.
     */
    default java.util.function.LongSupplier bufferProbe() throws IOException {
        return null;
    }

    /** The file the peer writes (for a console peer, its named pipe), or {@code null} when it writes none (encode-only). */
    Path logFile();

    /**
     * What the peer wrote, after {@link #stop()}: the lines in its file; for a console peer, the lines
     * its pipe's reader received (the reader counts them: {@link ConsolePipe}).
     */
    default LineCounter.Count count() throws IOException {
        return LineCounter.count(logFile());
    }

    /**
     * Returns once what the peer sets up after its start, off the callers' threads, is done, so that a trial's schedule
     * does not begin inside it; at once for a peer that sets up nothing that way (the default). A Kafka peer is
     * ready when the call made before has reached its topic; waits at most {@code timeoutNanos}.
     */
    default void awaitReady(long timeoutNanos) throws InterruptedException {
    }

    /** Counters the peer keeps about itself, as {@code key=value} pairs, read after {@link #stop()}; empty if none. */
    default String details() {
        return "";
    }

    /**
     * The OTLP peers' sinks, in the {@code otlp} package: loaded by name ({@link ByName}), so that the OpenTelemetry
     * jars are needed only by a run that names an OTLP peer.
     */
    String OTLP_SINKS = "io.github.lockfreelog.benchmarks.otlp.OtlpSink$Factory";

    /** Opens the sink of a peer whose classes are in a package of its own (the OTLP peers'), found by name. */
    interface Factory {

        /** Configures the framework of {@code peer} in this JVM, writing into {@code directory}. */
        Sink open(Peer peer, Path directory) throws IOException;
    }

    /** Configures the framework of {@code peer} in this JVM, writing into {@code directory}. */
    static Sink open(Peer peer, Path directory) throws IOException {
        if (peer.sendsOtlp()) {
            return ByName.load(OTLP_SINKS, Factory.class, "peer=" + peer.id()).open(peer, directory);
        }
        return switch (peer.framework()) {
            case LOGBACK -> LogbackSink.open(peer, directory);
            case LOG4J2 -> Log4jSink.open(peer, directory);
        };
    }
}
