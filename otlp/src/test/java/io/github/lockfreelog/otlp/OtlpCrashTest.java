package io.github.lockfreelog.otlp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.LoggerContext;
import io.github.lockfreelog.diagnostics.CrashPoint;
import io.github.lockfreelog.records.RecordLog;
import io.github.lockfreelog.testsupport.AckFile;
import io.github.lockfreelog.testsupport.ChildJvm;
import io.github.lockfreelog.testsupport.TestLogback;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The promise under kill -9: a child JVM ({@link OtlpCrashChild}) logs from four threads and is killed at a random
 * moment, or halted at a crash point of the sink's protocol; the next start (this JVM) sends what the journal holds.
 * Then the collector holds every acknowledged event at least once, each thread's events in order on first arrival;
 * every copy of an event carries the same {@code log.record.uid}; and the repeats are only those of the batch in
 * flight at each death: at most one journal buffer's worth of events per death.
 */
class OtlpCrashTest {

    private static final String MARKER = "restart marker";

    @TempDir
    Path dir;

    private final List<ChildJvm> children = new ArrayList<>();
    private TestCollector collector;

    @AfterEach
    void cleanUp() throws InterruptedException {
        children.forEach(ChildJvm::close);
        if (collector != null) {
            collector.close();
        }
    }

    @Test
    void killNineAtRandomMomentsLosesNoAcknowledgedEventAndRepeatsOnlyTheBatchInFlight() throws Exception {
        long seed = Long.getLong("lockfreelog.crashSeed", System.nanoTime());
        Random random = new Random(seed);
        collector = TestCollector.start();
        Path journal = dir.resolve("otlp.journal");
        List<long[]> acks = new ArrayList<>();
        int runs = Integer.getInteger("lockfreelog.otlp.kills", 3); // the sweep: -Dlockfreelog.otlp.kills=20
        for (int run = 0; run < runs; run++) {
            Path ackFile = dir.resolve("ack-" + run);
            Process child = child(journal, ackFile, run, run % 2 == 0 ? "burst" : "steady", null);
            int delay = 300 + random.nextInt(1200);
            Thread.sleep(delay);
            child.destroyForcibly(); // SIGKILL on Linux
            assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(child.exitValue()).as("seed %d: run %d killed", seed, run).isEqualTo(128 + 9);
            acks.add(readAcks(ackFile));
        }
        recoverHere(journal);
        Tally tally = check(acks, runs);
        System.out.printf("otlp kill -9: seed %d: %s%n", seed, tally);
    }

    /**
     * Halted once the collector acknowledged the third batch, before the journal recorded it (and, the other case,
     * before the third request went out): the next start sends that batch again, whole; its repeats carry the uids
     * of the first copies.
     */
    @ParameterizedTest
    @ValueSource(strings = {RecordLog.AFTER_RECORD_COMMIT + ":3", OtlpRecordSink.BEFORE_EXPORT + ":3"})
    void aHaltAtEachCrashPointLosesNoAcknowledgedEventAndRepeatsOnlyTheBatchInFlight(String point) throws Exception {
        collector = TestCollector.start();
        Path journal = dir.resolve("otlp.journal");
        Process child = child(journal, dir.resolve("ack-0"), 0, "burst", point);
        assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(child.exitValue()).as("halted at %s", point).isEqualTo(CrashPoint.HALT_STATUS);
        List<long[]> acks = List.of(readAcks(dir.resolve("ack-0")));
        recoverHere(journal);
        Tally tally = check(acks, 1);
        if (point.startsWith(RecordLog.AFTER_RECORD_COMMIT)) {
            assertThat(tally.repeated).as("the acknowledged batch the journal never recorded comes again: %s", tally)
                    .isPositive();
        } else {
            assertThat(tally.repeated).as("a batch never sent is not a repeat: %s", tally).isZero();
        }
        System.out.printf("otlp halted at %s: %s%n", point, tally);
    }

