package io.github.lockfreelog.benchmarks.kafka;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.apache.kafka.common.utils.AppInfoParser;

/**
 * The kafka-kill mode: the {@link KillTest} of each Kafka peer. Per peer and round, a fresh topic; a child JVM
 * ({@link KafkaKillChild}) logs until it is killed; the topic is then read ({@code read_committed}) and counted against
 * what the child acknowledged. The broker is a KRaft broker in a JVM of its own ({@link KafkaBrokerChild}).
 */
final class KafkaKillRunner extends KillTest {

    KafkaKillRunner(PrintStream out) {
        super(out, "kafka-kill", KafkaKillChild.PEERS);
    }

    @Override
    protected String environmentTail() {
        return ", kafka-clients " + AppInfoParser.getVersion();
    }

    @Override
    protected Target open(Path work) throws IOException, InterruptedException {
        quietKafkaClients();
        out.println("Starting the broker (a KRaft broker in a child JVM) ...");
        KafkaBrokerChild broker = KafkaBrokerChild.start(work);
        out.println("Broker at " + broker.bootstrap);
        return new Target() {
            @Override
            public Round round(Path folder, String stamp, String peer, int round, int delay)
                    throws IOException, InterruptedException {
                return KafkaKillRunner.round(broker, folder, stamp, peer, round, delay);
            }

            @Override
            public void close() throws InterruptedException {
                broker.close();
            }
        };
    }

    private static Round round(KafkaBrokerChild broker, Path work, String stamp, String peer, int round, int delay)
            throws IOException, InterruptedException {
        String name = peer + "-" + round;
        String topic = "kill-" + stamp + "-" + name;
        broker.createTopic(topic);
        Path ackFile = work.resolve(name + ".ack");
        Path journal = work.resolve(name + ".journal");
        boolean lockfreelog = peer.equals("lockfreelog-kafka");
        List<String> childArgs = List.of(peer, broker.bootstrap, topic, lockfreelog ? journal.toString() : "-",
                ackFile.toString());
        Killed killed = kill(KafkaKillChild.class.getName(), "-Xmx512m", childArgs, ackFile, lockfreelog, work, name, delay);
        if (killed.failure() != null) {
            return new Round(peer, round, delay, null, "-", killed.failure());
        }
        List<String> values = broker.readCommitted(topic).stream()
                .map(value -> value == null ? "" : new String(value, StandardCharsets.UTF_8)).toList();
        KafkaKillTally tally = KafkaKillTally.of(values, killed.acks());
        String note = lockfreelog && tally.markers != 1 ? "restart marker found " + tally.markers + " time(s)" : "";
        return new Round(peer, round, delay, tally, killed.restart(), note);
    }

    /** This JVM's Kafka clients (the admin client, the consumer) log warnings only, not their settings at each start. */
    static void quietKafkaClients() {
        if (org.slf4j.LoggerFactory.getILoggerFactory() instanceof ch.qos.logback.classic.LoggerContext logback) {
            logback.getLogger("org.apache.kafka").setLevel(ch.qos.logback.classic.Level.WARN);
        }
    }
}
