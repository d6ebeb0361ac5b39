package io.github.lockfreelog.benchmarks;

import ch.qos.logback.classic.Level;
import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

/**
 * The kafka mode's broker, the {@code main} of a JVM of its own, so that its CPU time is never counted against a
 * peer: one KRaft broker (Spring Kafka's {@link EmbeddedKafkaKraftBroker}, as the kafka module's tests use it),
 * settings for one broker (transaction and offsets topics of one partition, replication 1). It prints
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
        EmbeddedKafkaKraftBroker broker = new EmbeddedKafkaKraftBroker(1, 1);
        broker.brokerProperties(Map.of("transaction.state.log.replication.factor", "1",
                "transaction.state.log.min.isr", "1", "transaction.state.log.num.partitions", "1",
                "offsets.topic.num.partitions", "1", "offsets.topic.replication.factor", "1",
                "group.initial.rebalance.delay.ms", "0", "auto.create.topics.enable", "false"));
        broker.afterPropertiesSet();
        Runtime.getRuntime().addShutdownHook(new Thread(broker::destroy, "broker-stop"));
        System.out.println(READY + broker.getBrokersAsString());
        System.out.flush();
        try (InputStream in = System.in) {
            while (in.read() >= 0) {
                // the runner never writes; its end (or the runner's) ends this loop
            }
        }
        System.exit(0); // the shutdown hook stops the broker and deletes its folders
    }
}
