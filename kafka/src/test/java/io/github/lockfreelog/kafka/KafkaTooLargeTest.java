package io.github.lockfreelog.kafka;

import static io.github.lockfreelog.kafka.LockFreeKafkaAppenderTest.logger;
import static io.github.lockfreelog.kafka.LockFreeKafkaAppenderTest.newContext;
import static io.github.lockfreelog.kafka.LockFreeKafkaAppenderTest.statuses;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.core.status.Status;
import io.github.lockfreelog.diagnostics.AppenderStatistics;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An event Kafka refuses as too large is left out, and counted once as the engine's drop {@code too-large} (not as
 * written); the events around it go out exactly once, in order; one ERROR names the settings to raise.
 */
class KafkaTooLargeTest {

    @TempDir
    Path dir;

    @Test
    void anEventTooLargeForTheProducerIsLeftOutAndCountedAsDroppedTooLarge() throws Exception {
        String topic = TestBroker.newTopic("too-large");
        LoggerContext context = newContext();
        LockFreeKafkaAppender appender = LockFreeKafkaAppenderTest.appender(context, topic, dir.resolve("large.journal"));
        appender.addProducerConfig("max.request.size=4096");
        appender.start();
        assertThat(appender.isStarted()).as(statuses(context)).isTrue();
        Logger logger = logger(context, appender);
        List<String> kept = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            if (i == 13 || i == 27) {
                logger.info("t9 e" + i + " " + "y".repeat(10_000)); // over max.request.size
            } else {
                String event = Events.event(0, kept.size());
                kept.add(event);
                logger.info(event);
            }
        }
        appender.stop();

        List<String> values = TestBroker.readCommitted(topic).stream().map(TestBroker::value).toList();
        assertThat(values).as(statuses(context)).hasSize(38);
        Events.assertExactlyOnceInOrder(values, kept);
        AppenderStatistics stats = appender.getStatistics();
        assertThat(stats.drops()).as(statuses(context)).containsEntry("too-large", 2L);
        assertThat(stats.dropped()).isEqualTo(2);
        assertThat(stats.eventsWritten()).isEqualTo(38);
        assertThat(stats.appended()).isEqualTo(40);
        assertThat(appender.getKafkaCounters().tooLarge()).isEqualTo(2);
        assertThat(appender.getKafkaCounters().eventsDelivered()).isEqualTo(38);
        List<String> errors = context.getStatusManager().getCopyOfStatusList().stream()
                .filter(status -> status.getLevel() == Status.ERROR).map(Status::getMessage).toList();
        assertThat(errors).as(statuses(context)).isNotEmpty()
                .allMatch(message -> message.contains("too large") && message.contains("max.request.size"));
    }
}
