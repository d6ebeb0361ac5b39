package io.github.lockfreelog.kafka;

import static io.github.lockfreelog.kafka.LockFreeKafkaAppenderTest.logger;
import static io.github.lockfreelog.testsupport.TestLogback.newContext;
import static io.github.lockfreelog.testsupport.TestLogback.statuses;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.LoggerContext;
import io.github.lockfreelog.sink.JournalPosition;
import io.github.lockfreelog.testing.TestStatus;
import io.github.lockfreelog.testsupport.TestLogback;
import io.github.lockfreelog.testsupport.kafka.CommittedReader;
import io.github.lockfreelog.testsupport.kafka.KafkaTestBroker;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The position store: the position topic read once, not at each question; a topic the broker does not know is an
 * error, never "no position"; a key per journal, so that instances sharing a transactional id keep a position each;
 * the position topic's replication follows the cluster; a fence says whether a timeout or another producer did it.
 */
class KafkaPositionStoreTest {

    @TempDir
    Path dir;


    @Test
    void aPositionTopicTheBrokerDoesNotKnowIsAnErrorNotNoPosition() {
        String topic = KafkaTestBroker.newTopic("unknown-positions");
        PositionStore store = new PositionStore(slot(topic, "absent-" + UUID.randomUUID(), "test-" + topic));
        assertThatThrownBy(() -> store.committed(42)).isInstanceOf(IOException.class).hasMessageContaining("unknown");
    }

    @Test
    void thePositionTopicIsReadOnceNotAtEachQuestion() throws Exception {
        String topic = KafkaTestBroker.newTopic("read-once");
        KafkaRecordSink sink = new KafkaRecordSink(slot(topic, topic + ".positions", "test-" + topic), () -> { });
        try {
            for (int i = 0; i < 3; i++) { // as the drainer asks after each failed delivery
                assertThat(sink.committed(7)).isNull();
            }
            assertThat(sink.positionReads()).as("reads of the position topic").isEqualTo(1);
        } finally {
            sink.close(0);
        }
    }

    /**
     * Two instances given one {@code transactionalIdPrefix} (one after the other here: at once, they fence each
     * other, which the fence's message names): each journal keeps its own position record, which compaction
     * cannot merge into one.
     */
    @Test
    void instancesSharingATransactionalIdKeepAPositionEach() throws Exception {
        String topic = KafkaTestBroker.newTopic("shared-id");
        for (String journal : List.of("first.journal", "second.journal")) {
            LoggerContext context = newContext();
            LockFreeKafkaAppender appender = LockFreeKafkaAppenderTest.appender(context, topic, dir.resolve(journal));
            appender.start();
            assertThat(appender.isStarted()).as(statuses(context)).isTrue();
            Events.log(logger(context, appender), 0, 5, new ArrayList<>());
            appender.stop();
        }
        Set<String> keys = CommittedReader.toHighWatermark(KafkaTestBroker.bootstrap(), topic + ".positions").stream()
                .map(record -> new String(record.key(), StandardCharsets.UTF_8)).collect(Collectors.toSet());
        assertThat(keys).as("one key per journal").hasSize(2).allMatch(key -> key.startsWith("test-" + topic + "/"));
    }

    /**
     * Two instances running at once with one {@code transactionalIdPrefix} fence each other in turn: the fence's
     * message says so and what to do, and what they delivered meanwhile is there at most once (each journal keeps its
     * own position).
     */
    @Test
    void instancesRunningWithOneTransactionalIdAreToldWhatToDo() throws Exception {
        String topic = KafkaTestBroker.newTopic("fencing");
        List<LoggerContext> contexts = new ArrayList<>();
        List<LockFreeKafkaAppender> appenders = new ArrayList<>();
        for (String journal : List.of("one.journal", "two.journal")) {
            LoggerContext context = newContext();
            LockFreeKafkaAppender appender = LockFreeKafkaAppenderTest.appender(context, topic, dir.resolve(journal));
            appender.setStopTimeout(ch.qos.logback.core.util.Duration.valueOf("2 seconds"));
            appender.start();
            assertThat(appender.isStarted()).as(statuses(context)).isTrue();
            contexts.add(context);
            appenders.add(appender);
        }
        for (int i = 0; i < 40; i++) {
            for (int a = 0; a < 2; a++) {
                logger(contexts.get(a), appenders.get(a)).info(Events.event(a, i));
            }
            Thread.sleep(50);
        }
        appenders.forEach(LockFreeKafkaAppender::stop);
        List<String> told = new ArrayList<>();
        contexts.forEach(context -> told.addAll(TestLogback.warnings(context)));
        assertThat(told).as("a fence names the cause").anyMatch(message -> message.contains("another producer took"
                + " transactional.id test-" + topic) && message.contains("two instances share <transactionalIdPrefix>"));
        List<String> values = CommittedReader.values(KafkaTestBroker.bootstrap(), topic);
        assertThat(values).as("none twice").doesNotHaveDuplicates();
    }

