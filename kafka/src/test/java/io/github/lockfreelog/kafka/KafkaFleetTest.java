package io.github.lockfreelog.kafka;

import static io.github.lockfreelog.kafka.LockFreeKafkaAppenderTest.encoder;
import static io.github.lockfreelog.testsupport.TestLogback.newContext;
import static io.github.lockfreelog.testsupport.TestLogback.statuses;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import io.github.lockfreelog.testsupport.kafka.CommittedReader;
import io.github.lockfreelog.testsupport.kafka.KafkaCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Sizing for a fleet: {@code n} instances of an application (appenders of their own, each with its journal and
 * transactional id prefix, in this JVM) log to one topic on a three-node cluster ({@link KafkaCluster}, the topic
 * replicated three ways), each at a steady rate, for a while. Measured and printed: the transactions committed and
 * the position records written a second, fleet-wide and per instance, the events a transaction carries, and the
 * nodes' CPU meanwhile; every event of every instance once, in its order. Not a speed check (none is asserted):
 * figures for docs/kafka.md, run with {@code -Dlockfreelog.fleet=true} (CONTRIBUTING.md).
 */
@EnabledIfSystemProperty(named = "lockfreelog.fleet", matches = "true")
class KafkaFleetTest {

    static final int SECONDS = Integer.getInteger("lockfreelog.fleetSeconds", 10);

    @TempDir
    static Path folder;

    private static KafkaCluster cluster;

    @BeforeAll
    static void startCluster() throws Exception {
        cluster = KafkaCluster.start(3, Files.createDirectories(folder.resolve("cluster")), Map.of());
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @ParameterizedTest(name = "{0} instance(s) at {1} events/s each")
    @CsvSource({"1, 200", "8, 200", "24, 200", "4, 5000"})
    void aFleetLoggingToOneTopic(int instances, int rate) throws Exception {
        String topic = "fleet-" + instances + "x" + rate + "-" + System.nanoTime() % 100_000;
        cluster.createTopic(topic, 3, Map.of("min.insync.replicas", "2"));
        LoggerContext context = newContext();
        List<LockFreeKafkaAppender> appenders = new ArrayList<>();
        List<Logger> loggers = new ArrayList<>();
        List<String> all = new ArrayList<>();
        for (int i = 0; i < instances; i++) {
            LockFreeKafkaAppender appender = new LockFreeKafkaAppender();
            appender.setContext(context);
            appender.setName("KAFKA-" + i);
            appender.setTopic(topic);
            appender.setJournal(folder.resolve(topic + "-" + i + ".journal").toString());
            appender.addProducerConfig("bootstrap.servers=" + cluster.bootstrap());
            appender.setTransactionalIdPrefix(topic + "-instance-" + i);
            appender.setBufferSize(ch.qos.logback.core.util.FileSize.valueOf("1MB"));
            appender.setEncoder(encoder(context));
            appender.start();
            assertThat(appender.isStarted()).as(statuses(context)).isTrue();
            appenders.add(appender);
            loggers.add(context.getLogger("fleet." + i));
            loggers.get(i).setAdditive(false);
            loggers.get(i).addAppender(appender);
            String first = Events.event(i, 0);
            all.add(first);
            loggers.get(i).info(first);
        }
        Awaitility.await("every instance set up").atMost(120, TimeUnit.SECONDS).until(() -> appenders.stream()
                .allMatch(a -> a.getKafkaCounters().eventsDelivered() >= 1));
        long transactionsBefore = appenders.stream().mapToLong(a -> a.getKafkaCounters().transactionsCommitted()).sum();
        long positionsBefore = CommittedReader.toHighWatermark(cluster.bootstrap(), topic + ".positions",
                Duration.ofSeconds(60)).size();
        long[] cpuBefore = cpu();
        long started = System.nanoTime();
        long ticks = (long) rate * SECONDS;
        for (long t = 1; t <= ticks; t++) {
            long due = started + TimeUnit.SECONDS.toNanos(1) * t / rate;
            for (long left; (left = due - System.nanoTime()) > 0;) {
                LockSupport.parkNanos(left);
            }
            for (int i = 0; i < instances; i++) {
                String event = Events.event(i, (int) t);
                all.add(event);
                loggers.get(i).info(event);
            }
        }
        double elapsed = (System.nanoTime() - started) / 1e9;
        long transactions = appenders.stream().mapToLong(a -> a.getKafkaCounters().transactionsCommitted()).sum()
                - transactionsBefore;
        long[] cpuAfter = cpu();
        appenders.forEach(LockFreeKafkaAppender::stop);
        long positions = CommittedReader.toHighWatermark(cluster.bootstrap(), topic + ".positions",
                Duration.ofSeconds(60)).size() - positionsBefore;
        long nodeCpu = 0;
        for (int n = 0; n < cpuAfter.length; n++) {
            nodeCpu += cpuAfter[n] - cpuBefore[n];
        }
        System.out.printf("kafka fleet: %d instance(s) at %d events/s each for %.1f s: %d transactions (%.1f/s, %.1f/s"
                + " an instance, %.1f events each), %d position records (%.1f/s) (the last ones of the stops"
                + " included), nodes' CPU %.0f%% of one core (%s ms)%n", instances, rate, elapsed, transactions,
                transactions / elapsed, transactions / elapsed / instances, (double) ticks * instances
                        / Math.max(1, transactions), positions, positions / elapsed, nodeCpu / elapsed / 10,
                Arrays.toString(cpuAfter));
        List<String> values = CommittedReader.toHighWatermark(cluster.bootstrap(), topic, Duration.ofSeconds(120))
                .stream().map(CommittedReader::value).toList();
        assertThat(appenders.stream().mapToLong(a -> a.getStatistics().dropped()).sum()).as(statuses(context))
                .isZero();
        assertThat(values).as(statuses(context)).hasSize(all.size());
        Events.assertExactlyOnceInOrder(values, all);
        assertThat(transactions).as("transactions committed while the fleet logged").isPositive();
    }

    private static long[] cpu() {
        long[] cpu = new long[cluster.size()];
        for (int n = 0; n < cpu.length; n++) {
            cpu[n] = cluster.cpuMillis(n);
        }
        return cpu;
    }
}
