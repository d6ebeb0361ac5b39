package io.github.lockfreelog.autoconfigure;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

/** One KRaft broker for the starter's Kafka tests, started at first use, within the test JVM. */
final class KafkaTestBroker {

    private static EmbeddedKafkaKraftBroker broker;

    private KafkaTestBroker() {
    }

    static synchronized String bootstrap() {
        if (broker == null) {
            EmbeddedKafkaKraftBroker started = new EmbeddedKafkaKraftBroker(1, 1);
            started.brokerProperties(Map.of("transaction.state.log.replication.factor", "1",
                    "transaction.state.log.min.isr", "1", "transaction.state.log.num.partitions", "1",
                    "offsets.topic.num.partitions", "1", "group.initial.rebalance.delay.ms", "0"));
            started.afterPropertiesSet();
            broker = started;
            Runtime.getRuntime().addShutdownHook(new Thread(started::destroy));
        }
        return broker.getBrokersAsString();
    }

    /** A new topic of one partition, named after {@code prefix}. */
    static String newTopic(String prefix) {
        bootstrap();
        String topic = prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
        broker.addTopics(new NewTopic(topic, 1, (short) 1));
        return topic;
    }

    /**
     * The value of every record of {@code topic} a {@code read_committed} consumer sees, read up to the high watermark:
     * a commit returns before the broker wrote its markers, and until then the last stable offset (a read_committed
     * consumer's end offset) stays before the transaction.
     */
    static List<String> readCommitted(String topic) {
        Map<String, Object> config = new HashMap<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(),
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_uncommitted",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class));
        TopicPartition partition = new TopicPartition(topic, 0);
        long end;
        try (KafkaConsumer<byte[], byte[]> peek = new KafkaConsumer<>(config)) {
            end = peek.endOffsets(List.of(partition)).get(partition);
        }
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        List<String> values = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config)) {
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (consumer.position(partition) < end && System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    values.add(new String(record.value(), StandardCharsets.UTF_8));
                }
            }
        }
        return values;
    }
}
