package io.github.lockfreelog.kafka;

import static io.github.lockfreelog.kafka.LockFreeKafkaAppenderTest.logger;
import static io.github.lockfreelog.kafka.LockFreeKafkaAppenderTest.newContext;
import static io.github.lockfreelog.kafka.LockFreeKafkaAppenderTest.statuses;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import io.github.lockfreelog.kafka.testing.CommittedReader;
import io.github.lockfreelog.kafka.testing.KafkaTestBroker;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fewer, fuller transactions: at 200 events a second from one instance, a transaction carries what gathered during
 * the linger ({@code transactionLinger}, 50 ms by default) rather than the events of one drain pass, so the sink
 * makes at most 30 transactions a second (one a drain pass made 55 to 71). {@code -Dkafka.rates=true} also measures
 * 20,000 events a second and both rates without the linger, and prints the figures.
 */
class KafkaTransactionRateTest {

    @TempDir
    Path dir;

    @Test
    void atTwoHundredEventsASecondTheSinkMakesAtMostThirtyTransactionsASecond() throws Exception {
        double perSecond = transactionsPerSecond(200, 2, LockFreeKafkaAppender.DEFAULT_TRANSACTION_LINGER_MS, "light");
        assertThat(perSecond).isLessThanOrEqualTo(30);
        if (Boolean.getBoolean("kafka.rates")) {
            transactionsPerSecond(200, 5, 0, "light-nolinger");
            transactionsPerSecond(200, 5, LockFreeKafkaAppender.DEFAULT_TRANSACTION_LINGER_MS, "light-5s");
            transactionsPerSecond(20_000, 5, 0, "heavy-nolinger");
            transactionsPerSecond(20_000, 5, LockFreeKafkaAppender.DEFAULT_TRANSACTION_LINGER_MS, "heavy");
        }
    }

    /**
     * Logs {@code rate} events a second for {@code seconds} from one thread and returns the transactions committed a
     * second meanwhile; every event once, in order.
     */
    private double transactionsPerSecond(int rate, int seconds, long linger, String name) throws Exception {
        String topic = KafkaTestBroker.newTopic("rate");
        LoggerContext context = newContext();
        LockFreeKafkaAppender appender = LockFreeKafkaAppenderTest.appender(context, topic, dir.resolve(name + ".journal"));
        appender.setTransactionLinger(linger);
        appender.start();
        assertThat(appender.isStarted()).as(statuses(context)).isTrue();
        Logger logger = logger(context, appender);
        List<String> all = new ArrayList<>();
        Events.log(logger, 0, 1, all);
        Awaitility.await().atMost(60, TimeUnit.SECONDS).until(() -> appender.getKafkaCounters().eventsDelivered() == 1);
        long before = appender.getKafkaCounters().transactionsCommitted();
        long started = System.nanoTime();
        int events = rate * seconds;
        for (int i = 1; i <= events; i++) {
            long due = started + TimeUnit.SECONDS.toNanos(1) * i / rate;
            for (long left; (left = due - System.nanoTime()) > 0;) {
                LockSupport.parkNanos(left);
            }
            Events.log(logger, i, i + 1, all);
        }
        double elapsed = (System.nanoTime() - started) / 1e9;
        long transactions = appender.getKafkaCounters().transactionsCommitted() - before;
        appender.stop();
        double perSecond = transactions / elapsed;
        System.out.printf("transaction rate %s: %d events/s for %.1f s, linger %d ms: %d transactions, %.1f/s,"
                + " %.1f events each%n", name, rate, elapsed, linger, transactions, perSecond,
                (double) events / Math.max(1, transactions));
        List<String> values = CommittedReader.values(KafkaTestBroker.bootstrap(), topic);
        assertThat(values).as(statuses(context)).hasSize(all.size());
        Events.assertExactlyOnceInOrder(values, all);
        return perSecond;
    }
}
