package io.github.lockfreelog.kafka;

import static io.github.lockfreelog.kafka.LockFreeKafkaAppenderTest.logger;
import static io.github.lockfreelog.testsupport.TestLogback.newContext;
import static io.github.lockfreelog.testsupport.TestLogback.statuses;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.core.util.FileSize;
import io.github.lockfreelog.engine.Backpressure;
import io.github.lockfreelog.testing.TestStatus;
import io.github.lockfreelog.testsupport.kafka.CommittedReader;
import io.github.lockfreelog.testsupport.kafka.KafkaTestBroker;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The linger between transactions never holds events up: it is skipped after a delivery as full as one can be (the
 * smaller of the producer's batch.size and a journal buffer), and it is the drainer's announced idle park, which a
 * caller that fills a buffer ends. The lingers here are 30 s, so a linger not ended shows as a wait of tens of seconds,
 * never as a matter of speed.
 */
class KafkaLingerTest {

    private static final long LINGER_MS = 30_000;

    @TempDir
    Path dir;

    /** Buffers of 64 KB, batch.size 256 KB: a delivery of a buffer's worth is full, and does not linger. */
    @Test
    void aDeliveryOfAsMuchAsOneCanGatherDoesNotLinger() {
        SlotSettings slot = new SlotSettings("t", "t.positions", "id", Map.of("bootstrap.servers", "localhost:1"),
                (short) 0, Map.of(), TimeUnit.MILLISECONDS.toNanos(LINGER_MS), 64 * 1024, SettingNames.LOGBACK,
                new KafkaCounters(), TestStatus.QUIET);
        KafkaRecordSink sink = new KafkaRecordSink(slot, () -> { });
        sink.producers.use(new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer()),
                256 * 1024);
        sink.lastBeginNanos = System.nanoTime();
        long started = System.nanoTime();
        sink.linger(40 * 1024); // a buffer of 64 KB, less frame headers and a last event that did not fit
        assertThat(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started)).as("seconds lingered").isLessThan(10);
        sink.close(0);
    }

    /**
     * The sink lingers after a delivery of one event; a caller then fills a buffer and a half, under {@code DROP}: the
     * swap wakes the drainer, which delivers the full buffer long before the linger would end.
     */
    @Test
    void aCallerThatFillsABufferEndsTheLinger() throws Exception {
        String topic = KafkaTestBroker.newTopic("linger");
        LoggerContext context = newContext();
        LockFreeKafkaAppender appender = LockFreeKafkaAppenderTest.appender(context, topic, dir.resolve("linger.journal"));
        appender.setTransactionLinger(LINGER_MS);
        appender.setBufferSize(FileSize.valueOf("64KB"));
        appender.setBufferCount(4);
        appender.setBackpressure(Backpressure.DROP);
        appender.start();
        assertThat(appender.isStarted()).as(statuses(context)).isTrue();
        Logger logger = logger(context, appender);
        List<String> all = new ArrayList<>();
        Events.log(logger, 0, 1, all);
        Awaitility.await().atMost(60, TimeUnit.SECONDS).until(() -> appender.getKafkaCounters().eventsDelivered() == 1);
        long logged = System.nanoTime();
        String padding = "x".repeat(200);
        for (int i = 1; i <= 500; i++) { // about 100 KB: a buffer and a half
            logger.info(Events.event(0, i) + " " + padding);
        }
        Awaitility.await().atMost(LINGER_MS / 3, TimeUnit.MILLISECONDS)
                .until(() -> appender.getKafkaCounters().eventsDelivered() > 1);
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - logged)).as("ended the linger")
                .isLessThan(LINGER_MS / 3);
        appender.stop();
        assertThat(appender.getStatistics().dropped()).as(statuses(context)).isZero();
        List<String> values = CommittedReader.values(KafkaTestBroker.bootstrap(), topic);
        assertThat(values).as(statuses(context)).hasSize(501).doesNotHaveDuplicates();
        for (int i = 0; i < values.size(); i++) {
            assertThat(Events.number(values.get(i))).as("in order").isEqualTo(i);
        }
    }
}
