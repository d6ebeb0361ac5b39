package io.github.lockfreelog.sink;

import java.util.Locale;

/** What an engine's lines go to: a log file, the process's standard output (or error), a Kafka topic or an OTLP collector. */
public enum LogTarget {
    /** A log file, which other instances may share and which can be read back. */
    FILE,
    /** Standard output or standard error, often a pipe that the platform reads; nothing to read back. */
    CONSOLE,
    /**
     * Records in a Kafka topic, delivered by lockfreelog-kafka's record sink; core knows only the name, so that
     * statistics, the endpoint and the meters say {@code target=kafka}.
     */
    KAFKA,
    /**
     * Log records sent to an OpenTelemetry collector over OTLP/HTTP by lockfreelog-otlp's record sink; core knows only
     * the name, so that statistics, the endpoint and the meters say {@code target=otlp}.
     */
    OTLP;

    /** The name the statistics, the endpoint and the meters give it: {@code file} or {@code console}. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }
}
