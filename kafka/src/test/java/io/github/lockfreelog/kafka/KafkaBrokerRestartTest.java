package io.github.lockfreelog.kafka;

import static io.github.lockfreelog.kafka.LockFreeKafkaAppenderTest.encoder;
import static io.github.lockfreelog.kafka.LockFreeKafkaAppenderTest.logger;
import static io.github.lockfreelog.testsupport.TestLogback.newContext;
import static io.github.lockfreelog.testsupport.TestLogback.statuses;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.core.util.Duration;
import ch.qos.logback.core.util.FileSize;
import io.github.lockfreelog.testsupport.kafka.CommittedReader;
import io.github.lockfreelog.testsupport.kafka.KafkaTestBroker;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import kafka.server.BrokerServer;
import org.apache.kafka.clients.admin.NewTopic;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

/**
 * The broker stops for a while under load, the application restarts meanwhile, and the broker comes back on the
 * same port: a {@code read_committed} consumer sees every acknowledged event exactly once, each thread's in order. A broker of its own, so that the other classes'
 * broker never stops.
 */
class KafkaBrokerRestartTest {

    private static final int THREADS = 4;
    private static EmbeddedKafkaKraftBroker broker;

    @TempDir
    Path dir;

    @BeforeAll
    static void startBroker() throws java.io.IOException {
        Map<String, String> settings = new java.util.HashMap<>();
        if (org.apache.kafka.common.utils.AppInfoParser.getVersion().startsWith("3.")) {
            // Kafka 3.9's test kit (Spring Boot 3.5's) listens on port 0, and a restarted broker binds a new port, where
            // the appender's bootstrap.servers could not follow it (4.x's kit keeps the port): a fixed port for its
            // client listener (the kit gives way to a listeners setting; its names are EXTERNAL and CONTROLLER)
            settings.put("listeners", "EXTERNAL://localhost:" + freePort() + ",CONTROLLER://localhost:0");
        }
        broker = KafkaTestBroker.start(settings);
    }

    private static int freePort() throws java.io.IOException {
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    @AfterAll
    static void stopBroker() {
        broker.destroy();
    }

    @Test
    void aBrokerStoppedUnderLoadWhileTheAppenderRestartsGetsEveryEventOnceInEachThreadsOrder() throws Exception {
        String topic = "restart";
        broker.addTopics(new NewTopic(topic, 1, (short) 1));
        Path journal = dir.resolve("restart.journal");
        LoggerContext context = newContext();
        LockFreeKafkaAppender first = appender(context, topic, journal, 2);
        first.start();
        assertThat(first.isStarted()).as(statuses(context)).isTrue();
        Logger logger = logger(context, first);

        // four threads log an event every 2 ms or so until told to stop (a few thousand events each, which the
        // journal holds whole while the broker is down); the lock lets the test swap appenders between two events
        ReentrantReadWriteLock swap = new ReentrantReadWriteLock();
        List<List<String>> logged = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        AtomicBoolean done = new AtomicBoolean();
        for (int t = 0; t < THREADS; t++) {
            List<String> mine = new ArrayList<>();
            logged.add(mine);
            final int thread = t;
            threads.add(new Thread(() -> {
                for (int i = 0; !done.get(); i++) {
                    swap.readLock().lock();
                    try {
                        mine.add(Events.event(thread, i));
                        logger.info(Events.event(thread, i));
                    } finally {
                        swap.readLock().unlock();
                    }
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2));
                }
            }, "caller-" + t));
        }
        threads.forEach(Thread::start);
        Thread.sleep(1_000);
        String address = broker.getBrokersAsString();
        BrokerServer server = brokerServer(broker);
        server.shutdown();
        server.awaitShutdown();
        long down = System.nanoTime();
        // what a user watches while the broker is away: not connected, and the wait of the undelivered events grows
        Awaitility.await("the sink sees the outage").atMost(8, TimeUnit.SECONDS).until(() ->
                !first.getKafkaCounters().connected() && first.getKafkaCounters().oldestUndeliveredMillis() >= 500);

