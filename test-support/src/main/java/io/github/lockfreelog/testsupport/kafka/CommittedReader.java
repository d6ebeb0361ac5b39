package io.github.lockfreelog.testsupport.kafka;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * What a {@code read_committed} consumer sees of partition 0 of a topic, the one read every test makes of what a
 * sink delivered.
 */
public final class CommittedReader {

    private CommittedReader() {
    }

    /**
     * Every record of {@code topic}, read up to the high watermark as it is now, within 30 s: a commit returns before
     * the broker wrote its markers, and until then the last stable offset, which a {@code read_committed} consumer's
     * end offset is, stays before the transaction (a read up to it right after a stop found nothing).
     */
    public static List<ConsumerRecord<byte[], byte[]>> toHighWatermark(String bootstrap, String topic) {
        return toHighWatermark(bootstrap, topic, Duration.ofSeconds(30));
    }

    /** The same, within {@code deadline} (a cluster that lost a broker may take longer to answer). */
    public static List<ConsumerRecord<byte[], byte[]>> toHighWatermark(String bootstrap, String topic,
            Duration deadline) {
        return toHighWatermark(bootstrap, new TopicPartition(topic, 0), deadline);
    }

    /** Every record of each of {@code topic}'s first {@code partitions} partitions, by partition, each read as above. */
    public static List<List<ConsumerRecord<byte[], byte[]>>> toHighWatermark(String bootstrap, String topic,
            int partitions) {
        List<List<ConsumerRecord<byte[], byte[]>>> all = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            all.add(toHighWatermark(bootstrap, new TopicPartition(topic, p), Duration.ofSeconds(30)));
        }
        return all;
    }

    private static List<ConsumerRecord<byte[], byte[]>> toHighWatermark(String bootstrap, TopicPartition partition,
            Duration deadline) {
        Map<String, Object> config = config(bootstrap, "read_uncommitted");
        long end;
        try (KafkaConsumer<byte[], byte[]> peek = new KafkaConsumer<>(config)) {
            end = peek.endOffsets(List.of(partition), deadline).get(partition); // the high watermark, markers included
        }
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config)) {
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            long until = System.nanoTime() + deadline.toNanos();
            while (consumer.position(partition, deadline) < end && System.nanoTime() < until) {
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
            }
        }
        return records;
    }

    /** The values of {@link #toHighWatermark(String, String)}, as UTF-8 text. */
    public static List<String> values(String bootstrap, String topic) {
        return toHighWatermark(bootstrap, topic).stream().map(CommittedReader::value).toList();
    }

    /**
     * Every record value of {@code topic} read until the end offset stayed where it was for {@code quiet} (what a
     * killed producer had sent keeps arriving for a moment), or {@code deadline} ran out.
     */
    public static List<byte[]> untilQuiet(String bootstrap, String topic, Duration quiet, Duration deadline) {
        Map<String, Object> config = config(bootstrap, "read_committed");
        List<byte[]> values = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config)) {
            TopicPartition partition = new TopicPartition(topic, 0);
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            long until = System.nanoTime() + deadline.toNanos();
            long end = -1;
            while (System.nanoTime() < until) {
                long now = consumer.endOffsets(List.of(partition)).get(partition);
                if (now == end && consumer.position(partition) >= end) {
                    break;
                }
                end = now;
                long pass = System.nanoTime() + quiet.toNanos();
                while (System.nanoTime() < pass || consumer.position(partition) < end) {
                    for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                        values.add(record.value());
                    }
                    if (System.nanoTime() > until) {
                        break;
                    }
                }
            }
        }
        return values;
    }

    /** A consumer's settings for reading one assigned partition, no group, byte arrays. */
    public static Map<String, Object> config(String bootstrap, String isolation) {
        return new HashMap<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 10_000,
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class));
    }

    public static String value(ConsumerRecord<byte[], byte[]> record) {
        return new String(record.value(), StandardCharsets.UTF_8);
    }
}
