package io.github.lockfreelog.benchmarks.kafka;

import io.github.lockfreelog.testsupport.ChildJvm;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The run's broker: a JVM of its own running {@link KafkaBroker} ({@link ChildJvm}, its output in two files of
 * {@code base}, deleted at the end); closing it ends its standard input, and so it.
 */
record RunBroker(ChildJvm jvm, String bootstrap, Path base, String name) implements AutoCloseable {

    static RunBroker start(Path base, PrintStream out) throws IOException, InterruptedException {
        String name = "lockfreelog-kafka-broker-" + ProcessHandle.current().pid() + "-" + System.nanoTime();
        ChildJvm jvm = ChildJvm.start(KafkaBroker.class.getName(), List.of("-Xms1g", "-Xmx1g"), List.of(), base,
                name);
        try {
            String bootstrap = jvm.await(KafkaBroker.READY, KafkaRunner.BROKER_START_SECONDS)
                    .substring(KafkaBroker.READY.length()).trim();
            out.println("Broker: " + bootstrap + " (pid " + jvm.process.pid() + ", its output in "
                    + base.resolve(name + ".err.txt") + ")");
            return new RunBroker(jvm, bootstrap, base, name);
        } catch (IOException | RuntimeException e) {
            jvm.close();
            throw e;
        }
    }

    long pid() {
        return jvm.process.pid();
    }

    @Override
    public void close() throws IOException {
        jvm.process.getOutputStream().close(); // the broker stops when its standard input ends
        try {
            if (!jvm.process.waitFor(60, TimeUnit.SECONDS)) {
                jvm.close();
            }
        } catch (InterruptedException e) {
            jvm.close();
            Thread.currentThread().interrupt();
        }
        Files.deleteIfExists(base.resolve(name + ".out.txt"));
        Files.deleteIfExists(base.resolve(name + ".err.txt"));
    }

    static void createTopics(Admin admin, List<String> topics) throws IOException {
        try {
            admin.createTopics(topics.stream().map(t -> new NewTopic(t, 1, (short) 1)).toList()).all()
                    .get(60, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new IOException("could not create the topics " + topics + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }

    /** Deletes the topics and lockfreelog's position topics beside them, to free the broker's disk; failures ignored. */
    static void deleteTopics(Admin admin, List<String> topics) {
        try {
            List<String> existing = new ArrayList<>(admin.listTopics().names().get(60, TimeUnit.SECONDS));
            List<String> gone = existing.stream().filter(t -> topics.stream().anyMatch(x -> t.equals(x)
                    || t.equals(x + ".positions"))).toList();
            admin.deleteTopics(gone).all().get(60, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            // left on the broker, which is deleted with its folder at the end of the run
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * {records, bytes of their values} in partition 0 of {@code topic}, read {@code read_committed} from the start up to
     * the last stable offset (for a non-transactional topic, the end).
     */
    static long[] countRecords(String bootstrap, String topic) throws IOException {
        Map<String, Object> config = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 10_000,
                ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 16 << 20,
                ConsumerConfig.FETCH_MAX_BYTES_CONFIG, 64 << 20,
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        long records = 0;
        long bytes = 0;
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config)) {
            TopicPartition partition = new TopicPartition(topic, 0);
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            long end = consumer.endOffsets(List.of(partition)).get(partition);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (consumer.position(partition) < end) {
                if (System.nanoTime() - deadline > 0) {
                    throw new IOException("could not read " + topic + " to its end (" + end + ") within 120 s; at "
                            + consumer.position(partition));
                }
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    records++;
                    bytes += record.value() == null ? 0 : record.value().length;
                }
            }
        }
        return new long[] {records, bytes};
    }
}
