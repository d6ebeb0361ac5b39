package io.github.lockfreelog.kafka;

import static io.github.lockfreelog.kafka.LockFreeKafkaAppenderTest.logger;
import static io.github.lockfreelog.testsupport.TestLogback.newContext;
import static io.github.lockfreelog.testsupport.TestLogback.statuses;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.core.status.Status;
import io.github.lockfreelog.testsupport.TestLogback;
import io.github.lockfreelog.testsupport.kafka.CommittedReader;
import io.github.lockfreelog.testsupport.kafka.KafkaTestBroker;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.MDC;

/**
 * A record the broker refuses for what it is, not for its size: a compacted topic refuses a record without a key
 * ({@code key} {@code mdc:traceId}, and events logged without that MDC value). Each refused record is set aside,
 * counted under its reason, reported once with the broker's own words; every other event goes once, in order, with
 * transactions and without (no batch written again and again).
 */
class KafkaRefusedRecordTest {

    @TempDir
    Path dir;

    @ParameterizedTest(name = "transactional={0}")
    @ValueSource(booleans = {true, false})
    void aRecordTheBrokerRefusesIsSetAsideCountedAndTheRestGoOnceInOrder(boolean transactional) throws Exception {
        String topic = KafkaTestBroker.newTopic("compacted", Map.of("cleanup.policy", "compact"));
        LoggerContext context = newContext();
        LockFreeKafkaAppender appender = LockFreeKafkaAppenderTest.appender(context, topic, dir.resolve("keys.journal"));
        appender.setKey("mdc:traceId");
        if (!transactional) {
            LockFreeKafkaAppenderTest.transactionsOff(appender);
        }
        appender.start();
        assertThat(appender.isStarted()).as(statuses(context)).isTrue();
        Logger logger = logger(context, appender);
        List<String> keyed = new ArrayList<>();
        int refused = 0;
        for (int i = 0; i < 300; i++) {
            String event = Events.event(0, keyed.size());
            if (i % 7 == 3) {
                logger.info("no key " + i); // no traceId: refused by the compacted topic
                refused++;
                continue;
            }
            MDC.put("traceId", "trace-" + i);
            try {
                logger.info(event);
            } finally {
                MDC.remove("traceId");
            }
            keyed.add(event);
            if (i % 50 == 49) {
                Thread.sleep(60); // several batches, so that refusals fall in more than one
            }
        }
        appender.stop();

        // read_committed, and with transactions off every record written: no event twice, none refused there
        List<String> values = CommittedReader.values(KafkaTestBroker.bootstrap(), topic);
        assertThat(values).as(statuses(context)).hasSize(keyed.size());
        Events.assertExactlyOnceInOrder(values, keyed);
        KafkaCounters counters = appender.getKafkaCounters();
        assertThat(counters.refusedByReason()).as(statuses(context)).isEqualTo(Map.of("invalid-record", (long) refused));
        assertThat(counters.eventsDelivered()).isEqualTo(keyed.size());
        List<String> named = TestLogback.statusMessages(context, Status.ERROR).stream()
                .filter(message -> message.contains("invalid-record")).toList();
        assertThat(named).as("reported once, with the broker's words and what to do: %s", statuses(context))
                .singleElement().asString().contains("without key").contains(topic).contains("<key>");
        Map<String, Long> drops = new HashMap<>(appender.getStatistics().drops());
        drops.values().removeIf(count -> count == 0);
        assertThat(drops).as("not the engine's drops: the sink set them aside").isEmpty();
    }

    /**
     * A topic of three partitions, transactions on, one request in flight and small producer batches: when the broker
     * refuses a record, Kafka's producer hands one exception to every record it had not sent yet, in every partition.
     * None of those is set aside: every keyed event is there once, in the order logged within its partition, and
     * exactly the refused ones are counted.
     */
    @org.junit.jupiter.api.Test
    void withSeveralPartitionsOnlyTheRefusedRecordsAreSetAside() throws Exception {
        String topic = KafkaTestBroker.newTopic("partitions", 3, Map.of("cleanup.policy", "compact"));
        LoggerContext context = newContext();
        LockFreeKafkaAppender appender = LockFreeKafkaAppenderTest.appender(context, topic, dir.resolve("parts.journal"));
        appender.setKey("mdc:traceId");
        appender.addProducerConfig("batch.size=512");
        appender.addProducerConfig("max.in.flight.requests.per.connection=1");
        appender.start();
        assertThat(appender.isStarted()).as(statuses(context)).isTrue();
        Logger logger = logger(context, appender);
        List<String> keyed = new ArrayList<>();
        int refused = 0;
        for (int i = 0; i < 120; i++) {
            if (i % 20 == 7) {
                logger.info("no key " + i); // no traceId: refused by the compacted topic
                refused++;
                continue;
            }
            String event = Events.event(0, keyed.size());
            MDC.put("traceId", "trace-" + i);
            try {
                logger.info(event);
            } finally {
                MDC.remove("traceId");
            }
            keyed.add(event);
        }
        appender.stop();

        List<String> values = new ArrayList<>();
        for (List<org.apache.kafka.clients.consumer.ConsumerRecord<byte[], byte[]>> partition
                : CommittedReader.toHighWatermark(KafkaTestBroker.bootstrap(), topic, 3)) {
            List<String> in = partition.stream().map(CommittedReader::value).toList();
            assertThat(in).as("in the order logged within a partition").isSortedAccordingTo(
                    java.util.Comparator.comparingInt(Events::number));
            values.addAll(in);
        }
        assertThat(values).as(statuses(context)).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(keyed);
        assertThat(appender.getKafkaCounters().refusedByReason()).as(statuses(context))
                .isEqualTo(Map.of("invalid-record", (long) refused));
    }
}