    /**
     * The read after a commit without an answer starts where the last read ended; a position topic whose start moved
     * past that (a delete policy, records deleted) is read from its start, not its end (a position jumped over would
     * send a committed batch again).
     */
    @Test
    void aReadFromAnOffsetTheTopicNoLongerHoldsStartsAtItsStart() throws Exception {
        String positions = KafkaTestBroker.newTopic("moved-start", Map.of("cleanup.policy", "delete"));
        PositionStore store = new PositionStore(slot("t", positions, "test-moved"));
        assertThat(store.committed(9)).isNull(); // read once: up to offset 0
        JournalPosition later = new JournalPosition(9, 2, 4096);
        try (KafkaProducer<byte[], byte[]> writer = new KafkaProducer<>(Map.of("bootstrap.servers",
                KafkaTestBroker.bootstrap(), "key.serializer", ByteArraySerializer.class, "value.serializer",
                ByteArraySerializer.class))) {
            writer.send(new ProducerRecord<>(positions, store.key(9), PositionStore.value(new JournalPosition(9, 1, 0))))
                    .get();
            writer.send(new ProducerRecord<>(positions, store.key(9), PositionStore.value(later))).get();
        }
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, KafkaTestBroker.bootstrap()))) {
            admin.deleteRecords(Map.of(new TopicPartition(positions, 0), RecordsToDelete.beforeOffset(1))).all()
                    .get(30, TimeUnit.SECONDS);
        }
        store.settle(null, -1);
        assertThat(store.committed(9)).isEqualTo(later);
    }

    @Test
    void thePositionTopicIsReplicatedAsTheClusterAllows() {
        assertThat(KafkaTopics.positionReplicas((short) 0, 1)).contains((short) 1);
        assertThat(KafkaTopics.positionReplicas((short) 0, 3)).contains((short) 3);
        assertThat(KafkaTopics.positionReplicas((short) 0, 7)).contains((short) 3);
        assertThat(KafkaTopics.positionReplicas((short) 0, 0)).as("brokers unknown: the broker's default").isEmpty();
        assertThat(KafkaTopics.positionReplicas((short) -1, 5)).as("set to the broker's default").isEmpty();
        assertThat(KafkaTopics.positionReplicas((short) 2, 5)).contains((short) 2);
        KafkaTopics topics = new KafkaTopics(slot("t", "t.positions", "id"));
        assertThat(topics.positionTopicConfig(Optional.of((short) 3)))
                .containsEntry(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG, "2")
                .containsEntry(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT);
        assertThat(topics.positionTopicConfig(Optional.of((short) 1)))
                .doesNotContainKey(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG);
    }

    @Test
    void aFenceSaysWhetherATransactionTimeoutOrAnotherProducerDidIt() {
        KafkaAdvice advice = new KafkaAdvice(slot("t", "t.positions", "shop-0"));
        assertThat(advice.fenced(TimeUnit.SECONDS.toNanos(61))).contains("transaction.timeout.ms (60000 ms)")
                .contains("open 61000 ms").doesNotContain("another producer");
        assertThat(advice.fenced(TimeUnit.SECONDS.toNanos(1))).contains("another producer took transactional.id shop-0")
                .contains("<transactionalIdPrefix>");
    }

    @Test
    void aPositionRecordReadsBackAsItWasWritten() {
        JournalPosition position = new JournalPosition(0x1234_5678_9abcL, 17, 4096);
        assertThat(PositionStore.positionOf(PositionStore.value(position))).isEqualTo(position);
        assertThat(PositionStore.positionOf(new byte[3])).isNull();
        assertThat(PositionStore.positionOf(null)).as("a tombstone").isNull();
    }

    private SlotSettings slot(String topic, String positions, String id) {
        return new SlotSettings(topic, positions, id, Map.of("bootstrap.servers", KafkaTestBroker.bootstrap(),
                "max.block.ms", "10000"), (short) 0, Map.of(), 0, 1 << 20, SettingNames.LOGBACK, new KafkaCounters(), TestStatus.QUIET);
    }
}
