package io.github.lockfreelog.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.LoggerContext;
import io.github.lockfreelog.diagnostics.CrashPoint;
import io.github.lockfreelog.records.RecordLog;
import io.github.lockfreelog.testsupport.AckFile;
import io.github.lockfreelog.testsupport.ChildJvm;
import io.github.lockfreelog.testsupport.TestLogback;
import io.github.lockfreelog.testsupport.kafka.CommittedReader;
import io.github.lockfreelog.testsupport.kafka.KafkaTestBroker;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The Kafka appender's promise under crashes: after a kill -9 at any moment (while records are being produced,
 * after a commit and before the journal knows it, during recovery itself) every acknowledged event is in the topic
 * exactly once, in each thread's order, as a {@code read_committed} consumer sees it. A child JVM
 * ({@link KafkaCrashChild}) logs from four threads and acknowledges each event in a file that outlives it; it is
 * halted at a crash point or killed with SIGKILL; the next start (a child that halts in the middle of its
 * recovery, then this JVM) recovers, logs a marker and stops; then the topic must hold every acknowledged event
 * once, each thread's events from its first on with no gap, duplicate or reordering, and of the events not
 * acknowledged at most the one each thread was logging when it died.
 *
 * <p>With transactions off the promise is at least once, and the same runs check its bound ({@link Repeats}): the
 * first occurrences are as above, and each death repeats at most the events of the one batch then in flight, sent
 * again from its start by the next delivery.
 */
class KafkaCrashTest {

    /** The record a start that recovered events writes before its own (as the first line of a log file). */
    static final String RECOVERY_REPORT = "Recovered [1-9]\\d* event\\(s\\) from the journal\\(s\\) of an unclean"
            + " stop.*; journal in use: .+";

    @TempDir
    Path dir;

    /** Every child this test started: none outlives it, whatever failed. */
    private final List<ChildJvm> children = new ArrayList<>();

    @AfterEach
    void killChildren() throws InterruptedException {
        for (ChildJvm child : children) {
            child.process.destroyForcibly();
            child.process.waitFor(30, TimeUnit.SECONDS);
        }
    }

    /**
     * The first run halts at the third time it reaches {@code point}; the next start halts in its recovery, at
     * {@code restartPoint} (the first time: in the recovery's first batch; {@code mid-recovery}: after the first batch
     * it delivered and recorded). Then this JVM recovers the rest. Each crash point halts a first run once; the
     * restarts halt at three of them (a halt before the commit is like one mid-send; three cases keep the class
     * short).
     */
    @ParameterizedTest(name = "{0}, then {1} in the restart''s recovery")
    @CsvSource({KafkaRecordSink.MID_RECORD_SEND + ":3, " + CrashPoint.MID_RECOVERY,
            KafkaRecordSink.BEFORE_RECORD_COMMIT + ":3, " + RecordLog.AFTER_RECORD_COMMIT,
            RecordLog.AFTER_RECORD_COMMIT + ":3, " + KafkaRecordSink.MID_RECORD_SEND})
    void aHaltAtEachCrashPointThenInTheRestartsRecoveryLosesAndRepeatsNoAcknowledgedEvent(String point,
            String restartPoint) throws Exception {
        String topic = KafkaTestBroker.newTopic("halt");
        Phases phases = new Phases();
        Path journal = dir.resolve("kafka.journal");
        List<long[]> acks = new ArrayList<>();
        ChildJvm first = child(topic, journal, dir.resolve("ack-0"), 0, "burst", point, true);
        first.await("READY");
        phases.mark("first ready");
        assertThat(first.process.waitFor(60, TimeUnit.SECONDS)).as("halted at %s; printed %s", point, first.printed())
                .isTrue();
        assertThat(first.process.exitValue()).as("halted at %s; printed %s", point, first.printed())
                .isEqualTo(CrashPoint.HALT_STATUS);
        acks.add(readAcks(dir.resolve("ack-0")));
        phases.mark("halted");

        ChildJvm second = child(topic, journal, dir.resolve("ack-1"), 1, "recover", restartPoint, true);
        assertThat(second.process.waitFor(60, TimeUnit.SECONDS)).as("the restart ended; printed %s", second.printed())
                .isTrue();
        // the first run left its journal full (its callers outran the drainer), so the restart had events to recover
        assertThat(second.process.exitValue()).as("the restart halted at %s in its recovery; printed %s", restartPoint,
                second.printed()).isEqualTo(CrashPoint.HALT_STATUS);
        acks.add(null); // the restart logs nothing
        phases.mark("restart ended");

        long recovered = recoverHere(topic, journal, 2, true);
        phases.mark("recovered here");
        Tally tally = check(topic, acks, 1, true, 2);
        phases.mark("checked");
        System.out.printf("kafka crash point %s, then %s in the restart's recovery: %s; the last start recovered %d;"
                + " %s%n", point, restartPoint, tally, recovered, phases);
        assertThat(tally.acknowledged).as("events were acknowledged before the halt").isPositive();
    }