        // the application restarts while the broker is down: the stop keeps the journal, the new start finds it
        LockFreeKafkaAppender second = appender(context, topic, journal, 40);
        swap.writeLock().lock();
        try {
            first.stop();
            logger.detachAppender(first);
            try {
                Awaitility.await().atMost(30, TimeUnit.SECONDS).until(() -> drainerStacks().isEmpty());
            } catch (org.awaitility.core.ConditionTimeoutException e) {
                throw new AssertionError("the first appender's drainer did not end within 30 s of its stop:\n"
                        + drainerStacks() + "\n" + statuses(context), e);
            }
            second.start();
            assertThat(second.isStarted()).as(statuses(context)).isTrue();
            logger.addAppender(second);
        } finally {
            swap.writeLock().unlock();
        }
        // the broker stays down 10 s under load, the appender's restart among them
        Thread.sleep(Math.max(0, TimeUnit.SECONDS.toMillis(10) - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - down)));
        server.startup();
        assertThat(broker.getBrokersAsString()).as("the broker back on its port").isEqualTo(address);
        // the broker itself is back (its own test kit's restart): only then is what follows about the appender
        try (org.apache.kafka.clients.admin.Admin admin = org.apache.kafka.clients.admin.Admin.create(
                Map.of("bootstrap.servers", broker.getBrokersAsString()))) {
            Awaitility.await("the broker back after its restart").atMost(30, TimeUnit.SECONDS)
                    .ignoreExceptions().until(() -> admin.describeTopics(List.of(topic)).allTopicNames()
                            .get(2, TimeUnit.SECONDS).containsKey(topic));
        }
        Thread.sleep(2_000);
        done.set(true);
        for (Thread thread : threads) {
            thread.join();
        }
        second.stop();
        assertThat(second.getKafkaCounters().connected()).as("connected again").isTrue();
        assertThat(second.getKafkaCounters().oldestUndeliveredMillis()).as("nothing waits").isZero();

        List<String> all = new ArrayList<>();
        logged.forEach(all::addAll);
        List<String> values = readCommitted(topic);
        assertThat(first.getStatistics().dropped() + second.getStatistics().dropped()).as(statuses(context)).isZero();
        assertThat(values).as(statuses(context)).hasSize(all.size());
        Events.assertExactlyOnceInOrder(values, all);
        assertThat(second.getStatistics().recoveredFrames()).as("what the first left in the journal").isPositive();
    }

    /** The stack of each live drainer thread, one after another; empty when none is alive. */
    private static String drainerStacks() {
        StringBuilder stacks = new StringBuilder();
        Thread.getAllStackTraces().forEach((thread, stack) -> {
            if (thread.getName().startsWith("lockfreelog-drainer-") && thread.isAlive()) {
                stacks.append(thread).append('\n');
                for (StackTraceElement element : stack) {
                    stacks.append("    at ").append(element).append('\n');
                }
            }
        });
        return stacks.toString();
    }

    private static LockFreeKafkaAppender appender(LoggerContext context, String topic, Path journal,
            int stopTimeoutSeconds) {
        LockFreeKafkaAppender appender = new LockFreeKafkaAppender();
        appender.setContext(context);
        appender.setName("KAFKA");
        appender.setTopic(topic);
        appender.setJournal(journal.toString());
        appender.setProducerProperties(Map.of("bootstrap.servers", broker.getBrokersAsString(), "max.block.ms", "2000"));
        appender.setTransactionalIdPrefix("restart");
        appender.setBufferSize(FileSize.valueOf("1MB"));
        appender.setStopTimeout(Duration.buildBySeconds(stopTimeoutSeconds));
        appender.setEncoder(encoder(context));
        return appender;
    }

    private static List<String> readCommitted(String topic) {
        return CommittedReader.values(broker.getBrokersAsString(), topic);
    }

    /**
     * The broker's server, to stop and start: through reflection, as {@code getCluster()} returns Kafka's
     * {@code KafkaClusterTestKit}, whose package differs between Kafka 3.9 (Spring Boot 3.5) and 4.x.
     */
    @SuppressWarnings("unchecked")
    private static BrokerServer brokerServer(EmbeddedKafkaKraftBroker broker) throws ReflectiveOperationException {
        Object cluster = EmbeddedKafkaKraftBroker.class.getMethod("getCluster").invoke(broker);
        Map<Integer, BrokerServer> brokers = (Map<Integer, BrokerServer>) cluster.getClass().getMethod("brokers")
                .invoke(cluster);
        return brokers.values().iterator().next();
    }
}
