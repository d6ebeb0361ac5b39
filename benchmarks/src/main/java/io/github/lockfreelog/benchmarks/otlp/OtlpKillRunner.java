package io.github.lockfreelog.benchmarks.otlp;

import io.github.lockfreelog.benchmarks.kafka.KafkaKillTally;
import io.github.lockfreelog.benchmarks.kafka.KillTest;
import io.github.lockfreelog.benchmarks.peers.Peer;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The otlp-kill mode: the kafka-kill {@link KillTest} for the OTLP peers, against one {@link OtlpReceiver} in this JVM
 * (it keeps each record's body and {@code log.record.uid}). Per peer and round, a path of its own; a child JVM
 * ({@link OtlpKillChild}) logs until it is killed; lockfreelog-otlp is then restarted on the same journal (the
 * OpenTelemetry appender has nothing to recover). Then what the receiver holds is counted against what the child
 * acknowledged ({@link KafkaKillTally}); a repeat whose uid is not its first copy's is counted in the note.
 */
final class OtlpKillRunner extends KillTest {

    /** How long the receiver must stay without a new record before a killed peer's round is counted. */
    private static final long SETTLE_MILLIS = 1_500;

    OtlpKillRunner(PrintStream out) {
        super(out, "otlp-kill", OtlpKillChild.PEERS);
    }

    @Override
    protected Target open(Path work) throws IOException {
        OtlpReceiver receiver = OtlpReceiver.start(true);
        out.println("OTLP receiver at " + receiver.baseUrl());
        return new Target() {
            @Override
            public Round round(Path folder, String stamp, String peer, int round, int delay)
                    throws IOException, InterruptedException {
                return OtlpKillRunner.round(receiver, folder, stamp, peer, round, delay);
            }

            @Override
            public void close() {
                receiver.close();
            }
        };
    }

    private static Round round(OtlpReceiver receiver, Path work, String stamp, String peer, int round, int delay)
            throws IOException, InterruptedException {
        String name = peer + "-" + round;
        String trial = "kill-" + stamp + "-" + name;
        Path ackFile = work.resolve(name + ".ack");
        Path journal = work.resolve(name + ".journal");
        boolean lockfreelog = peer.equals(Peer.LOCKFREELOG_OTLP.id());
        List<String> childArgs = List.of(peer, OtlpReceiver.endpoint(receiver.baseUrl(), trial),
                lockfreelog ? journal.toString() : "-", ackFile.toString());
        Killed killed = kill(OtlpKillChild.class.getName(), "-Xmx1g", childArgs, ackFile, lockfreelog, work, name, delay);
        if (killed.failure() != null) {
            return new Round(peer, round, delay, null, "-", killed.failure());
        }
        List<OtlpReceiver.Received> received = settled(receiver.trial(trial));
        KafkaKillTally tally = KafkaKillTally.of(received.stream().map(r -> r.body() == null ? "" : r.body()).toList(),
                killed.acks());
        List<String> notes = new ArrayList<>();
        if (lockfreelog && tally.markers != 1) {
            notes.add("restart marker found " + tally.markers + " time(s)");
        }
        long otherUid = uidMismatches(received);
        if (otherUid > 0 || (lockfreelog && received.stream().anyMatch(r -> r.uid() == null))) {
            notes.add(otherUid + " repeat(s) with another uid than the first copy's; records without uid "
                    + received.stream().filter(r -> r.uid() == null).count());
        }
        return new Round(peer, round, delay, tally, killed.restart(), String.join("; ", notes));
    }

    /** The trial's records once no new one came for {@value #SETTLE_MILLIS} ms (a killed peer's requests in flight). */
    private static List<OtlpReceiver.Received> settled(OtlpReceiver.Trial trial) throws InterruptedException {
        long seen = -1;
        while (true) {
            long now;
            synchronized (trial) {
                now = trial.records;
            }
            if (now == seen) {
                synchronized (trial) {
                    return List.copyOf(trial.kept);
                }
            }
            seen = now;
            Thread.sleep(SETTLE_MILLIS);
        }
    }

    /** Repeats of a body whose uid is not the first copy's: a repeat must be recognisable as one. */
    static long uidMismatches(List<OtlpReceiver.Received> received) {
        Map<String, String> first = new HashMap<>();
        long mismatches = 0;
        for (OtlpReceiver.Received r : received) {
            String before = first.putIfAbsent(r.body(), String.valueOf(r.uid()));
            if (before != null && !before.equals(String.valueOf(r.uid()))) {
                mismatches++;
            }
        }
        return mismatches;
    }
}
