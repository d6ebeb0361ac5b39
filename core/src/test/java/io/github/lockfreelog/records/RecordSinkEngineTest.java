package io.github.lockfreelog.records;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.lockfreelog.engine.Backpressure;
import io.github.lockfreelog.engine.EngineConfig;
import io.github.lockfreelog.engine.JournalEngine;
import io.github.lockfreelog.journal.JournalLock;
import io.github.lockfreelog.sink.JournalPosition;
import io.github.lockfreelog.sink.LogTarget;
import io.github.lockfreelog.testing.TestStatus;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The engine drained into a record sink: every acknowledged event delivered once, in each thread's order, when
 * deliveries fail before their commit, when their answer is lost after it, and across a restart after a process
 * stopped between a commit and the journal learning of it.
 */
class RecordSinkEngineTest {

    private static final int THREADS = 4;
    private static final int EVENTS = 10_000;

    @TempDir
    Path dir;

    @Test
    void everyEventOnceInEachThreadsOrder() throws Exception {
        MemoryRecordSink sink = new MemoryRecordSink();
        JournalEngine engine = JournalEngine.startRecords(config("plain", 10_000), TestStatus.QUIET, slot -> sink);
        List<String> acknowledged = appendFromThreads(engine, THREADS, EVENTS);
        engine.stop();

        assertExactlyOnceInOrder(sink.events(), acknowledged);
        assertThat(acknowledged).hasSize(THREADS * EVENTS);
        assertThat(engine.statistics().eventsWritten()).isEqualTo(THREADS * EVENTS);
    }

    @Test
    void aFailedDeliveryIsDeliveredAgainAndOneWhoseAnswerWasLostIsNot() throws Exception {
        MemoryRecordSink sink = new MemoryRecordSink();
        sink.failBeforeCommit = n -> n % 5 == 2;
        sink.loseAnswer = n -> n % 5 == 4;
        TestStatus.Recording statuses = TestStatus.recording();
        JournalEngine engine = JournalEngine.startRecords(config("flaky", 10_000), statuses, slot -> sink);
        List<String> acknowledged = appendFromThreads(engine, THREADS, EVENTS / 4);
        engine.stop();

        assertThat(statuses.errors()).as("the report names what failed").isNotEmpty()
                .allMatch(m -> m.startsWith("delivering events to the record sink failed"));

        assertThat(sink.deliveries).isGreaterThanOrEqualTo(5);
        assertThat(sink.asked).isGreaterThan(0);
        assertExactlyOnceInOrder(sink.events(), acknowledged);
    }

    @Test
    void eventsTheSinkRefusesAsTooLargeAreCountedAsDroppedTooLargeNotWritten() throws Exception {
        MemoryRecordSink sink = new MemoryRecordSink();
        String longest = "x".repeat(49);
        sink.tooLarge = event -> event.endsWith(longest); // one event in 50 of each thread
        sink.failBeforeCommit = n -> n % 5 == 2; // delivered again: the events left out counted once
        sink.loseAnswer = n -> n % 5 == 4; // committed all the same: what it left out counted too
        JournalEngine engine = JournalEngine.startRecords(config("too-large", 10_000), TestStatus.QUIET, slot -> sink);
        List<String> acknowledged = appendFromThreads(engine, THREADS, EVENTS / 4);
        engine.stop();

        List<String> kept = acknowledged.stream().filter(event -> !event.endsWith(longest)).toList();
        long refused = acknowledged.size() - kept.size();
        assertThat(refused).isPositive();
        assertThat(sink.deliveries).isGreaterThanOrEqualTo(5);
        assertExactlyOnceInOrder(sink.events(), kept);
        io.github.lockfreelog.diagnostics.AppenderStatistics stats = engine.statistics();
        assertThat(stats.drops()).containsEntry("too-large", refused);
        assertThat(stats.dropped()).isEqualTo(refused);
        assertThat(stats.eventsWritten()).isEqualTo(kept.size());
        assertThat(stats.appended()).isEqualTo(acknowledged.size());
        assertThat(stats.inFlight()).isZero();
    }

