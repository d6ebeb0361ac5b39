package io.github.lockfreelog.kafka;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.UUID;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

/** One KRaft broker for every test of the module, started at first use, within the test JVM. */
final class TestBroker {

    private static EmbeddedKafkaKraftBroker broker;

    private TestBroker() {
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
        return newTopic(prefix, Map.of());
    }

    /** Creates the topic {@code name}, of one partition, now. */
    static void createTopic(String name) {
        bootstrap();
        broker.addTopics(new NewTopic(name, 1, (short) 1));
    }

    /** A new topic of one partition, named after {@code prefix}, with the topic settings {@code configs}. */
    static String newTopic(String prefix, Map<String, String> configs) {
        return newTopic(prefix, 1, configs);
    }

    /** A new topic of {@code partitions} partitions, named after {@code prefix}, with the topic settings {@code configs}. */
    static String newTopic(String prefix, int partitions, Map<String, String> configs) {
        bootstrap();
        String topic = prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
        broker.addTopics(new NewTopic(topic, partitions, (short) 1).configs(configs));
        return topic;
    }

    /**
     * Every record of {@code topic} a {@code read_committed} consumer sees, read up to the topic's high watermark: a
     * commit returns before the broker wrote its markers, and until then the last stable offset, which a
     * {@code read_committed} consumer's end offset is, stays before the transaction (a read up to it right after a
     * stop found nothing).
     */
    static List<ConsumerRecord<byte[], byte[]>> readCommitted(String topic) {
        return readCommitted(bootstrap(), topic);
    }

    /** The same, from the broker at {@code bootstrap} (a test's own broker). */
    static List<ConsumerRecord<byte[], byte[]>> readCommitted(String bootstrap, String topic) {
        return readCommitted(bootstrap, new TopicPartition(topic, 0));
    }

    /** Every record a {@code read_committed} consumer sees in each of {@code topic}'s first {@code partitions}, by partition. */
    static List<List<ConsumerRecord<byte[], byte[]>>> readCommitted(String topic, int partitions) {
        List<List<ConsumerRecord<byte[], byte[]>>> all = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            all.add(readCommitted(bootstrap(), new TopicPartition(topic, p)));
        }
        return all;
    }

    private static List<ConsumerRecord<byte[], byte[]>> readCommitted(String bootstrap, TopicPartition partition) {
        Map<String, Object> config = new HashMap<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_uncommitted",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class));
        long end;
        try (KafkaConsumer<byte[], byte[]> peek = new KafkaConsumer<>(config)) {
            end = peek.endOffsets(List.of(partition)).get(partition); // the high watermark, markers included
        }
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config)) {
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (consumer.position(partition) < end && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
            }
        }
        return records;
    }

    /** The names of the broker's topics. */
    static Set<String> topics() throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap()))) {
            return admin.listTopics().names().get(30, TimeUnit.SECONDS);
        }
    }

    static String value(ConsumerRecord<byte[], byte[]> record) {
        return new String(record.value(), StandardCharsets.UTF_8);
    }
}
