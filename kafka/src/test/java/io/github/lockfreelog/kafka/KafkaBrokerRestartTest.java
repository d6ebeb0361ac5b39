package io.github.lockfreelog.kafka;

import static io.github.lockfreelog.kafka.LockFreeKafkaAppenderTest.encoder;
import static io.github.lockfreelog.kafka.LockFreeKafkaAppenderTest.logger;
import static io.github.lockfreelog.kafka.LockFreeKafkaAppenderTest.newContext;
import static io.github.lockfreelog.kafka.LockFreeKafkaAppenderTest.statuses;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.core.util.Duration;
import ch.qos.logback.core.util.FileSize;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import kafka.server.BrokerServer;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

/**
 * The broker stops for a while under load and comes back on the same port: a {@code read_committed} consumer sees
 * every acknowledged event exactly once, each thread's in order. A broker of its own, so that the other classes'
 * broker never stops.
 */
class KafkaBrokerRestartTest {

    private static final int THREADS = 4;
    private static EmbeddedKafkaKraftBroker broker;

    @TempDir
    Path dir;

    @BeforeAll
    static void startBroker() {
        broker = new EmbeddedKafkaKraftBroker(1, 1);
        broker.brokerProperties(Map.of("transaction.state.log.replication.factor", "1",
                "transaction.state.log.min.isr", "1", "transaction.state.log.num.partitions", "1",
                "offsets.topic.num.partitions", "1", "group.initial.rebalance.delay.ms", "0"));
        broker.afterPropertiesSet();
    }

    @AfterAll
    static void stopBroker() {
        broker.destroy();
    }

    @Test
    void aBrokerStoppedUnderLoadThenStartedAgainGetsEveryEventOnceInEachThreadsOrder() throws Exception {
        String topic = "restart";
        broker.addTopics(new NewTopic(topic, 1, (short) 1));
        LoggerContext context = newContext();
        LockFreeKafkaAppender appender = new LockFreeKafkaAppender();
        appender.setContext(context);
        appender.setName("KAFKA");
        appender.setTopic(topic);
        appender.setJournal(dir.resolve("restart.journal").toString());
        appender.setProducerProperties(Map.of("bootstrap.servers", broker.getBrokersAsString(), "max.block.ms", "2000"));
        appender.setTransactionalIdPrefix("restart");
        appender.setBufferSize(FileSize.valueOf("1MB"));
        appender.setStopTimeout(Duration.buildBySeconds(40));
        appender.setEncoder(encoder(context));
        appender.start();
        assertThat(appender.isStarted()).as(statuses(context)).isTrue();
        Logger logger = logger(context, appender);

        // four threads log an event every 2 ms or so until told to stop: about 2,000 events each in 8 s, which
        // the journal (3 MB) holds whole while the broker is down
        List<List<String>> logged = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        boolean[] done = new boolean[1];
        for (int t = 0; t < THREADS; t++) {
            List<String> mine = new ArrayList<>();
            logged.add(mine);
            final int thread = t;
            threads.add(new Thread(() -> {
                for (int i = 0; !isDone(done); i++) {
                    mine.add(Events.event(thread, i));
                    logger.info(Events.event(thread, i));
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2));
                }
            }, "caller-" + t));
        }
        threads.forEach(Thread::start);
        Thread.sleep(1_000);
        BrokerServer server = broker.getCluster().brokers().values().iterator().next();
        server.shutdown();
        server.awaitShutdown();
        Thread.sleep(5_000);
        server.startup();
        Thread.sleep(2_000);
        synchronized (done) {
            done[0] = true;
        }
        for (Thread thread : threads) {
            thread.join();
        }
        appender.stop();

        List<String> all = new ArrayList<>();
        logged.forEach(all::addAll);
        List<String> values = readCommitted(topic);
        assertThat(appender.getStatistics().drainerErrors()).as("deliveries failed while the broker was down")
                .isPositive();
        assertThat(appender.getStatistics().dropped()).as(statuses(context)).isZero();
        assertThat(values).as(statuses(context)).hasSize(all.size());
        Events.assertExactlyOnceInOrder(values, all);
    }

    private static boolean isDone(boolean[] done) {
        synchronized (done) {
            return done[0];
        }
    }

    private static List<String> readCommitted(String topic) {
        Map<String, Object> config = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.getBrokersAsString(),
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        List<String> values = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config)) {
            TopicPartition partition = new TopicPartition(topic, 0);
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            long end = consumer.endOffsets(List.of(partition)).get(partition);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (consumer.position(partition) < end && System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(java.time.Duration.ofMillis(200))) {
                    values.add(TestBroker.value(record));
                }
            }
        }
        return values;
    }
}
