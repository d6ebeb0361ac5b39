package io.github.lockfreelog.kafka;

import io.github.lockfreelog.diagnostics.StatusReporter;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.ProducerConfig;

/**
 * What every part of one slot's sink reads: the topics, the slot's id, the client settings and the few of them the
 * sink itself obeys, how the user names the settings, where to report and what to count.
 *
 * @param positionTopic the position topic; {@code null} with transactions off
 * @param slotId the slot's {@code transactional.id}, or (transactions off) the producer's {@code client.id}
 * @param positionReplication the position topic's replication factor when the sink creates it: 0 for
 *        {@code min(3, brokers)}, -1 for the broker's {@code default.replication.factor}
 * @param positionTopicConfig topic settings over the position topic's defaults when the sink creates it
 * @param lingerNanos how long after one transaction began the next begins, unless the journal holds a full one
 * @param deliveryBytes the most bytes of events one delivery gathers (a journal buffer's, at most 16 MB)
 */
record SlotSettings(String topic, String positionTopic, String slotId, Map<String, Object> clientConfig,
        short positionReplication, Map<String, String> positionTopicConfig, long lingerNanos, int deliveryBytes,
        SettingNames names,
        KafkaCounters counters, StatusReporter status) {

    /** Kafka's default {@code transaction.timeout.ms}. */
    static final long KAFKA_TRANSACTION_TIMEOUT_MS = 60_000;

    SlotSettings {
        clientConfig = Map.copyOf(clientConfig);
        positionTopicConfig = Map.copyOf(positionTopicConfig);
    }

    boolean transactional() {
        return positionTopic != null;
    }

    /** The producer's {@code max.block.ms}: every call of the sink to the cluster is bounded by it. */
    long maxBlockMillis() {
        return millis(ProducerConfig.MAX_BLOCK_MS_CONFIG, 60_000);
    }

    /** The producer's {@code transaction.timeout.ms}: how long a transaction may stay open before the broker aborts it. */
    long transactionTimeoutNanos() {
        return TimeUnit.MILLISECONDS.toNanos(millis(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, KAFKA_TRANSACTION_TIMEOUT_MS));
    }

    private long millis(String name, long otherwise) {
        Object value = clientConfig.get(name);
        return value == null ? otherwise : Long.parseLong(value.toString().trim());
    }

    /**
     * The client settings a consumer or an admin client knows, from the producer's: not {@code client.id} (the
     * producer's own) nor {@code interceptor.classes} (a consumer would load the producer's interceptors as its own,
     * and fail to start).
     */
    Map<String, Object> filtered(Set<String> known) {
        Map<String, Object> config = new HashMap<>();
        clientConfig.forEach((key, value) -> {
            if (known.contains(key) && !key.equals(ProducerConfig.CLIENT_ID_CONFIG)
                    && !key.equals(ProducerConfig.INTERCEPTOR_CLASSES_CONFIG)) {
                config.put(key, value);
            }
        });
        return config;
    }
}