    /**
     * Runs on one journal and topic (three transactional, two with transactions off), each killed with SIGKILL at a
     * random moment while its threads log (the later runs first recover what the run before left); then this JVM
     * recovers the last. The even runs log as fast as the journal takes events (it is full, the drainer's batches
     * follow each other), the odd ones about two events a millisecond per thread (the drainer keeps up, batches are
     * small). Transactional: every acknowledged event exactly once; transactions off: at least once, within the
     * bound {@link Repeats} checks.
     */
    @ParameterizedTest(name = "transactional={0}, {1} runs")
    @CsvSource({"true, 3", "false, 2"})
    void killNineAtRandomMomentsLosesNoAcknowledgedEventAndRepeatsNoneOrOnlyTheBatchInFlight(boolean transactional,
            int runs) throws Exception {
        long seed = Long.getLong("lockfreelog.crashSeed", System.nanoTime());
        Random random = new Random(seed);
        String topic = KafkaTestBroker.newTopic("kill");
        Phases phases = new Phases();
        Path journal = dir.resolve("kafka.journal");
        List<long[]> acks = new ArrayList<>();
        List<Integer> delays = new ArrayList<>();
        List<String> starts = new ArrayList<>();
        for (int run = 0; run < runs; run++) {
            Path ackFile = dir.resolve("ack-" + run);
            String mode = run % 2 == 0 ? "burst" : "steady";
            ChildJvm child = child(topic, journal, ackFile, run, mode, null, transactional);
            starts.add(child.await("RECOVERED"));
            child.await("READY");
            phases.mark("run " + run + " ready");
            int delay = 200 + random.nextInt(1300);
            delays.add(delay);
            Thread.sleep(delay);
            child.process.destroyForcibly(); // SIGKILL on Linux
            assertThat(child.process.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(child.process.exitValue()).as("seed %d: run %d killed; printed %s", seed, run, child.printed())
                    .isEqualTo(128 + 9);
            acks.add(readAcks(ackFile));
            phases.mark("run " + run + " killed");
        }
        long recovered = recoverHere(topic, journal, runs, transactional);
        phases.mark("recovered here");
        Tally tally = check(topic, acks, 1, transactional, runs);
        phases.mark("checked");
        System.out.printf("kafka kill -9, transactional=%s: seed %d, delays %s ms: %s; the last start recovered %d;"
                + " starts %s; %s%n", transactional, seed, delays, tally, recovered, starts, phases);
        assertThat(tally.acknowledged).as("seed %d: events were acknowledged before the kills", seed).isPositive();
    }

    /**
     * Transactions off, the case where a duplicate is certain: the first run halts once its third batch is
     * acknowledged, before the journal records it; this JVM recovers. That batch comes twice, from its first event:
     * exactly one rewind, no deeper than a batch, every acknowledged event there, each thread's events in order on
     * first occurrence.
     */
    @Test
    void transactionsOffAHaltAfterAnAcknowledgedBatchRepeatsThatBatchAlone() throws Exception {
        String topic = KafkaTestBroker.newTopic("halt-off");
        Phases phases = new Phases();
        Path journal = dir.resolve("kafka.journal");
        String point = RecordLog.AFTER_RECORD_COMMIT + ":3";
        List<long[]> acks = new ArrayList<>();
        acks.add(haltedAt(topic, journal, point, false));
        phases.mark("halted");
        long recovered = recoverHere(topic, journal, 1, false);
        phases.mark("recovered here");
        Tally tally = check(topic, acks, 1, false, 1);
        System.out.printf("kafka transactions off, halted at %s: %s; the last start recovered %d; %s%n", point, tally,
                recovered, phases);
        assertThat(tally.rewinds).as("the acknowledged batch the journal never recorded came again: %s", tally)
                .isEqualTo(1);
        assertThat(tally.duplicates).as("%s", tally).isPositive();
    }

    /**
     * A restart under another transactional id, as a container restarted on the journal's volume gets from the
     * default id (it holds the host name): the first run halts once its third transaction is committed, before the
     * journal records it; this JVM recovers under another prefix. It finds the journal's position under the first
     * id's key, so that transaction's events are not sent again: every acknowledged event once, in order.
     */
    @Test
    void aRestartUnderAnotherTransactionalIdFindsTheJournalsPositionAndRepeatsNothing() throws Exception {
        String topic = KafkaTestBroker.newTopic("moved");
        Phases phases = new Phases();
        Path journal = dir.resolve("kafka.journal");
        String point = RecordLog.AFTER_RECORD_COMMIT + ":3";
        List<long[]> acks = new ArrayList<>();
        acks.add(haltedAt(topic, journal, point, true));
        phases.mark("halted");
        long recovered = recoverHere(topic, journal, 1, true, "moved-" + topic);
        phases.mark("recovered here under another id");
        Tally tally = check(topic, acks, 1, true, 1);
        System.out.printf("kafka halted at %s, restarted under another transactional id: %s; the last start"
                + " recovered %d; %s%n", point, tally, recovered, phases);
        assertThat(tally.acknowledged).as("events were acknowledged before the halt").isPositive();
    }

    /** Runs a child that logs until it halts at {@code point}, and returns its acknowledgements. */
    private long[] haltedAt(String topic, Path journal, String point, boolean transactional)
            throws Exception {
        ChildJvm first = child(topic, journal, dir.resolve("ack-0"), 0, "burst", point, transactional);
        first.await("READY");
        assertThat(first.process.waitFor(60, TimeUnit.SECONDS)).as("halted at %s; printed %s", point, first.printed())
                .isTrue();
        assertThat(first.process.exitValue()).as("halted at %s; printed %s", point, first.printed())
                .isEqualTo(CrashPoint.HALT_STATUS);
        return readAcks(dir.resolve("ack-0"));
    }

    /** A child on the shared broker, which this test kills at its end if it still runs. */
    private ChildJvm child(String topic, Path journal, Path ackFile, int run, String mode, String crashPoint,
            boolean transactional) throws IOException {
        return started(startChild(KafkaTestBroker.bootstrap(), topic, journal, ackFile, run, mode, crashPoint,
                transactional));
    }

    private ChildJvm started(ChildJvm child) {
        children.add(child);
        return child;
    }

    /** Starts an appender on the journal in this JVM (recovering it), logs the run's marker and stops. */
    private static long recoverHere(String topic, Path journal, int run, boolean transactional) {
        return recoverHere(KafkaTestBroker.bootstrap(), topic, journal, run, transactional, null);
    }

    private static long recoverHere(String topic, Path journal, int run, boolean transactional, String prefix) {
        return recoverHere(KafkaTestBroker.bootstrap(), topic, journal, run, transactional, prefix);
    }

    /** The same, at the broker {@code bootstrap}, under transactional id prefix {@code prefix} where it is not {@code null}. */
    static long recoverHere(String bootstrap, String topic, Path journal, int run, boolean transactional,
            String prefix) {
        LoggerContext context = TestLogback.newContext();
        LockFreeKafkaAppender appender = KafkaCrashChild.appender(context, bootstrap, topic, journal,
                transactional);
        if (prefix != null) {
            appender.setTransactionalIdPrefix(prefix);
        }
        appender.start();
        assertThat(appender.isStarted()).as(TestLogback.statuses(context)).isTrue();
        long recovered = appender.getStatistics().recoveredFrames();
        LockFreeKafkaAppenderTest.logger(context, appender).info(KafkaCrashChild.marker(run));
        appender.stop();
        assertThat(appender.getStatistics().dropped()).as(TestLogback.statuses(context)).isZero();
        return recovered;
    }

    /**
     * Reads the topic ({@code read_committed}) and checks it against the acknowledgements of each run ({@code null}
     * for a run that logged nothing): every acknowledged event once, each thread's events in order from its first
     * with no gap, beyond the acknowledged ones at most the one the thread was logging, {@code markers} markers.
     * With transactions off, that holds of the first occurrences, and the repeats are within the bound of
     * {@code deaths} processes that died ({@link Repeats}).
     */
    private static Tally check(String topic, List<long[]> acks, int markers, boolean transactional, int deaths) {
        return check(CommittedReader.values(KafkaTestBroker.bootstrap(), topic), acks, markers, transactional, deaths);
    }

    /** The same, of the values {@code values} read from the topic. */
    static Tally check(List<String> values, List<long[]> acks, int markers, boolean transactional, int deaths) {
        List<String> events = new ArrayList<>();
        int markersSeen = 0;
        int reports = 0;
        for (String value : values) {
            if (value.startsWith(KafkaCrashChild.MARKER_PREFIX)) {
                markersSeen++;
            } else if (value.startsWith("Recovered ")) {
                assertThat(value).as("a recovery report").matches(RECOVERY_REPORT);
                reports++;
            } else {
                events.add(value);
            }
        }
        Repeats repeats = new Repeats(events);
        Tally tally = new Tally(repeats.firstOccurrences, acks, reports, repeats);
        assertThat(tally.unknown).as("events of no thread that logged: %s", tally).isEmpty();
        if (transactional) {
            assertThat(tally.duplicates).as("duplicates: %s", tally).isZero();
        } else {
            assertThat(repeats.skips).as("a delivery that left out events it had sent before: %s", tally).isZero();
            assertThat(repeats.rewinds).as("at most one rewind a death (%d): %s", deaths, tally).isLessThanOrEqualTo(
                    deaths);
            assertThat(repeats.deepestBytes).as("no rewind deeper than a batch (one journal buffer, %d bytes): %s",
                    KafkaCrashChild.BUFFER_SIZE, tally).isLessThanOrEqualTo(KafkaCrashChild.BUFFER_SIZE);
        }
        assertThat(tally.missing).as("acknowledged events missing: %s", tally).isZero();
        assertThat(tally.reordered).as("events out of their thread's order: %s", tally).isZero();
        assertThat(tally.neverAttempted).as("events never logged: %s", tally).isZero();
        Events.assertExactlyOnceInOrder(repeats.firstOccurrences, tally.acknowledgedEvents);
        assertThat(markersSeen).as("the restart's marker once").isEqualTo(markers);
        return tally;
    }

    /**
     * How the events of a topic repeat, read against their first occurrences (which, for one journal, are in the
     * journal's order). A delivery sends the journal's events in order, so each record is the one after the record
     * before it in that order, except where a delivery starts again from an event sent before (a rewind: after a
     * death, the next start resends the batch the journal had not recorded, from its start). Counted: rewinds, the
     * deepest one (the events from where it starts to the furthest event sent before it, and their bytes), and skips
     * (a record further on than the next: a delivery that left out events; never, in any mode).
     */
    static final class Repeats {
        final List<String> firstOccurrences = new ArrayList<>();
        final int duplicates;
        int rewinds;
        int deepestEvents;
        long deepestBytes;
        int skips;

        Repeats(List<String> events) {
            Map<String, Integer> index = new HashMap<>();
            List<Long> bytesBefore = new ArrayList<>(); // of the first occurrences before each one
            long total = 0;
            int previous = -1;
            for (String event : events) {
                Integer at = index.get(event);
                if (at == null) {
                    at = firstOccurrences.size();
                    index.put(event, at);
                    firstOccurrences.add(event);
                    bytesBefore.add(total);
                    total += event.getBytes(StandardCharsets.UTF_8).length;
                }
                if (at <= previous) {
                    rewinds++;
                    int furthest = firstOccurrences.size() - 1;
                    long bytes = total - bytesBefore.get(at);
                    deepestEvents = Math.max(deepestEvents, furthest - at + 1);
                    deepestBytes = Math.max(deepestBytes, bytes);
                } else if (at > previous + 1) {
                    skips++;
                }
                previous = at;
            }
            duplicates = events.size() - firstOccurrences.size();
        }
    }

    /** What the topic holds against what was acknowledged, counted before any assertion, to be reported. */
    static final class Tally {
        final long acknowledged;
        final long found;
        final long beyondAcknowledged;
        final long duplicates;
        final long missing;
        final long reordered;
        final long neverAttempted;
        final int reports;
        final int rewinds;
        final int deepestEvents;
        final long deepestBytes;
        final List<String> unknown = new ArrayList<>();
        final List<String> acknowledgedEvents = new ArrayList<>();

        /** Of {@code events}, the topic's first occurrences; its repeats counted in {@code repeats}. */
        Tally(List<String> events, List<long[]> acks, int reports, Repeats repeats) {
            this.reports = reports;
            this.rewinds = repeats.rewinds;
            this.deepestEvents = repeats.deepestEvents;
            this.deepestBytes = repeats.deepestBytes;
            Map<Integer, Long> last = new HashMap<>(); // the last acknowledged number of each thread that logged
            for (int run = 0; run < acks.size(); run++) {
                long[] runAcks = acks.get(run);
                for (int t = 0; runAcks != null && t < KafkaCrashChild.THREADS; t++) {
                    int id = run * KafkaCrashChild.THREADS + t;
                    last.put(id, runAcks[t]);
                    for (int n = 0; n <= runAcks[t]; n++) {
                        acknowledgedEvents.add(Events.event(id, n));
                    }
                }
            }
            Map<Integer, List<Integer>> numbers = new LinkedHashMap<>();
            for (String event : events) {
                int id = Events.thread(event);
                if (!last.containsKey(id)) {
                    unknown.add(event);
                    continue;
                }
                numbers.computeIfAbsent(id, k -> new ArrayList<>()).add(Events.number(event));
            }
            long duplicateCount = 0;
            long reorderedCount = 0;
            long missingCount = 0;
            long beyond = 0;
            long never = 0;
            for (Map.Entry<Integer, Long> thread : last.entrySet()) {
                List<Integer> seen = numbers.getOrDefault(thread.getKey(), List.of());
                long acked = thread.getValue();
                Map<Integer, Integer> times = new HashMap<>();
                for (int i = 0; i < seen.size(); i++) {
                    int n = seen.get(i);
                    times.merge(n, 1, Integer::sum);
                    if (i > 0 && n < seen.get(i - 1)) {
                        reorderedCount++;
                    }
                }
                for (Map.Entry<Integer, Integer> number : times.entrySet()) {
                    duplicateCount += number.getValue() - 1;
                    beyond += number.getKey() > acked ? 1 : 0;
                    never += number.getKey() > acked + 1 ? 1 : 0;
                }
                for (int n = 0; n <= acked; n++) {
                    missingCount += times.containsKey(n) ? 0 : 1;
                }
            }
            this.acknowledged = acknowledgedEvents.size();
            this.found = events.size() + repeats.duplicates;
            this.beyondAcknowledged = beyond;
            this.duplicates = duplicateCount + repeats.duplicates;
            this.missing = missingCount;
            this.reordered = reorderedCount;
            this.neverAttempted = never;
        }

        @Override
        public String toString() {
            return "acknowledged " + acknowledged + ", found " + found + " (beyond the acknowledged "
                    + beyondAcknowledged + "), duplicates " + duplicates + ", missing " + missing + ", reordered "
                    + reordered + ", never logged " + neverAttempted + ", of no thread " + unknown.size()
                    + ", recovery reports " + reports + ", rewinds " + rewinds + " (deepest " + deepestEvents
                    + " events, " + deepestBytes + " bytes)";
        }
    }

    static long[] readAcks(Path ackFile) throws IOException {
        return AckFile.read(ackFile, KafkaCrashChild.THREADS);
    }

    /** Milliseconds from a case's start to each of its steps, for the report line. */
    static final class Phases {
        private final long start = System.nanoTime();
        private final StringBuilder marks = new StringBuilder("ms:");

        void mark(String step) {
            marks.append(' ').append(step).append(' ').append(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
        }

        @Override
        public String toString() {
            return marks.toString();
        }
    }

    /**
     * Starts a {@link KafkaCrashChild} against the broker at {@code bootstrap}; with a {@code crashPoint} ({@code name}
     * or {@code name:n}) it halts there.
     */
    static ChildJvm startChild(String bootstrap, String topic, Path journal, Path ackFile, int run, String mode,
            String crashPoint, boolean transactional) throws IOException {
        return ChildJvm.start(KafkaCrashChild.class.getName(), List.of("-Xmx256m", "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1", "-Xshare:auto", ChildJvm.crashPoint(crashPoint)), List.of(bootstrap, topic, journal.toString(), ackFile.toString(),
                                Integer.toString(run), mode, Boolean.toString(transactional)));
    }
}
