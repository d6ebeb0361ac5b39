package io.github.lockfreelog.testsupport.kafka;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

/**
 * The tests' KRaft broker within the test JVM (Spring Kafka's {@link EmbeddedKafkaKraftBroker}): one shared by every
 * test of a JVM, started at first use ({@link #bootstrap()}), or one of a test's own ({@link #start(Map)}), both with
 * the settings of a one-broker cluster ({@link #ONE_BROKER}). A cluster of broker processes that a test can kill is
 * {@link KafkaCluster}.
 */
public final class KafkaTestBroker {

    /**
     * The settings a single broker needs: the transaction log and the consumer offsets of one partition and one
     * replica (Kafka's defaults want three brokers), no wait before a group's first rebalance.
     */
    public static final Map<String, String> ONE_BROKER = Map.of("transaction.state.log.replication.factor", "1",
            "transaction.state.log.min.isr", "1", "transaction.state.log.num.partitions", "1",
            "offsets.topic.num.partitions", "1", "offsets.topic.replication.factor", "1",
            "group.initial.rebalance.delay.ms", "0");

    private static EmbeddedKafkaKraftBroker shared;

    private KafkaTestBroker() {
    }

    /** The shared broker's address, starting it at first use; a shutdown hook stops it. */
    public static synchronized String bootstrap() {
        if (shared == null) {
            EmbeddedKafkaKraftBroker started = start(Map.of());
            Runtime.getRuntime().addShutdownHook(new Thread(started::destroy));
            shared = started;
        }
        return shared.getBrokersAsString();
    }

    /**
     * A broker of the caller's own, started, with {@link #ONE_BROKER} and {@code settings} (which win); the caller
     * destroys it.
     */
    public static EmbeddedKafkaKraftBroker start(Map<String, String> settings) {
        EmbeddedKafkaKraftBroker broker = new EmbeddedKafkaKraftBroker(1, 1);
        Map<String, String> all = new HashMap<>(ONE_BROKER);
        all.putAll(settings);
        broker.brokerProperties(all);
        broker.afterPropertiesSet();
        return broker;
    }

    /** A new topic of one partition on the shared broker, named after {@code prefix}. */
    public static String newTopic(String prefix) {
        return newTopic(prefix, Map.of());
    }

    /** A new topic of one partition on the shared broker, named after {@code prefix}, with the topic settings {@code configs}. */
    public static String newTopic(String prefix, Map<String, String> configs) {
        return newTopic(prefix, 1, configs);
    }

    /**
     * A new topic of {@code partitions} partitions on the shared broker, named after {@code prefix}, with the topic
     * settings {@code configs}.
     */
    public static String newTopic(String prefix, int partitions, Map<String, String> configs) {
        String topic = prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
        bootstrap();
        shared.addTopics(new NewTopic(topic, partitions, (short) 1).configs(configs));
        return topic;
    }

    /** Creates the topic {@code name}, of one partition, on the shared broker now. */
    public static void createTopic(String name) {
        createTopic(name, Map.of());
    }

    private static void createTopic(String name, Map<String, String> configs) {
        bootstrap();
        shared.addTopics(new NewTopic(name, 1, (short) 1).configs(configs));
    }

    /** The names of the shared broker's topics. */
    public static Set<String> topics() throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap()))) {
            return admin.listTopics().names().get(30, TimeUnit.SECONDS);
        }
    }
}