    @Test
    void aRestartAfterACommitTheJournalNeverLearntOfDeliversNothingTwice() throws Exception {
        MemoryRecordSink sink = new MemoryRecordSink();
        sink.hangAfterCommit = 3;
        // DROP: callers behind the hung delivery give up at once rather than wait maxBlockTime each
        EngineConfig config = config("crashed", 300, Backpressure.DROP);
        JournalEngine first = JournalEngine.startRecords(config, TestStatus.QUIET, slot -> sink);
        // the callers go on until the drainer hangs inside its third delivery, then append 100 more each: those
        // reach the journal and no delivery of the first engine, however fast the drainer took what came before
        List<String> acknowledged = appendFromThreads(first, THREADS, () -> sink.hanging.getCount() == 0, 100);
        assertThat(sink.hanging.await(10, TimeUnit.SECONDS)).isTrue();
        first.stop(); // times out with the drainer inside the delivery: the journal stays on disk, not emptied
        sink.release.countDown();
        assertThat(sink.events()).isNotEmpty().hasSizeLessThan(acknowledged.size());
        assertThat(Files.size(config.journalFile())).isPositive();

        // the first engine's drainer holds the journal's lock until it has left the released delivery
        JournalEngine second = Awaitility.await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
                .ignoreExceptionsInstanceOf(IOException.class)
                .until(() -> JournalEngine.startRecords(config, TestStatus.QUIET, slot -> sink), Objects::nonNull);
        second.stop(); // the left-over journal goes out first (the drainer's), then the new one's events
        assertThat(second.statistics().recoveredFrames()).isPositive();

        assertExactlyOnceInOrder(sink.events(), acknowledged);
    }

    /**
     * Anyone who may write the sink's position store (a Kafka topic's {@code .positions}) can write a position far
     * ahead of what the journal holds; recovery must not take it, or it skips every event not yet delivered.
     */
    @Test
    void aPositionBeyondWhatTheJournalCanHoldIsNotTakenAndNothingIsSkipped() throws Exception {
        MemoryRecordSink sink = new MemoryRecordSink();
        sink.available = false;
        EngineConfig config = config("forged", 300, Backpressure.DROP);
        JournalEngine first = JournalEngine.startRecords(config, TestStatus.QUIET, slot -> sink);
        List<String> acknowledged = appendFromThreads(first, 0, THREADS, 500);
        first.stop(); // times out: nothing could be delivered, so the journal stays on disk
        sink.forged = journalId -> new JournalPosition(journalId, 1_000_000, 64);
        sink.available = true;
        JournalEngine second = JournalEngine.startRecords(config, TestStatus.QUIET, slot -> sink);
        second.stop();
        assertExactlyOnceInOrder(sink.events(), acknowledged);
    }

    @Test
    void aSinkOutOfReachAtStartHoldsUpNothingAndWhatTheJournalGatheredGoesOutOldestFirstOnce() throws Exception {
        MemoryRecordSink sink = new MemoryRecordSink();
        sink.available = false;
        EngineConfig config = config("outage", 300, Backpressure.DROP);
        JournalEngine first = JournalEngine.startRecords(config, TestStatus.QUIET, slot -> sink);
        List<String> before = appendFromThreads(first, 0, THREADS, 2_000);
        first.stop(); // times out: nothing could be delivered, so the journal stays on disk, as after a kill
        assertThat(Files.size(config.journalFile())).isPositive();

        // the sink is still out of reach: the start neither fails nor waits for it
        TestStatus.Recording statuses = TestStatus.recording();
        JournalEngine second = JournalEngine.startRecords(config, statuses, slot -> sink);
        List<String> during = appendFromThreads(second, THREADS, THREADS, 500);
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> sink.refused() >= 4); // several tries
        assertThat(sink.events()).isEmpty();
        assertThat(pendingIn(dir)).hasSize(1);
        assertThat(second.statistics().failingSinceEpochMillis()).as("failing, as health shows it").isPositive();
        assertThat(second.statistics().lastError()).contains("cannot be reached");

