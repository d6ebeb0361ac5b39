package io.github.lockfreelog.kafka;

import static io.github.lockfreelog.kafka.LockFreeKafkaAppenderTest.logger;
import static io.github.lockfreelog.testsupport.TestLogback.newContext;
import static io.github.lockfreelog.testsupport.TestLogback.statuses;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.core.status.Status;
import io.github.lockfreelog.diagnostics.AppenderStatistics;
import io.github.lockfreelog.testsupport.TestLogback;
import io.github.lockfreelog.testsupport.kafka.CommittedReader;
import io.github.lockfreelog.testsupport.kafka.KafkaTestBroker;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An event Kafka refuses as too large is left out, and counted once as the engine's drop {@code too-large} (not as
 * written); the events around it go out exactly once, in order; one ERROR names the settings to raise.
 */
class KafkaTooLargeTest {

    @TempDir
    Path dir;

    /**
     * An event over the producer's {@code max.request.size}, with {@code maxEventSize} unset: the engine's limit is
     * lowered to fit one request, so the event is cut at append (counted truncated, with the visible marker) and
     * delivered, never refused by the producer after it was accepted.
     */
    @Test
    void anEventOverMaxRequestSizeIsCutToFitAndDeliveredNotDropped() throws Exception {
        String topic = KafkaTestBroker.newTopic("too-large");
        LoggerContext context = newContext();
        LockFreeKafkaAppender appender = LockFreeKafkaAppenderTest.appender(context, topic, dir.resolve("large.journal"));
        appender.addProducerConfig("max.request.size=4096");
        appender.start();
        assertThat(appender.isStarted()).as(statuses(context)).isTrue();
        Logger logger = logger(context, appender);
        List<String> kept = logAmongLarge(logger, 40, List.of(13, 27), 10_000); // over max.request.size
        appender.stop();

        List<String> values = CommittedReader.values(KafkaTestBroker.bootstrap(), topic);
        assertThat(values).as(statuses(context)).hasSize(40);
        assertThat(values.stream().filter(value -> value.startsWith("t9 "))).hasSize(2)
                .allMatch(value -> value.contains("event truncated") && value.length() < 4096);
        Events.assertExactlyOnceInOrder(values.stream().filter(value -> !value.startsWith("t9 ")).toList(), kept);
        AppenderStatistics stats = appender.getStatistics();
        assertThat(stats.truncated()).as(statuses(context)).isEqualTo(2);
        assertThat(stats.dropped()).isZero();
        assertThat(appender.getKafkaCounters().refusedByReason()).isEmpty();
        assertThat(appender.getKafkaCounters().eventsDelivered()).isEqualTo(40);
    }

    /**
     * A {@code maxEventSize} set above what one request of the producer takes: refused at start, naming both
     * settings, rather than accepting events that Kafka would refuse.
     */
    @Test
    void aMaxEventSizeAboveMaxRequestSizeIsRefusedAtStart() {
        LoggerContext context = newContext();
        LockFreeKafkaAppender appender = LockFreeKafkaAppenderTest.appender(context, "any", dir.resolve("sizes.journal"));
        appender.setBufferSize(ch.qos.logback.core.util.FileSize.valueOf("8MB"));
        appender.setMaxEventSize(ch.qos.logback.core.util.FileSize.valueOf("2MB"));
        assertThat(appender.checkSettings()).singleElement().satisfies(problem -> {
            assertThat(problem.setting()).isEqualTo("maxEventSize");
            assertThat(problem.allowed()).contains("max.request.size (1048576)").contains("at most 1047552 bytes");
        });
        appender.addProducerConfig("max.request.size=4194304");
        assertThat(appender.checkSettings()).as("sizes that fit").isEmpty();
    }

    /**
     * Logs {@code count} events, those at {@code large} of {@code largeSize} characters and the others numbered
     * events of thread 0; returns the others, in order.
     */
    private static List<String> logAmongLarge(Logger logger, int count, List<Integer> large, int largeSize) {
        List<String> kept = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            if (large.contains(i)) {
                logger.info("t9 e" + i + " " + "y".repeat(largeSize));
            } else {
                String event = Events.event(0, kept.size());
                kept.add(event);
                logger.info(event);
            }
        }
        return kept;
    }

    /** There are ERRORs, and each says "too large" and names {@code setting}. */
    private static void assertNamedInErrors(LoggerContext context, String setting) {
        assertThat(TestLogback.statusMessages(context, Status.ERROR)).as(statuses(context)).isNotEmpty()
                .allMatch(message -> message.contains("too large") && message.contains(setting));
    }

    /**
     * The topic's max.message.bytes, below the producer's max.request.size: the broker refuses the event (the
     * producer splits its batch until the event is alone, then fails it). Left out and counted; the others once, in
     * order, with transactions and without.
     */
    @ParameterizedTest(name = "transactional={0}")
    @ValueSource(booleans = {true, false})
    void anEventTooLargeForTheTopicIsLeftOutAndCounted(boolean transactional) throws Exception {
        String topic = KafkaTestBroker.newTopic("topic-limit", Map.of("max.message.bytes", "4096"));
        LoggerContext context = newContext();
        LockFreeKafkaAppender appender = LockFreeKafkaAppenderTest.appender(context, topic, dir.resolve("limit.journal"));
        if (!transactional) {
            LockFreeKafkaAppenderTest.transactionsOff(appender);
        }
        appender.start();
        assertThat(appender.isStarted()).as(statuses(context)).isTrue();
        Logger logger = logger(context, appender);
        List<String> kept = logAmongLarge(logger, 200, List.of(50, 150), 8_000); // over the topic's max.message.bytes
        appender.stop();

        List<String> values = CommittedReader.values(KafkaTestBroker.bootstrap(), topic);
        assertThat(values).as(statuses(context)).hasSize(kept.size());
        Events.assertExactlyOnceInOrder(values, kept);
        assertThat(appender.getStatistics().drops()).as(statuses(context)).containsEntry("too-large", 2L);
        assertThat(appender.getKafkaCounters().tooLarge()).isEqualTo(2);
        assertThat(appender.getKafkaCounters().eventsDelivered()).isEqualTo(kept.size());
        assertNamedInErrors(context, "max.message.bytes");
    }

    /**
     * A batch.size given above the topic's max.message.bytes: the producer would split a refused batch into batches
     * as large, for ever. One WARN names both settings; the topic's limit is used and everything goes out.
     */
    @Test
    void aBatchSizeAboveTheTopicsLimitIsNamedAndLowered() throws Exception {
        String topic = KafkaTestBroker.newTopic("batch-limit", Map.of("max.message.bytes", "4096"));
        LoggerContext context = newContext();
        LockFreeKafkaAppender appender = LockFreeKafkaAppenderTest.appender(context, topic, dir.resolve("batch.journal"));
        appender.addProducerConfig("batch.size=65536");
        appender.start();
        assertThat(appender.isStarted()).as(statuses(context)).isTrue();
        Logger logger = logger(context, appender);
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            String event = Events.event(0, i);
            expected.add(event);
            logger.info(event);
        }
        appender.stop();

        List<String> values = CommittedReader.values(KafkaTestBroker.bootstrap(), topic);
        assertThat(values).as(statuses(context)).hasSize(expected.size());
        Events.assertExactlyOnceInOrder(values, expected);
        assertThat(TestLogback.warnings(context)).as(statuses(context)).singleElement().asString()
                .contains("batch.size (65536)").contains("max.message.bytes").contains("(4096)");
        assertThat(appender.getStatistics().dropped()).isZero();
    }
}
