package io.github.lockfreelog.kafka;

import io.github.lockfreelog.engine.SettingProblem;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerConfig;

/**
 * The producer settings a {@link LockFreeKafkaAppender} checks itself before start: {@code bootstrap.servers} given,
 * no {@code transactional.id} (each journal slot has its own), and the numbers the sink reads itself; the producer
 * checks the others when it is made (an ERROR names them). Also what the largest event of one request is, which the
 * engine's {@code maxEventSize} must fit.
 */
final class ProducerChecks {

    /** Kafka's default {@code max.request.size}. */
    static final int KAFKA_MAX_REQUEST_SIZE = 1024 * 1024;
    /** What a record holds beyond the event's frame, at most, within a request: the batch's and the record's headers. */
    static final int REQUEST_OVERHEAD = 1024;

    private ProducerChecks() {
    }

    /** A problem unless {@code producerConfig} names the cluster: the one producer setting that is required. */
    static void checkBootstrap(Map<String, Object> producerConfig, List<SettingProblem> problems) {
        if (producerConfig.get(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG) == null) {
            problems.add(new SettingProblem("producerConfig", null,
                    "bootstrap.servers among them, e.g. <producerConfig>bootstrap.servers=host:9092</producerConfig>"));
        }
    }

    /** Adds a problem for each producer setting given in {@code producerConfig} that the appender cannot run with. */
    static void checkGiven(Map<String, Object> producerConfig, List<SettingProblem> problems) {
        if (producerConfig.containsKey(ProducerConfig.TRANSACTIONAL_ID_CONFIG)) {
            problems.add(new SettingProblem("producerConfig", ProducerConfig.TRANSACTIONAL_ID_CONFIG + "="
                    + producerConfig.get(ProducerConfig.TRANSACTIONAL_ID_CONFIG),
                    "no transactional.id: each journal slot has its own; set transactionalIdPrefix instead"));
        }
        // the producer settings the sink reads itself
        wholeNumber(producerConfig, ProducerConfig.MAX_BLOCK_MS_CONFIG, Long.MAX_VALUE,
                "milliseconds, e.g. max.block.ms=10000", problems);
        wholeNumber(producerConfig, ProducerConfig.BATCH_SIZE_CONFIG, Integer.MAX_VALUE, "bytes, e.g. batch.size=262144",
                problems);
        wholeNumber(producerConfig, ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, Integer.MAX_VALUE,
                "milliseconds, e.g. transaction.timeout.ms=60000", problems);
        wholeNumber(producerConfig, ProducerConfig.MAX_REQUEST_SIZE_CONFIG, Integer.MAX_VALUE,
                "bytes, e.g. max.request.size=1048576", problems);
    }

    /**
     * An event the engine accepts must fit one request of the producer: a {@code maxEventSize} set above
     * {@code max.request.size} (less what a request adds) is a problem; unset, the engine's default is lowered to fit
     * (the appender's start).
     */
    static void checkEventSize(Map<String, Object> producerConfig, Object maxEventSize, long maxEventBytes,
            List<SettingProblem> problems) {
        int limit = maxRequestEvent(producerConfig);
        if (limit > 0 && maxEventSize != null && maxEventBytes > limit) {
            problems.add(new SettingProblem("maxEventSize", String.valueOf(maxEventSize), "at most " + limit
                    + " bytes: the producer's max.request.size (" + (limit + REQUEST_OVERHEAD) + ") less " + REQUEST_OVERHEAD
                    + " for the request's own bytes; Kafka would refuse every event between the two, or raise"
                    + " max.request.size"));
        }
    }

    /** The largest event frame one producer request takes; 0 when {@code max.request.size} is not a number. */
    static int maxRequestEvent(Map<String, Object> producerConfig) {
        Object given = producerConfig.get(ProducerConfig.MAX_REQUEST_SIZE_CONFIG);
        try {
            long size = given == null ? KAFKA_MAX_REQUEST_SIZE : Long.parseLong(given.toString().trim());
            return (int) Math.max(1, Math.min(Integer.MAX_VALUE, size - REQUEST_OVERHEAD));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** A problem unless producer setting {@code name}, where given, is a whole number from 0 to {@code max}. */
    private static void wholeNumber(Map<String, Object> producerConfig, String name, long max, String unit,
            List<SettingProblem> problems) {
        Object value = producerConfig.get(name);
        if (value == null) {
            return;
        }
        try {
            long number = Long.parseLong(value.toString().trim());
            if (number >= 0 && number <= max) {
                return;
            }
        } catch (NumberFormatException e) {
            // named below
        }
        problems.add(new SettingProblem("producerConfig", name + "=" + value, name + " as a whole number of " + unit));
    }
}
