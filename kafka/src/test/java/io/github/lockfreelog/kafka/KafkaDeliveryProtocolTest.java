package io.github.lockfreelog.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.lockfreelog.sink.JournalPosition;
import io.github.lockfreelog.sink.RecordBatch;
import io.github.lockfreelog.sink.RecordSink;
import io.github.lockfreelog.testing.TestStatus;
import io.github.lockfreelog.testsupport.kafka.CommittedReader;
import io.github.lockfreelog.testsupport.kafka.KafkaTestBroker;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.InvalidRecordException;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.InvalidTimestampException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

/**
 * The delivery protocol's edges, driven with batches made here: which positions a delivery skips events on, which
 * refused records are set aside, what counts as delivered with transactions off, and a clock the broker refuses.
 */
class KafkaDeliveryProtocolTest {

    private final TestStatus.Recording status = TestStatus.recording();

    /**
     * A position written to {@code .positions} by someone else (a term far ahead of the journal's): the engine does
     * not take it ({@code RecordLog.held}) and delivers from its own drain record; the sink must then send the batch,
     * not take it for delivered on a position it never committed.
     */
    @Test
    void aPositionTheSinkDidNotCommitSkipsNoEvent() throws Exception {
        String topic = KafkaTestBroker.newTopic("crafted");
        String positions = topic + ".positions";
        String id = "test-" + topic;
        long journal = 0x5eedL;
        KafkaRecordSink first = new KafkaRecordSink(slot(topic, positions, id, Map.of()), () -> { });
        try {
            assertThat(first.committed(journal)).isNull(); // creates the position topic
        } finally {
            first.close(0);
        }
        PositionStore store = new PositionStore(slot(topic, positions, id, Map.of()));
        try (KafkaProducer<byte[], byte[]> writer = new KafkaProducer<>(Map.of("bootstrap.servers",
                KafkaTestBroker.bootstrap(), "key.serializer", ByteArraySerializer.class, "value.serializer",
                ByteArraySerializer.class))) {
            writer.send(new ProducerRecord<>(positions, store.key(journal),
                    PositionStore.value(new JournalPosition(journal, 1_000_000, 0)))).get();
        }
        KafkaRecordSink sink = new KafkaRecordSink(slot(topic, positions, id, Map.of()), () -> { });
        try {
            assertThat(sink.committed(journal)).as("what the topic says").isNotNull();
            sink.deliver(batch(journal, 0, "a", "b", "c"));
        } finally {
            sink.close(0);
        }
        assertThat(CommittedReader.values(KafkaTestBroker.bootstrap(), topic))
                .as("sent, not skipped: %s", status.said()).containsExactly("a", "b", "c");
    }

    /**
     * Kafka's transactional producer hands one exception to every record it had not sent once a record is refused;
     * of a refusal's class, and held by one record alone where one waited. Only the refusal that completed first, and
     * is its record's own, is set aside.
     */
    @Test
    void onlyTheFirstRefusalToCompleteAndItsRecordsOwnIsSetAside() throws Exception {
        // the review's case: event 1 refused (partition 2); events 0 and 2 waited (partition 1), given the shared one
        SendOutcomes waiting = new SendOutcomes(true, 3);
        InvalidRecordException shared = new InvalidRecordException("top-level");
        onIoThread(() -> {
            waiting.completed(1, 10, new InvalidRecordException("record 1: no key"));
            waiting.completed(0, 10, shared);
            waiting.completed(2, 10, shared);
            waiting.completed(waiting.positionIndex(), 10, shared);
        });
        assertThat(waiting.refused()).extracting(SendOutcomes.Refusal::index).containsExactly(1);

        // one record waiting behind the refused one: the shared exception is held by it alone
        SendOutcomes one = new SendOutcomes(true, 3);
        onIoThread(() -> {
            one.completed(0, 10, null);
            one.completed(1, 10, new InvalidRecordException("record 1: no key"));
            one.completed(2, 10, new InvalidRecordException("top-level"));
        });
        assertThat(one.refused()).extracting(SendOutcomes.Refusal::index).containsExactly(1);

        // the refused batch held no record errors (every record the batch's one exception): none is surely refused
        SendOutcomes noRecordErrors = new SendOutcomes(true, 2);
        InvalidRecordException batchWide = new InvalidRecordException("batch");
        onIoThread(() -> {
            noRecordErrors.completed(0, 10, batchWide);
            noRecordErrors.completed(1, 10, batchWide);
        });
        assertThat(noRecordErrors.refused()).isEmpty();

        // the position record refused first: it is no event, and its failure is the attempt's
        SendOutcomes position = new SendOutcomes(true, 2);
        onIoThread(() -> {
            position.completed(position.positionIndex(), 10, new InvalidRecordException("position"));
            position.completed(0, 10, new InvalidRecordException("top-level"));
        });
        assertThat(position.refused()).isEmpty();
        assertThatThrownBy(position::throwIfFailed).isInstanceOf(InvalidRecordException.class);

        // the client's own refusal, inside send() on the caller's thread: its instance, shared after with those waiting
        SendOutcomes client = new SendOutcomes(true, 3);
        InvalidRecordException own = new InvalidRecordException("client");
        client.completed(1, 10, own);
        onIoThread(() -> client.completed(2, 10, own));
        assertThat(client.refused()).extracting(SendOutcomes.Refusal::index).containsExactly(1);
    }