    /**
     * Halted once the collector acknowledged the third batch, before the journal recorded it; the next start halts in
     * its recovery, after the first batch it sent and recorded; then this JVM recovers the rest. Two deaths: repeats
     * of at most two batches, none lost.
     */
    @Test
    void aHaltInTheRestartsRecoveryLosesNoAcknowledgedEventAndRepeatsOnlyTheBatchesInFlight() throws Exception {
        collector = TestCollector.start();
        Path journal = dir.resolve("otlp.journal");
        Process first = child(journal, dir.resolve("ack-0"), 0, "burst", RecordLog.AFTER_RECORD_COMMIT + ":3");
        assertThat(first.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(first.exitValue()).isEqualTo(CrashPoint.HALT_STATUS);
        Process restart = child(journal, dir.resolve("ack-1"), 1, "recover", CrashPoint.MID_RECOVERY);
        assertThat(restart.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(restart.exitValue()).as("the restart halted in its recovery").isEqualTo(CrashPoint.HALT_STATUS);
        List<long[]> acks = List.of(readAcks(dir.resolve("ack-0")), readAcks(dir.resolve("ack-1")));
        recoverHere(journal);
        Tally tally = check(acks, 2);
        assertThat(tally.acknowledged).as("events were acknowledged before the halt").isPositive();
        System.out.printf("otlp halted at %s, then in the restart's recovery: %s%n", RecordLog.AFTER_RECORD_COMMIT,
                tally);
    }

    /** Starts an {@link OtlpCrashChild}; with a {@code crashPoint} ({@code name:n}) it halts there. */
    private Process child(Path journal, Path ackFile, int run, String mode, String crashPoint) throws Exception {
        ChildJvm child = ChildJvm.start(OtlpCrashChild.class.getName(), List.of("-Xmx256m", "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1", ChildJvm.crashPoint(crashPoint)), List.of(collector.endpoint(),
                        journal.toString(), ackFile.toString(), Integer.toString(run), mode));
        children.add(child);
        if (crashPoint == null) { // one halted at a crash point may halt before it says so
            child.await("READY");
        }
        return child.process;
    }

    /** Starts an appender on the journal in this JVM (it sends what the dead process left), and stops it once sent. */
    private void recoverHere(Path journal) {
        LoggerContext context = TestLogback.newContext();
        LockFreeOtlpAppender appender = LockFreeOtlpAppenderTest.appender(context, collector.endpoint(), journal,
                a -> { });
        appender.start();
        assertThat(appender.isStarted()).as(TestLogback.statuses(context)).isTrue();
        TestLogback.logger(context, "crash", appender).info(MARKER);
        // what the dead process left goes before any new event: once the marker is there, all of it is
        await().atMost(60, TimeUnit.SECONDS).until(() -> collector.bodies().contains(MARKER));
        appender.stop();
    }

    /**
     * The bytes the record took in the journal, as a batch counts them (a frame's payload: the version, the scope's
     * length and name, the record less the uid the drainer added); a batch holds at most a buffer's worth.
     */
    private static long framePayload(TestCollector.Received received) {
        int uid = received.record().getAttributesList().stream()
                .filter(kv -> kv.getKey().equals(ExportRequest.RECORD_UID)).mapToInt(kv -> kv.getSerializedSize() + 2)
                .sum(); // tag and one byte of length: a uid's KeyValue is under 128 bytes
        int scope = received.scope().length();
        return received.record().getSerializedSize() - uid + 1 + (scope < 128 ? 1 : 2) + scope;
    }

    private static long[] readAcks(Path ackFile) throws IOException {
        return AckFile.read(ackFile, OtlpCrashChild.THREADS);
    }

    record Tally(long acknowledged, long received, long repeated, long repeatedBytes) {
    }

    /**
     * Checks the collector's records against the acknowledgements of each run: every acknowledged event there; on
     * first arrival, each thread's events in order from its first, beyond the acknowledged at most the one it was
     * logging; every copy of an event with one uid; repeats of at most {@code deaths} journal buffers.
     */
    private Tally check(List<long[]> acks, int deaths) {
        await().atMost(30, TimeUnit.SECONDS).until(() -> !collector.records.isEmpty());
        Map<String, String> uidOf = new HashMap<>();
        Map<Integer, Integer> next = new HashMap<>();
        long repeated = 0;
        long repeatedBytes = 0;
        for (TestCollector.Received received : collector.records) {
            String body = received.body();
            if (body.equals(MARKER) || body.startsWith("Recovered ")) {
                continue;
            }
            String uid = received.uid();
            assertThat(uid).as("every record has its uid").isNotNull();
            String before = uidOf.putIfAbsent(body, uid);
            if (before != null) {
                assertThat(uid).as("a repeat of %s carries its first copy's uid", body).isEqualTo(before);
                repeated++;
                repeatedBytes += framePayload(received);
                continue;
            }
            int thread = Integer.parseInt(body.substring(1, body.indexOf(' ')));
            int number = Integer.parseInt(body.substring(body.indexOf(" e") + 2, body.indexOf(' ', body.indexOf(" e") + 1)));
            assertThat(body).isEqualTo(OtlpCrashChild.event(thread, number));
            assertThat(number).as("thread %d's next event on first arrival", thread).isEqualTo(
                    next.getOrDefault(thread, 0));
            next.put(thread, number + 1);
        }
        long acknowledged = 0;
        for (int run = 0; run < acks.size(); run++) {
            for (int t = 0; t < OtlpCrashChild.THREADS; t++) {
                int id = run * OtlpCrashChild.THREADS + t;
                long acked = acks.get(run)[t];
                acknowledged += acked + 1;
                int received = next.getOrDefault(id, 0);
                assertThat((long) received).as("thread %d: acknowledged up to %d, received up to %d", id, acked,
                        received - 1).isGreaterThanOrEqualTo(acked + 1).isLessThanOrEqualTo(acked + 2);
            }
        }
        assertThat(next.keySet()).as("events of threads that never logged").allMatch(id -> id < acks.size()
                * OtlpCrashChild.THREADS);
        assertThat(repeatedBytes).as("repeats of at most one batch (a journal buffer) per death")
                .isLessThanOrEqualTo((long) deaths * 64 * 1024);
        return new Tally(acknowledged, collector.records.size(), repeated, repeatedBytes);
    }
}
