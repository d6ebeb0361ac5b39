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
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A cluster that refuses the sink: a topic that does not exist. The application goes on, the events wait in the
 * journal, a message names the topic and the setting; once the topic is there, every event goes once, in order.
 */
class KafkaRefusalsTest {

    @TempDir
    Path dir;

    @Test
    void aTopicThatDoesNotExistIsNamedAndTheEventsWaitUntilItDoes() throws Exception {
        String topic = "absent-" + UUID.randomUUID().toString().substring(0, 8);
        LoggerContext context = newContext();
        LockFreeKafkaAppender appender = LockFreeKafkaAppenderTest.appender(context, topic, dir.resolve("absent.journal"));
        appender.start();
        assertThat(appender.isStarted()).as(statuses(context)).isTrue();
        Logger logger = logger(context, appender);
        List<String> all = new ArrayList<>();
        Events.log(logger, 0, 50, all);
        Awaitility.await().atMost(30, TimeUnit.SECONDS).until(() -> TestLogback.warnings(context).stream()
                .anyMatch(message -> message.contains("does not exist")));
        Status named = context.getStatusManager().getCopyOfStatusList().stream()
                .filter(status -> status.getMessage().contains("does not exist")).findFirst().orElseThrow();
        assertThat(named.getMessage()).contains(topic).contains("<topic>");
        assertThat(named.getLevel()).as("a setting to change, not an outage: %s", named).isEqualTo(Status.ERROR);
        assertThat(appender.getStatistics().dropped()).isZero();
        assertThat(KafkaTestBroker.topics()).as("the sink creates no topic of its own accord").doesNotContain(topic);

        KafkaTestBroker.createTopic(topic);
        Events.log(logger, 50, 100, all);
        appender.stop();

        List<String> values = CommittedReader.values(KafkaTestBroker.bootstrap(), topic);
        assertThat(values).as(statuses(context)).hasSize(all.size());
        Events.assertExactlyOnceInOrder(values, all);
        assertThat(appender.getStatistics().dropped()).isZero();
    }

    /**
     * A producer setting Kafka's client refuses ({@code retries=0}: the sink's producer is idempotent): an ERROR
     * that gives the client's own words, which name the setting, and says where producer settings are set; not an
     * outage's WARN. The application goes on; the events wait in the journal.
     */
    @Test
    void aProducerSettingKafkasClientRefusesIsNamedInAnError() throws Exception {
        String topic = KafkaTestBroker.newTopic("retries");
        LoggerContext context = newContext();
        LockFreeKafkaAppender appender = LockFreeKafkaAppenderTest.appender(context, topic, dir.resolve("retries.journal"));
        appender.addProducerConfig("retries=0");
        appender.start();
        assertThat(appender.isStarted()).as(statuses(context)).isTrue();
        List<String> all = new ArrayList<>();
        Events.log(logger(context, appender), 0, 10, all);
        Awaitility.await().atMost(30, TimeUnit.SECONDS).until(() -> !TestLogback.statusMessages(context, Status.ERROR).isEmpty());
        String error = TestLogback.statusMessages(context, Status.ERROR).get(0);
        assertThat(error).as(statuses(context)).contains("retries")
                .contains("<producerConfig>");
        assertThat(TestLogback.warnings(context)).as("said once, as an ERROR: %s", statuses(context))
                .hasSize(1);
        appender.stop();
        assertThat(appender.getStatistics().dropped()).isZero();
        assertThat(CommittedReader.toHighWatermark(KafkaTestBroker.bootstrap(), topic)).as("nothing delivered").isEmpty();
    }
}