    /**
     * Transactions off: a send whose outcome never came (the producer discarded at {@code delivery.timeout.ms}) fails
     * the delivery, which then goes again; only what was acknowledged counts as delivered.
     */
    @Test
    void transactionsOffAnEventWithoutAnOutcomeFailsTheDelivery() throws Exception {
        MockProducer<byte[], byte[]> producer = new MockProducer<>(false, null, new ByteArraySerializer(),
                new ByteArraySerializer());
        KafkaCounters counters = new KafkaCounters();
        IdempotentRecordSink sink = new IdempotentRecordSink(new SlotSettings("t", null, "client-t",
                Map.of("bootstrap.servers", "localhost:1", "delivery.timeout.ms", "1", "max.block.ms", "1000"),
                (short) 0, Map.of(), 0, 1 << 20, SettingNames.LOGBACK, counters, status), () -> { });
        sink.producers.use(producer, SlotProducer.KAFKA_BATCH_SIZE);
        Thread answer = new Thread(() -> {
            while (producer.history().size() < 3) {
                Thread.onSpinWait();
            }
            producer.completeNext(); // the first acknowledged; the other two never answered
        });
        answer.start();
        try {
            assertThatThrownBy(() -> sink.deliver(batch(1, 0, "a", "b", "c"))).isInstanceOf(IOException.class)
                    .hasMessageContaining("2 events sent got no answer");
        } finally {
            answer.join();
            sink.close(0);
        }
        assertThat(counters.eventsDelivered()).as("only what was acknowledged").isEqualTo(1);
    }

    /**
     * The position record goes once the events' sends completed, so that the position topic's partition, which every
     * instance reads, is in the transaction only for its commit, not for the events' flush.
     */
    @Test
    void thePositionRecordGoesOnceTheEventsAreAcknowledged() throws Exception {
        MockProducer<byte[], byte[]> producer = new MockProducer<>(false, null, new ByteArraySerializer(),
                new ByteArraySerializer());
        producer.initTransactions();
        KafkaRecordSink sink = new KafkaRecordSink(new SlotSettings("t", "t.positions", "test-t",
                Map.of("bootstrap.servers", "localhost:1", "max.block.ms", "10000"), (short) 0, Map.of(), 0, 1 << 20,
                SettingNames.LOGBACK, new KafkaCounters(), status), () -> { });
        sink.producers.use(producer, SlotProducer.KAFKA_BATCH_SIZE);
        List<Integer> sentBeforeAcknowledged = new ArrayList<>();
        Thread broker = new Thread(() -> {
            while (producer.uncommittedRecords().size() < 3) { // a transaction's sends, before its commit
                Thread.onSpinWait();
            }
            try {
                Thread.sleep(300); // time for a position record sent too early to show
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
            sentBeforeAcknowledged.add(producer.uncommittedRecords().size());
            while (producer.completeNext()) {
                // the three events acknowledged; the position record after, when it comes
            }
        });
        broker.start();
        try {
            sink.deliver(batch(1, 0, "a", "b", "c"));
        } finally {
            broker.join();
            sink.close(0);
        }
        assertThat(sentBeforeAcknowledged).as("records sent before the events were acknowledged").containsExactly(3);
        assertThat(producer.history()).hasSize(4).last().extracting(ProducerRecord::topic).isEqualTo("t.positions");
    }

    /**
     * The broker refusing a record's timestamp says this host's clock is off (the sink sets none): a failure to try
     * again, with an ERROR naming the likely cause and the settings, never a refusal of the record (set aside: lost).
     */
    @Test
    void aRefusedTimestampIsAClockToSetRightNotARecordToSetAside() {
        InvalidTimestampException skew = new InvalidTimestampException("Timestamp 1 of message is out of range");
        assertThat(SendOutcomes.reason(skew)).isNull();
        SendOutcomes sent = new SendOutcomes(true, 2);
        onIoThread(() -> sent.completed(0, 10, skew));
        assertThat(sent.refused()).isEmpty();
        assertThatThrownBy(sent::throwIfFailed).isSameAs(skew);
        IOException advice = new KafkaAdvice(slot("logs", "logs.positions", "id", Map.of()))
                .failure("delivering", new KafkaException(skew), -1);
        assertThat(advice).isInstanceOf(RecordSink.RefusedException.class).hasMessageContaining("clock")
                .hasMessageContaining("NTP").hasMessageContaining("message.timestamp.after.max.ms")
                .hasMessageContaining("message.timestamp.before.max.ms").hasMessageContaining("logs");
    }

    /** Runs {@code completions} on a thread of its own, as Kafka's producer completes sends on its I/O thread. */
    static void onIoThread(Runnable completions) {
        Thread io = new Thread(completions, "kafka-producer-network-thread");
        io.start();
        try {
            io.join();
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    /** A batch of journal {@code journalId}, term {@code term}, one event per value, as the appender frames them. */
    static RecordBatch batch(long journalId, long term, String... values) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int[] ends = new int[values.length];
        int[] offsets = new int[values.length];
        for (int i = 0; i < values.length; i++) {
            byte[] value = values[i].getBytes(StandardCharsets.UTF_8);
            bytes.write(RecordEnvelope.VERSION);
            bytes.writeBytes(ByteBuffer.allocate(4).putInt(-1).array()); // no key
            bytes.write(0); // no header
            bytes.writeBytes(value);
            ends[i] = bytes.size();
            offsets[i] = i * 64;
        }
        return new RecordBatch(journalId, term, 0, values.length * 64, ByteBuffer.wrap(bytes.toByteArray()), 0, ends,
                offsets, values.length);
    }

    private SlotSettings slot(String topic, String positions, String id, Map<String, Object> more) {
        Map<String, Object> config = new java.util.HashMap<>(Map.of("bootstrap.servers", KafkaTestBroker.bootstrap(),
                "max.block.ms", "10000"));
        config.putAll(more);
        return new SlotSettings(topic, positions, id, config, (short) 0, Map.of(), 0, 1 << 20, SettingNames.LOGBACK,
                new KafkaCounters(), status);
    }

    static String unique(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }
}
