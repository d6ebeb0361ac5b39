package io.github.lockfreelog.benchmarks.kafka;

import ch.qos.logback.classic.Level;
import io.github.lockfreelog.testsupport.kafka.KafkaTestBroker;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

/**
 * The kafka mode's broker, the {@code main} of a JVM of its own, so that its CPU time is never counted against a
 * peer: one KRaft broker, the kafka module's tests' own ({@link KafkaTestBroker}: transaction and offsets topics of one
 * partition, replication 1), no topic created by a client's request, and one transaction
 * committed before any peer runs ({@link #firstTransaction}). It prints
 * {@value #READY}{@code host:port} on standard output once it answers, then runs until its standard input ends
 * (the runner closes it, or dies), and stops.
 */
public final class KafkaBroker {

    /** The line that gives the broker's address. */
    static final String READY = "bootstrap=";

    private KafkaBroker() {
    }

    public static void main(String[] args) throws IOException {
        KafkaSinks.resetLogback(Level.WARN); // the broker's INFO lines would fill the run's output
        EmbeddedKafkaKraftBroker broker = KafkaTestBroker.start(Map.of("auto.create.topics.enable", "false"));
        Runtime.getRuntime().addShutdownHook(new Thread(broker::destroy, "broker-stop"));
        firstTransaction(broker.getBrokersAsString());
        System.out.println(READY + broker.getBrokersAsString());
        System.out.flush();
        try (InputStream in = System.in) {
            while (in.read() >= 0) {
                // the runner never writes; its end (or the runner's) ends this loop
            }
        }
        System.exit(0); // the shutdown hook stops the broker and deletes its folders
    }

    /**
     * Commits one transaction on a topic of its own, so that the broker's transaction log ({@code __transaction_state})
     * exists before any peer: the first transactional producer of a broker's life otherwise waits for its creation,
     * and lockfreelog-kafka, the one transactional peer, would pay it in its first trial.
     */
    static void firstTransaction(String bootstrap) {
        String topic = "broker-warmup";
        createTopic(bootstrap, topic);
        Map<String, Object> config = Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ProducerConfig.TRANSACTIONAL_ID_CONFIG, "lockfreelog-benchmark-broker-warmup",
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class,
                ProducerConfig.MAX_BLOCK_MS_CONFIG, 60_000);
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config)) {
            producer.initTransactions();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>(topic, "warm-up".getBytes(StandardCharsets.UTF_8)));
            producer.commitTransaction();
        }
    }

    private static void createTopic(String bootstrap, String topic) {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            admin.createTopics(java.util.List.of(new NewTopic(topic, 1, (short) 1))).all().get(60, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("could not create the topic " + topic + ": " + e, e);
        }
    }
}
