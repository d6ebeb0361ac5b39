package io.github.lockfreelog.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.lockfreelog.testsupport.ChildJvm;
import io.github.lockfreelog.testsupport.kafka.CommittedReader;
import io.github.lockfreelog.testsupport.kafka.KafkaCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The Kafka appender on a real cluster: three KRaft nodes, each a process of Kafka's own server
 * ({@link KafkaCluster}), the log topic replicated three ways with {@code min.insync.replicas} 2. A child JVM
 * ({@link KafkaCrashChild}) logs from four threads at a steady pace through the transactional appender and
 * acknowledges each event in a file that outlives it. Under that load one node is lost, stopped cleanly or killed
 * with SIGKILL: the one that leads the log topic, or the one that leads the position topic
 * ({@code <topic>.positions}). With the node still down, the application is killed with SIGKILL and started again,
 * logs, and is killed again; this JVM recovers the journal and logs a marker. Then a {@code read_committed}
 * consumer must see every acknowledged event exactly once, in each thread's order, and delivery must have gone on
 * while the node was gone: a consumer that followed the topic all along saw no gap longer than
 * {@value #GAP_BOUND_SECONDS} s while the application ran, measured and reported.
 *
 * <p>{@code mvn verify} runs one case, the leader of the position topic killed (about a minute on 2 CPUs); the
 * four cases run with {@code -Dlockfreelog.clusterSweep=true} (CONTRIBUTING.md, "The Kafka cluster sweep").
 */
class KafkaClusterTest {

    /**
     * The longest the topic may go without a delivery while the application runs and a node is gone: a killed
     * node's leadership moves once the controller misses its heartbeats ({@code broker.session.timeout.ms}, 9 s),
     * and the producer then finds the new leader. Each window watched is longer than this bound.
     */
    static final int GAP_BOUND_SECONDS = 20;
    /** How long run 0 goes on logging after the node was lost, and run 1 logs. */
    static final int RUN_0_AFTER_LOSS_SECONDS = 25;
    static final int RUN_1_SECONDS = 22;
    /**
     * With {@code -Dlockfreelog.clusterPositionReplicas=<n>}, the position topic is made beforehand, as an operator
     * may, with {@code n} replicas (and {@code min.insync.replicas} 2 from three on): the rest of the sink's protocol
     * tried on a cluster with a position topic that survives a node's loss.
     */
    static final int POSITION_REPLICAS = Integer.getInteger("lockfreelog.clusterPositionReplicas", 0);
    /** Events a second of each of the four threads. */
    static final int PACE = 250;

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

    enum Target {
        /** The node that leads the log topic. */
        LOG,
        /** The node that leads the position topic. */
        POSITIONS
    }

    enum Loss {
        /** SIGTERM: Kafka's controlled shutdown. */
        STOP,
        /** SIGKILL. */
        KILL
    }

    @Test
    void theLeaderOfThePositionTopicKilledUnderLoadThenTheApplicationKilledLosesAndRepeatsNoAcknowledgedEvent()
            throws Exception {
        scenario(Target.POSITIONS, Loss.KILL);
    }

    @ParameterizedTest(name = "the leader of the {0} topic, {1}")
    @CsvSource({"LOG, STOP", "LOG, KILL", "POSITIONS, STOP", "POSITIONS, KILL"})
    @EnabledIfSystemProperty(named = "lockfreelog.clusterSweep", matches = "true")
    void sweep(Target target, Loss loss) throws Exception {
        scenario(target, loss);
    }

    private void scenario(Target target, Loss loss) throws Exception {
        KafkaCrashTest.Phases phases = new KafkaCrashTest.Phases();
        String topic = "cluster-" + target.name().toLowerCase() + "-" + loss.name().toLowerCase() + "-"
                + UUID.randomUUID().toString().substring(0, 8);
        cluster.createTopic(topic, 3, Map.of("min.insync.replicas", "2"));
        if (POSITION_REPLICAS > 0) {
            cluster.createTopic(topic + ".positions", POSITION_REPLICAS, Map.of("cleanup.policy", "compact",
                    "min.insync.replicas", POSITION_REPLICAS >= 3 ? "2" : "1", "segment.ms", "3600000",
                    "delete.retention.ms", "3600000"));
        }
        Path dir = Files.createDirectories(folder.resolve(topic));
        Path journal = dir.resolve("kafka.journal");
        List<long[]> acks = new ArrayList<>();
        int victim = -1;
        String positionReplicas = "";
        try (Tail tail = new Tail(cluster.bootstrap(), topic)) {
            // run 0: logs; a node is lost under its load; it goes on logging, then is killed
            ChildJvm first = child(topic, journal, dir.resolve("ack-0"), 0);
            try {
                first.await("READY");
                phases.mark("run 0 ready");
                cluster.awaitLeader(topic + ".positions", Duration.ofSeconds(60));
                tail.awaitRecords(1_000, Duration.ofSeconds(60));
                Thread.sleep(2_000);
                TopicPartitionInfo positions = cluster.partition(topic + ".positions");
                positionReplicas = positions.replicas().size() + " replica(s), isr " + positions.isr().size();
                victim = cluster.awaitLeader(target == Target.LOG ? topic : topic + ".positions",
                        Duration.ofSeconds(10));
                phases.mark("node " + victim + " lost");
                long lost = System.nanoTime();
                if (loss == Loss.STOP) {
                    cluster.stop(victim);
                } else {
                    cluster.kill(victim);
                }
                Thread.sleep(TimeUnit.SECONDS.toMillis(RUN_0_AFTER_LOSS_SECONDS));
                long firstKilled = System.nanoTime();
                assertThat(first.kill()).as("run 0 killed; printed %s", first.printed()).isEqualTo(128 + 9);
                acks.add(KafkaCrashTest.readAcks(dir.resolve("ack-0")));
                statuses("run 0", first);
                tail.window("run 0 with node " + victim + " gone", lost, firstKilled);
                phases.mark("run 0 killed");
            } finally {
                first.close();
            }
            // run 1: the application restarted with the node still gone, recovers, logs, and is killed again
            ChildJvm second = child(topic, journal, dir.resolve("ack-1"), 1);
            try {
                second.await("READY");
                long ready = System.nanoTime();
                phases.mark("run 1 ready");
                Thread.sleep(TimeUnit.SECONDS.toMillis(RUN_1_SECONDS));
                assertThat(second.kill()).as("run 1 killed; printed %s", second.printed()).isEqualTo(128 + 9);
                acks.add(KafkaCrashTest.readAcks(dir.resolve("ack-1")));
                statuses("run 1", second);
                tail.window("run 1, restarted with node " + victim + " gone", ready, System.nanoTime());
                phases.mark("run 1 killed");
            } finally {
                second.close();
            }
            // this JVM recovers what run 1 left and logs a marker, still without the node
            KafkaCrashTest.recoverHere(cluster.bootstrap(), topic, journal, 2, true, null);
            phases.mark("recovered here");
            List<String> values = CommittedReader.toHighWatermark(cluster.bootstrap(), topic, Duration.ofSeconds(60))
                    .stream().map(CommittedReader::value).toList();
            System.out.printf("kafka cluster, the leader of the %s topic (node %d), %s: %d records read; position"
                    + " topic %s; delivery: %s; %s%n", target.name().toLowerCase(), victim, loss, values.size(),
                    positionReplicas, tail.report(), phases);
            KafkaCrashTest.Tally tally = KafkaCrashTest.check(values, acks, 1, true, 2);
            phases.mark("checked");
            System.out.printf("kafka cluster, the leader of the %s topic (node %d), %s: %s; %s%n",
                    target.name().toLowerCase(), victim, loss, tally, phases);
            assertThat(tally.acknowledged).as("events were acknowledged").isPositive();
            tail.assertGapsWithin(Duration.ofSeconds(GAP_BOUND_SECONDS));
        } finally {
            if (victim >= 0 && !cluster.isRunning(victim)) {
                cluster.restart(victim);
            }
        }
        cluster.awaitInSync(Set.of(topic, topic + ".positions"), Duration.ofSeconds(120));
        phases.mark("node back in sync");
        System.out.printf("kafka cluster, %s %s: node %d back, every replica in sync; %s%n", target, loss, victim,
                phases);
    }

    private static ChildJvm child(String topic, Path journal, Path ackFile, int run) throws java.io.IOException {
        return ChildJvm.start(KafkaCrashChild.class.getName(), List.of("-Xmx256m", "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1", "-Dlockfreelog.printStatus=true"), List.of(cluster.bootstrap(), topic,
                        journal.toString(), ackFile.toString(), Integer.toString(run), "paced:" + PACE, "true"));
    }

    /** What the sink of a killed run reported (its warnings and errors, ms from the run's start), for the report. */
    private static void statuses(String run, ChildJvm child) {
        List<String> lines = child.printed().stream().filter(line -> line.startsWith("STATUS ")).toList();
        System.out.printf("kafka cluster, %s: %d warning(s) and error(s)%s%n", run, lines.size(),
                lines.stream().map(line -> "\n  " + line.substring(0, Math.min(line.length(), 400)))
                        .collect(java.util.stream.Collectors.joining()));
    }

    /**
     * A {@code read_committed} consumer that follows the topic from its start on a thread of its own, and notes when
     * each poll brought records: the gaps in delivery as a consumer sees them.
     */
    static final class Tail implements AutoCloseable {
        private final Thread thread;
        private final List<long[]> arrivals = new ArrayList<>(); // {nanoTime, records}
        private final List<String> windows = new ArrayList<>();
        private final List<Long> gaps = new ArrayList<>();
        private volatile boolean done;
        private volatile long records;

        Tail(String bootstrap, String topic) {
            thread = new Thread(() -> {
                TopicPartition partition = new TopicPartition(topic, 0);
                try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(CommittedReader.config(bootstrap,
                        "read_committed"))) {
                    consumer.assign(List.of(partition));
                    consumer.seekToBeginning(List.of(partition));
                    while (!done) {
                        int count = 0;
                        for (ConsumerRecord<byte[], byte[]> ignored : consumer.poll(Duration.ofMillis(100))) {
                            count++;
                        }
                        if (count > 0) {
                            synchronized (arrivals) {
                                arrivals.add(new long[] {System.nanoTime(), count});
                            }
                            records += count;
                        }
                    }
                }
            }, "cluster-tail");
            thread.setDaemon(true);
            thread.start();
        }

        void awaitRecords(long count, Duration within) throws InterruptedException {
            long deadline = System.nanoTime() + within.toNanos();
            while (records < count && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            assertThat(records).as("records delivered before the node was lost").isGreaterThanOrEqualTo(count);
        }

        /**
         * Notes the longest time from {@code from} to {@code to} in which no record arrived, and how many arrived
         * then.
         */
        void window(String name, long from, long to) {
            long longest = 0;
            long previous = from;
            long delivered = 0;
            synchronized (arrivals) {
                for (long[] arrival : arrivals) {
                    if (arrival[0] > from && arrival[0] <= to) {
                        longest = Math.max(longest, arrival[0] - previous);
                        previous = arrival[0];
                        delivered += arrival[1];
                    }
                }
            }
            longest = Math.max(longest, to - previous);
            gaps.add(longest);
            windows.add(name + ": " + delivered + " records in " + TimeUnit.NANOSECONDS.toMillis(to - from)
                    + " ms, longest gap " + TimeUnit.NANOSECONDS.toMillis(longest) + " ms");
        }

        String report() {
            return String.join("; ", windows);
        }

        void assertGapsWithin(Duration bound) {
            for (int i = 0; i < gaps.size(); i++) {
                assertThat(Duration.ofNanos(gaps.get(i))).as("delivery went on: %s", windows.get(i))
                        .isLessThanOrEqualTo(bound);
            }
        }

        @Override
        public void close() {
            done = true;
            try {
                thread.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
