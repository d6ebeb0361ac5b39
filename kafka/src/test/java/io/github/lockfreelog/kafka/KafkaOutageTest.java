package io.github.lockfreelog.kafka;

import static io.github.lockfreelog.kafka.LockFreeKafkaAppenderTest.logger;
import static io.github.lockfreelog.testsupport.TestLogback.newContext;
import static io.github.lockfreelog.testsupport.TestLogback.statuses;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.core.status.Status;
import ch.qos.logback.core.util.Duration;
import io.github.lockfreelog.testsupport.kafka.CommittedReader;
import io.github.lockfreelog.testsupport.kafka.KafkaTestBroker;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A broker out of reach when the appender starts: the start goes on, events gather in the journal, one WARN says
 * so; once a broker is there, everything the journal holds goes out, exactly once, in order.
 */
class KafkaOutageTest {

    private static final long STOP_TIMEOUT_MS = 2_000;

    @TempDir
    Path dir;

    @Test
    void aBrokerOutOfReachAtStartHoldsUpNothingAndWhatGatheredGoesOutOnceInOrder() throws Exception {
        String topic = KafkaTestBroker.newTopic("outage");
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort(); // closed again at once: nothing listens there
        }
        Path journal = dir.resolve("outage.journal");
        List<String> all = new ArrayList<>();

        // a first run that never reaches a broker: its events stay in the journal, as after a kill
        LoggerContext first = newContext();
        LockFreeKafkaAppender gone = outOfReach(first, topic, journal, closedPort);
        gone.start();
        assertThat(gone.isStarted()).as(statuses(first)).isTrue();
        log(logger(first, gone), 0, 100, all);
        gone.stop();
        awaitDrainersGone();

        // the next start finds that journal, and still no broker: it starts all the same
        LoggerContext context = newContext();
        LockFreeKafkaAppender down = outOfReach(context, topic, journal, closedPort);
        down.start();
        assertThat(down.isStarted()).as(statuses(context)).isTrue();
        log(logger(context, down), 100, 150, all);
        assertThat(down.getStatistics().dropped()).isZero();
        // several tries of the sink, each failing after max.block.ms
        Awaitility.await().atMost(30, TimeUnit.SECONDS).until(() -> down.getStatistics().drainerErrors() >= 3);
        assertThat(warnings(context)).as(statuses(context)).hasSize(1);
        assertThat(warnings(context).get(0)).contains("events gather in the journal");

        long stopping = System.nanoTime();
        down.stop();
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stopping)).as("stop took (ms)")
                .isLessThan(STOP_TIMEOUT_MS + 2_000);
        assertThat(Files.size(journal)).as("the journal keeps the events").isPositive();
        awaitDrainersGone();

        // a broker is there now: the same journal and transactional ids, events before the new ones
        LoggerContext again = newContext();
        LockFreeKafkaAppender up = LockFreeKafkaAppenderTest.appender(again, topic, journal);
        up.start();
        assertThat(up.isStarted()).as(statuses(again)).isTrue();
        log(logger(again, up), 150, 200, all);
        up.stop();

        List<String> values = CommittedReader.values(KafkaTestBroker.bootstrap(), topic);
        assertThat(values).as(statuses(again)).hasSize(all.size());
        Events.assertExactlyOnceInOrder(values, all);
        assertThat(up.getStatistics().recoveredFrames()).isEqualTo(150);
    }

    /** An appender whose bootstrap server is a port where nothing listens. */
    private static LockFreeKafkaAppender outOfReach(LoggerContext context, String topic, Path journal, int port) {
        LockFreeKafkaAppender appender = LockFreeKafkaAppenderTest.appender(context, topic, journal);
        appender.setProducerProperties(Map.of("bootstrap.servers", "127.0.0.1:" + port, "max.block.ms", "1000"));
        appender.setStopTimeout(Duration.buildByMilliseconds(STOP_TIMEOUT_MS));
        return appender;
    }

    private static void log(Logger logger, int from, int to, List<String> all) {
        for (int i = from; i < to; i++) {
            all.add(Events.event(0, i));
            logger.info(Events.event(0, i));
        }
    }

    /** The drainer of a stop that timed out leaves the Kafka call it is in (max.block.ms at most), then the journal. */
    private static void awaitDrainersGone() {
        Awaitility.await().atMost(30, TimeUnit.SECONDS).until(() -> Thread.getAllStackTraces().keySet().stream()
                .noneMatch(thread -> thread.getName().startsWith("lockfreelog-drainer-") && thread.isAlive()));
    }

    private static List<String> warnings(LoggerContext context) {
        List<String> warnings = new ArrayList<>();
        for (Status status : context.getStatusManager().getCopyOfStatusList()) {
            if (status.getLevel() == Status.WARN) {
                warnings.add(status.getMessage());
            }
        }
        return warnings;
    }
}
