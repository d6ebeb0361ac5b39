package io.github.lockfreelog.benchmarks.kafka;

import io.github.lockfreelog.benchmarks.peers.Peer;
import io.github.lockfreelog.benchmarks.peers.Workload;
import java.util.Arrays;
import java.util.List;

/**
 * The peers of the kafka mode, each measured in a JVM of its own ({@link KafkaFork}) against the run's one broker
 * ({@link KafkaBroker}), and the file appender beside them as the yardstick of the caller's CPU. Every one logs the
 * classic workload's line ({@link Workload#LOGBACK_PATTERN}, or its Log4j2 twin) through its framework's own API.
 * Producer settings are each peer's own defaults with the client's (kafka-clients 4.x: {@code acks=all},
 * idempotence on, {@code linger.ms=5}), only {@code bootstrap.servers} given, unless the run adds
 * {@code --producer-property} settings.
 */
public enum KafkaPeer {

    LOCKFREELOG_KAFKA(Peer.KAFKA_LEAD, Peer.Framework.LOGBACK,
            "lockfreelog LockFreeKafkaAppender, default settings (3 buffers of 8 MB, backpressure BLOCK; transactional,"
                    + " acks=all, idempotence), journal in the fork's folder (/dev/shm by default)"),
    LOGBACK_KAFKA_ASYNC("logback-kafka-async", Peer.Framework.LOGBACK,
            "logback-kafka-appender 0.2.0-RC2, AsynchronousDeliveryStrategy (producer.send with a callback), no key"),
    LOGBACK_KAFKA_BLOCKING("logback-kafka-blocking", Peer.Framework.LOGBACK,
            "logback-kafka-appender 0.2.0-RC2, BlockingDeliveryStrategy (each caller waits for its record's ack), no key"),
    LOG4J2_KAFKA_ASYNC("log4j2-kafka-async", Peer.Framework.LOG4J2,
            "Log4j2 KafkaAppender, syncSend=false (send with a callback; Log4j2 sets batch.size=0 unless given)"),
    LOG4J2_KAFKA_SYNC("log4j2-kafka-sync", Peer.Framework.LOG4J2,
            "Log4j2 KafkaAppender, syncSend=true, its default (each caller waits for its record's ack; batch.size=0)"),
    /** Not a Kafka peer: the same engine writing a file, the yardstick of the caller's CPU per call. */
    LOCKFREELOG_FILE(Peer.KAFKA_FILE_REFERENCE, Peer.Framework.LOGBACK,
            "reference, not a Kafka peer: lockfreelog LockFreeFileAppender, default settings, file and journal in the"
                    + " fork's folder (/dev/shm by default)");

    private final String id;
    private final Peer.Framework framework;
    private final String description;

    KafkaPeer(String id, Peer.Framework framework, String description) {
        this.id = id;
        this.framework = framework;
        this.description = description;
    }

    String id() {
        return id;
    }

    Peer.Framework framework() {
        return framework;
    }

    String description() {
        return description;
    }

    /** Whether it delivers to the broker; the file reference does not. */
    boolean isKafka() {
        return this != LOCKFREELOG_FILE;
    }

    static KafkaPeer of(String id) {
        return Arrays.stream(values()).filter(p -> p.id.equals(id)).findFirst().orElseThrow(() ->
                new IllegalArgumentException("unknown kafka peer=" + id + ", known=" + ids()));
    }

    static List<String> ids() {
        return Arrays.stream(values()).map(KafkaPeer::id).toList();
    }

    /** {@code ids} in the order of this enum (the reference last). */
    static List<String> order(java.util.Collection<String> ids) {
        return Arrays.stream(values()).map(KafkaPeer::id).filter(ids::contains).toList();
    }
}