        sink.available = true;
        int expected = before.size() + during.size();
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> sink.events().size() >= expected);
        second.stop();

        List<String> delivered = sink.events();
        assertExactlyOnceInOrder(delivered, concat(before, during));
        assertThat(delivered.subList(0, before.size())).as("the old journal's events first")
                .containsExactlyInAnyOrderElementsOf(before);
        assertThat(second.statistics().recoveredFrames()).isEqualTo(before.size());
        assertThat(pendingIn(dir)).isEmpty();
        assertThat(second.statistics().failingSinceEpochMillis()).as("no longer failing").isZero();
        assertThat(statuses.warnings()).as("one WARN for the whole outage, not one per try").hasSize(1);
        assertThat(statuses.warnings().get(0)).contains("events gather in the journal");
    }

    @Test
    void aCrashWhileTheSetAsideJournalIsDeliveredIsTakenUpByTheNextStartExactlyOnce() throws Exception {
        MemoryRecordSink sink = new MemoryRecordSink();
        sink.available = false;
        EngineConfig config = config("deferred", 300, Backpressure.DROP);
        JournalEngine first = JournalEngine.startRecords(config, TestStatus.QUIET, slot -> sink);
        List<String> before = appendFromThreads(first, 0, THREADS, 2_000); // fills all three terms
        first.stop();

        JournalEngine second = JournalEngine.startRecords(config, TestStatus.QUIET, slot -> sink);
        List<String> during = appendFromThreads(second, THREADS, THREADS, 500);
        // the set-aside journal goes out a term per delivery: the second commits, then its process dies
        sink.hangAfterCommit = 2;
        sink.available = true;
        assertThat(sink.hanging.await(10, TimeUnit.SECONDS)).isTrue();
        second.stop(); // times out with the drainer inside the delivery: both journals stay on disk
        sink.release.countDown();
        assertThat(sink.events()).isNotEmpty().hasSizeLessThan(before.size());
        assertThat(pendingIn(dir)).hasSize(1);

        // the second engine's drainer holds the journal's lock until it has left the released delivery
        JournalEngine third = Awaitility.await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
                .ignoreExceptionsInstanceOf(IOException.class)
                .until(() -> JournalEngine.startRecords(config, TestStatus.QUIET, slot -> sink), Objects::nonNull);
        List<String> after = appendFromThreads(third, 2 * THREADS, THREADS, 500);
        third.stop();

        List<String> delivered = sink.events();
        assertExactlyOnceInOrder(delivered, concat(concat(before, during), after));
        assertThat(delivered.subList(0, before.size())).containsExactlyInAnyOrderElementsOf(before);
        assertThat(delivered.subList(before.size(), before.size() + during.size()))
                .containsExactlyInAnyOrderElementsOf(during);
        assertThat(pendingIn(dir)).isEmpty();
    }

    @Test
    void aFreeSlotAProcessLeftIsDeliveredByTheDrainerIntoItsOwnSlotsSinkOnce() throws Exception {
        Map<Integer, MemoryRecordSink> sinks = Map.of(0, new MemoryRecordSink(), 1, new MemoryRecordSink());
        sinks.values().forEach(sink -> sink.available = false);
        EngineConfig config = EngineConfig.builder().backpressure(Backpressure.DROP).name("slots")
                .logFile(Path.of("records")).journalFile(dir.resolve("slots.journal")).journalSlots(2)
                .buffers(3, 64 * 1024).flushInterval(20, TimeUnit.MILLISECONDS).stopTimeout(300, TimeUnit.MILLISECONDS)
                .target(LogTarget.KAFKA).build();
        JournalEngine inSlot0 = JournalEngine.startRecords(config, TestStatus.QUIET, sinks::get);
        List<String> slot0 = appendFromThreads(inSlot0, 0, THREADS, 500);
        inSlot0.stop(); // the sink out of reach: slot 0's journal stays, as after a kill

        // slot 0 held for a while (as by a running process): the next engines take slot 1
        JournalLock held = JournalLock.tryAcquire(config.journalFile(), TestStatus.QUIET);
        assertThat(held).isNotNull();
        JournalEngine inSlot1 = JournalEngine.startRecords(config, TestStatus.QUIET, sinks::get);
        List<String> slot1 = appendFromThreads(inSlot1, THREADS, THREADS, 500);
        inSlot1.stop();
        JournalEngine again = JournalEngine.startRecords(config, TestStatus.QUIET, sinks::get);
        held.close(); // slot 0 is free now: its journal is left over, for the drainer to find after slot 1's own
        sinks.values().forEach(sink -> sink.available = true);
        List<String> later = appendFromThreads(again, 2 * THREADS, THREADS, 200);
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> sinks.get(0).events().size() >= slot0.size());
        again.stop();

        assertExactlyOnceInOrder(sinks.get(0).events(), slot0);
        assertExactlyOnceInOrder(sinks.get(1).events(), concat(slot1, later));
        assertThat(again.statistics().recoveredFrames()).isEqualTo(slot0.size() + slot1.size());
        assertThat(pendingIn(dir)).isEmpty();
        assertThat(dir.resolve("slots.journal")).doesNotExist(); // recovered, then deleted under its lock
    }

    private static List<String> concat(List<String> first, List<String> second) {
        List<String> all = new ArrayList<>(first);
        all.addAll(second);
        return all;
    }

    /** The pending copies of journals in {@code folder}. */
    private static List<Path> pendingIn(Path folder) throws IOException {
        try (Stream<Path> files = Files.list(folder)) {
            return files.filter(file -> file.getFileName().toString().contains(".pending-")).toList();
        }
    }


    private EngineConfig config(String name, long stopTimeoutMs) {
        return config(name, stopTimeoutMs, Backpressure.BLOCK);
    }

    private EngineConfig config(String name, long stopTimeoutMs, Backpressure backpressure) {
        return EngineConfig.builder().backpressure(backpressure).name(name).logFile(Path.of("records")).journalFile(dir.resolve(name + ".journal"))
                .buffers(3, 64 * 1024).flushInterval(20, TimeUnit.MILLISECONDS)
                .stopTimeout(stopTimeoutMs, TimeUnit.MILLISECONDS).target(LogTarget.KAFKA).build();
    }

    /** {@code threads} threads each appending {@code events} numbered events; returns those the engine took. */
    static List<String> appendFromThreads(JournalEngine engine, int threads, int events) throws InterruptedException {
        return appendFromThreads(engine, threads, () -> true, events);
    }

    /** As {@link #appendFromThreads(JournalEngine, int, int)}, the threads numbered from {@code firstThread}. */
    static List<String> appendFromThreads(JournalEngine engine, int firstThread, int threads, int events)
            throws InterruptedException {
        return appendFromThreads(engine, firstThread, threads, () -> true, events);
    }

    /**
     * {@code threads} threads each appending numbered events until {@code until} holds (pausing now and then so
     * that the drainer makes several deliveries of them), then {@code after} more; returns those the engine took.
     */
    static List<String> appendFromThreads(JournalEngine engine, int threads, BooleanSupplier until, int after)
            throws InterruptedException {
        return appendFromThreads(engine, 0, threads, until, after);
    }

    private static List<String> appendFromThreads(JournalEngine engine, int firstThread, int threads,
            BooleanSupplier until, int after) throws InterruptedException {
        List<List<String>> taken = new ArrayList<>();
        List<Thread> callers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            List<String> mine = new ArrayList<>();
            taken.add(mine);
            final int thread = firstThread + t;
            callers.add(new Thread(() -> {
                int i = 0;
                long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (!until.getAsBoolean() && System.nanoTime() < giveUp) {
                    append(engine, thread, i++, mine);
                    if (i % 100 == 0) {
                        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2));
                    }
                }
                for (int end = i + after; i < end; i++) {
                    append(engine, thread, i, mine);
                }
            }));
        }
        callers.forEach(Thread::start);
        for (Thread caller : callers) {
            caller.join();
        }
        List<String> all = new ArrayList<>();
        taken.forEach(all::addAll);
        return all;
    }

    private static void append(JournalEngine engine, int thread, int i, List<String> taken) {
        String event = "t" + thread + " e" + i + " " + "x".repeat(i % 50);
        if (engine.append(event.getBytes(StandardCharsets.UTF_8), true)) {
            taken.add(event);
        }
    }

    /** Every acknowledged event is delivered exactly once, each thread's in the order it appended them; no other. */
    static void assertExactlyOnceInOrder(List<String> delivered, List<String> acknowledged) {
        Map<String, Integer> seen = new HashMap<>();
        Map<String, Integer> lastOfThread = new HashMap<>();
        for (String event : delivered) {
            assertThat(seen.merge(event, 1, Integer::sum)).as("times delivered: %s", event).isEqualTo(1);
            String thread = event.substring(0, event.indexOf(' '));
            int number = Integer.parseInt(event.substring(event.indexOf(" e") + 2, event.indexOf(' ', event.indexOf(" e") + 1)));
            Integer before = lastOfThread.put(thread, number);
            assertThat(before == null ? -1 : before).as("order of %s", thread).isLessThan(number);
        }
        assertThat(seen.keySet()).containsExactlyInAnyOrderElementsOf(acknowledged);
    }
}
