package io.github.lockfreelog.benchmarks.kafka;

import io.github.lockfreelog.testsupport.ChildJvm;
import io.github.lockfreelog.testsupport.kafka.CommittedReader;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;

/**
 * The kafka-kill mode's side of the broker: {@link KafkaBroker} (the kafka mode's) in a JVM of its own, so that the
 * peers' children and the broker never share a process, started as a {@link ChildJvm} and stopped by closing its
 * standard input; this side creates topics and reads them back.
 */
final class KafkaBrokerChild implements AutoCloseable {

    private final ChildJvm jvm;
    final String bootstrap;
    private final Admin admin;

    private KafkaBrokerChild(ChildJvm jvm, String bootstrap) {
        this.jvm = jvm;
        this.bootstrap = bootstrap;
        this.admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap));
    }

    /** Starts the broker's JVM and waits until it answers. */
    static KafkaBrokerChild start(Path folder) throws IOException, InterruptedException {
        ChildJvm jvm = ChildJvm.start(KafkaBroker.class.getName(), List.of("-Xmx1g", "-XX:+UseSerialGC"), List.of(),
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
        return CommittedReader.untilQuiet(bootstrap, topic, Duration.ofSeconds(1), Duration.ofMinutes(5));
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
