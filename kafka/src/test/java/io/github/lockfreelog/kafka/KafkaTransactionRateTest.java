package io.github.lockfreelog.kafka;

import static io.github.lockfreelog.kafka.LockFreeKafkaAppenderTest.logger;
import static io.github.lockfreelog.testsupport.TestLogback.newContext;
import static io.github.lockfreelog.testsupport.TestLogback.statuses;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import io.github.lockfreelog.testsupport.kafka.CommittedReader;
import io.github.lockfreelog.testsupport.kafka.KafkaTestBroker;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
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
 * makes at most 30 transactions a second (one a drain pass made 55 to 71; 58.6 a second on the 2-CPU build machine). {@code -Dkafka.rates=true} also measures
 * 20,000 events a second and both rates without the linger, and prints the figures.
 */
class KafkaTransactionRateTest {

    @TempDir
    Path dir;

    /**
     * At most 30 a second, and at most one a linger (plus the first and the last): a bound of the design, whatever
     * the machine's speed (without the linger: 58.6 to 60 a second on the 2-CPU build machine, 3.3 events each).
     */
    @Test
    void atTwoHundredEventsASecondTheSinkMakesAtMostThirtyTransactionsASecond() throws Exception {
        long linger = LockFreeKafkaAppender.DEFAULT_TRANSACTION_LINGER_MS;
        double[] measured = transactionsPerSecond(200, 2, linger, "light");
        assertThat(measured[0] / measured[1]).as("transactions a second").isLessThanOrEqualTo(30);
        assertThat(measured[0]).as("transactions in %.1f s", measured[1])
                .isLessThanOrEqualTo(measured[1] * 1000 / linger + 2);
        if (Boolean.getBoolean("kafka.rates")) { // the figures of docs/kafka.md, "Sizing for a fleet"
            transactionsPerSecond(200, 5, 0, "light-nolinger");
            transactionsPerSecond(200, 5, LockFreeKafkaAppender.DEFAULT_TRANSACTION_LINGER_MS, "light-5s");
            transactionsPerSecond(20_000, 5, 0, "heavy-nolinger");
            transactionsPerSecond(20_000, 5, LockFreeKafkaAppender.DEFAULT_TRANSACTION_LINGER_MS, "heavy");
        }
    }

    /**
     * Logs {@code rate} events a second for {@code seconds} from one thread and returns the transactions committed
     * meanwhile and the seconds it took; every event once, in order. Prints the CPU time of the broker's threads
     * (the JVM's, less the test's, the drainer's and the clients' threads) per second.
     */
    private double[] transactionsPerSecond(int rate, int seconds, long linger, String name) throws Exception {
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
        long cpuBefore = brokerCpuNanos();
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
        double brokerCpu = (brokerCpuNanos() - cpuBefore) / 1e9 / elapsed;
        appender.stop();
        double perSecond = transactions / elapsed;
        System.out.printf("transaction rate %s: %d events/s for %.1f s, linger %d ms: %d transactions, %.1f/s,"
                + " %.1f events each; broker threads' CPU %.1f%%%n", name, rate, elapsed, linger, transactions, perSecond,
                (double) events / Math.max(1, transactions), brokerCpu * 100);
        List<String> values = CommittedReader.values(KafkaTestBroker.bootstrap(), topic);
        assertThat(values).as(statuses(context)).hasSize(all.size());
        Events.assertExactlyOnceInOrder(values, all);
        return new double[] {transactions, elapsed};
    }

    /** CPU time of the JVM's threads but the test's, the drainers' and the Kafka clients' (the broker's, about). */
    private static long brokerCpuNanos() {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long sum = 0;
        for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (info == null) {
                continue;
            }
            String name = info.getThreadName();
            if (name.equals("main") || name.startsWith("lockfreelog") || name.startsWith("kafka-producer-network-thread")
                    || name.startsWith("kafka-coordinator") || name.contains("consumer")) {
                continue;
            }
            sum += Math.max(0, threads.getThreadCpuTime(info.getThreadId()));
        }
        return sum;
    }
}
