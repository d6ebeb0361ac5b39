package io.github.lockfreelog.kafka;

import static io.github.lockfreelog.kafka.LockFreeKafkaAppenderTest.logger;
import static io.github.lockfreelog.testsupport.TestLogback.newContext;
import static io.github.lockfreelog.testsupport.TestLogback.statuses;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import io.github.lockfreelog.testsupport.kafka.CommittedReader;
import io.github.lockfreelog.testsupport.kafka.KafkaTestBroker;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.quota.ClientQuotaAlteration;
import org.apache.kafka.common.quota.ClientQuotaEntity;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A slow link: the broker holds the sink's producer to a client quota ({@code producer_byte_rate}). A burst that
 * takes the link several transaction timeouts to carry is delivered whole, once, in order, and no event is sent twice,
 * not even in a transaction that was aborted: a commit that times out ({@code max.block.ms}) is asked again, and a
 * transaction takes no more than the link carries in its time. Scaled down for the build (4,000 lines of 150 bytes at
 * 32 KB/s, {@code transaction.timeout.ms} 15 s, {@code max.block.ms} 2 s: about 20 s); {@code -Dquota.lines=20000 -Dquota.rate=65536
 * -Dquota.transactionTimeoutMs=60000 -Dquota.maxBlockMs=10000} runs the 3 MB at 64 KB/s.
 */
class KafkaQuotaTest {

    @TempDir
    Path dir;

    @Test
    void aBurstOnAThrottledLinkIsDeliveredWholeOnceAndNothingIsSentTwice() throws Exception {
        int lines = Integer.getInteger("quota.lines", 4_000);
        int rate = Integer.getInteger("quota.rate", 32 * 1024);
        int transactionTimeout = Integer.getInteger("quota.transactionTimeoutMs", 15_000);
        String topic = KafkaTestBroker.newTopic("quota");
        String clientId = "test-" + topic; // the producer's client.id: the slot's transactional id
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, KafkaTestBroker.bootstrap()))) {
            admin.alterClientQuotas(List.of(new ClientQuotaAlteration(
                    new ClientQuotaEntity(Map.of(ClientQuotaEntity.CLIENT_ID, clientId)),
                    List.of(new ClientQuotaAlteration.Op("producer_byte_rate", (double) rate))))).all()
                    .get(30, TimeUnit.SECONDS);
        }
        LoggerContext context = newContext();
        LockFreeKafkaAppender appender = LockFreeKafkaAppenderTest.appender(context, topic, dir.resolve("quota.journal"));
        appender.setBufferSize(ch.qos.logback.core.util.FileSize.valueOf("8MB"));
        appender.addProducerConfig("transaction.timeout.ms=" + transactionTimeout);
        appender.addProducerConfig("max.block.ms=" + Integer.getInteger("quota.maxBlockMs", 2_000));
        appender.addProducerConfig("batch.size=16384");
        appender.setStopTimeout(ch.qos.logback.core.util.Duration.valueOf("300 seconds"));
        appender.start();
        assertThat(appender.isStarted()).as(statuses(context)).isTrue();
        Logger logger = logger(context, appender);
        List<String> all = new ArrayList<>();
        long started = System.nanoTime();
        for (int i = 0; i < lines; i++) {
            String line = Events.event(0, i);
            line = line + " " + "q".repeat(Math.max(0, 150 - line.length()));
            all.add(line);
            logger.info(line);
        }
        appender.stop();
        double seconds = (System.nanoTime() - started) / 1e9;

        KafkaCounters counters = appender.getKafkaCounters();
        System.out.printf("quota run: %d lines at %d B/s, transaction.timeout.ms %d: delivered in %.1f s, %d"
                + " transactions committed, %d aborted, %d commits asked again%n", lines, rate, transactionTimeout,
                seconds, counters.transactionsCommitted(), counters.transactionsAborted(), counters.commitsRetried());
        List<String> values = CommittedReader.values(KafkaTestBroker.bootstrap(), topic);
        assertThat(values).as(statuses(context)).hasSize(lines);
        assertThat(values).containsExactlyElementsOf(all);
        assertThat(everyRecordWritten(topic)).as("records written, aborted ones included: none twice").isEqualTo(lines);
        assertThat(counters.transactionsAborted()).as(statuses(context)).isZero();
        assertThat(counters.transactionsCommitted()).as("the burst split into transactions the link carries in time")
                .isGreaterThan(1);
        assertThat(appender.getStatistics().dropped()).isZero();
    }

    /** How many records the topic holds, those of aborted transactions included ({@code read_uncommitted}). */
    private static long everyRecordWritten(String topic) {
        Map<String, Object> config = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, KafkaTestBroker.bootstrap(),
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_uncommitted", ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        TopicPartition partition = new TopicPartition(topic, 0);
        long records = 0;
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config)) {
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            long end = consumer.endOffsets(List.of(partition)).get(partition);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (consumer.position(partition) < end && System.nanoTime() < deadline) {
                records += consumer.poll(Duration.ofMillis(200)).count();
            }
        }
        return records;
    }
}
