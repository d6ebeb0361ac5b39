package io.github.lockfreelog.benchmarks;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The kafka-kill mode's side of the broker: {@link KafkaBroker} (the kafka mode's) in a JVM of its own, so that the
 * peers' children and the broker never share a process, started as a {@link KafkaChildJvm} and stopped by closing its
 * standard input; this side creates topics and reads them back.
 */
final class KafkaBrokerChild implements AutoCloseable {

    private final KafkaChildJvm jvm;
    final String bootstrap;
    private final Admin admin;

    private KafkaBrokerChild(KafkaChildJvm jvm, String bootstrap) {
        this.jvm = jvm;
        this.bootstrap = bootstrap;
        this.admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap));
    }

    /** Starts the broker's JVM and waits until it answers. */
    static KafkaBrokerChild start(Path folder) throws IOException, InterruptedException {
        KafkaChildJvm jvm = KafkaChildJvm.start(KafkaBroker.class, List.of("-Xmx1g", "-XX:+UseSerialGC"), List.of(),
                folder, "broker");
        try {
            String bootstrap = jvm.await(KafkaBroker.READY, 180).substring(KafkaBroker.READY.length()).trim();
            return new KafkaBrokerChild(jvm, bootstrap);
        } catch (IOException | RuntimeException e) {
            jvm.close();
            throw e;
        }
    }

    /** A new topic of one partition. */
    void createTopic(String topic) throws IOException {
        try {
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get(60, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IOException("could not create topic " + topic + ": " + e, e);
        }
    }

    /**
     * Every record value of {@code topic} (one partition) that a {@code read_committed} consumer sees, read until the
     * end offset stays where it was for a second (what a killed producer had sent keeps arriving for a moment).
     */
    List<byte[]> readCommitted(String topic) {
        Map<String, Object> config = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 10_000,
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        List<byte[]> values = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config)) {
            TopicPartition partition = new TopicPartition(topic, 0);
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
            long end = -1;
            while (System.nanoTime() < deadline) {
                long now = consumer.endOffsets(List.of(partition)).get(partition);
                if (now == end && consumer.position(partition) >= end) {
                    break;
                }
                end = now;
                long pass = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
                while (System.nanoTime() < pass || consumer.position(partition) < end) {
                    for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                        values.add(record.value());
                    }
                    if (System.nanoTime() > deadline) {
                        break;
                    }
                }
            }
        }
        return values;
    }

    @Override
    public void close() throws InterruptedException {
        admin.close(Duration.ofSeconds(5));
        try {
            jvm.process.getOutputStream().close(); // the broker stops itself
        } catch (IOException e) {
            // it is gone already
        }
        try {
            jvm.exit(30);
        } catch (IOException e) {
            // killed below
        }
        jvm.close();
    }
}
