package io.github.lockfreelog.engine;

import static io.github.lockfreelog.term.JournalDescriptor.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.lockfreelog.diagnostics.AppenderStatistics;
import io.github.lockfreelog.drain.Drainer;
import io.github.lockfreelog.journal.JournalLock;
import io.github.lockfreelog.term.HeapJournal;
import io.github.lockfreelog.term.Journal;
import io.github.lockfreelog.term.TermAppender;
import io.github.lockfreelog.testing.FailingSink;
import io.github.lockfreelog.testing.GatedSink;
import io.github.lockfreelog.testing.RecordingSink;
import io.github.lockfreelog.testing.TestStatus;
import io.github.lockfreelog.testsupport.ChildJvm;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Faults that the engine must ride out without breaking a promise: fault episodes of any length,
 * interrupts, a refused second start, errors between claim and commit, stalled writers in the
 * active term or with two buffers, and an interrupted stop.
 */
class EngineFaultsTest {

    @TempDir
    Path dir;

    private JournalEngine engine;

    @AfterEach
    void stop() {
        if (engine != null) {
            engine.stop();
        }
    }

    private EngineConfig config(String name, int bufferCount, int maxEventSize, Backpressure backpressure,
            long maxBlockMs, long unblockMs) {
        return EngineConfig.builder().name(name).logFile(dir.resolve(name + ".log")).journalFile(dir.resolve(name + ".journal"))
                .buffers(bufferCount, 64 * 1024).maxEventSize(maxEventSize).backpressure(backpressure)
                .maxBlock(maxBlockMs, TimeUnit.MILLISECONDS).flushInterval(20, TimeUnit.MILLISECONDS)
                .unblockTimeout(unblockMs, TimeUnit.MILLISECONDS).stopTimeout(10, TimeUnit.SECONDS).build();
    }

    private static byte[] line(String text) {
        return (text + "\n").getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * 200,000 events of 30 KB dropped while the disk is full used to push the tail offset of the
     * full buffer into its term id (each drop added to it), after which rotation was refused for
     * ever. Now a full buffer is never added to: once the disk frees up, logging resumes.
     */
    @Test
    void aLongFullDiskEpisodeWithDropsDoesNotStopTheLogAfterwards() throws Exception {
        FailingSink[] sink = new FailingSink[1];
        EngineConfig config = config("episode", 2, 32 * 1024, Backpressure.DROP, 5_000, 500);
        engine = JournalEngine.start(config, TestStatus.QUIET, s -> sink[0] = FailingSink.fullDisk(s));
        byte[] big = new byte[30 * 1024];
        Arrays.fill(big, (byte) 'x');
        big[big.length - 1] = '\n';
        for (int i = 0; i < 200_000; i++) {
            engine.append(big, true);
        }
        assertThat(engine.statistics().dropped()).isGreaterThan(199_000);
        // 199,000 drops, and the one caller's add that crossed the end is the only one past it: a caller that
        // finds a tail past the end never adds (an add per drop would have run it into the term id long since)
        for (int i = 0; i < 2; i++) {
            assertThat(tailOffset(engine.journal().rawTailVolatile(i))).as("tail of buffer %d in range", i)
                    .isLessThan(64 * 1024 + align(HEADER_LENGTH + big.length));
        }
        sink[0].stopFailing();
        for (int i = 0; i < 2_000; i++) {
            engine.append(line("after " + i), false); // may not drop: waits up to maxBlockTime
        }
        engine.stop();
        var stats = engine.statistics();
        assertThat(stats.appended()).isEqualTo(stats.eventsWritten() + stats.dropped());
        List<String> after = Files.readAllLines(config.logFile()).stream().filter(l -> l.startsWith("after "))
                .toList();
        assertThat(after).hasSize(2_000);
        for (int i = 0; i < 2_000; i++) {
            assertThat(after.get(i)).isEqualTo("after " + i);
        }
    }

    /**
     * Interrupting the drainer used to close the log's channel for good (every later event ended
     * as an {@code io} drop). Now the interrupt is cleared, the file reopened, and nothing is lost
     * or written twice.
     */
    @Test
    void interruptingTheDrainerCostsNoEvent() throws Exception {
        EngineConfig config = config("interrupt", 3, 16 * 1024, Backpressure.BLOCK, 30_000, 500);
        engine = JournalEngine.start(config, TestStatus.QUIET, UnaryOperator.identity());
        Thread drainer = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals("lockfreelog-drainer-interrupt")).findFirst().orElseThrow();
        AtomicBoolean interrupting = new AtomicBoolean(true);
        Thread interrupter = new Thread(() -> {
            while (interrupting.get()) {
                drainer.interrupt();
                java.util.concurrent.locks.LockSupport.parkNanos(20_000);
            }
        });
        interrupter.start();
        int events = 100_000;
        for (int i = 0; i < events; i++) {
            engine.append(line("event " + i), true);
        }
        interrupting.set(false);
        interrupter.join();
        engine.stop();
        var stats = engine.statistics();
        assertThat(stats.dropped()).isZero();
        List<String> lines = Files.readAllLines(config.logFile());
        assertThat(lines).hasSize(events);
        for (int i = 0; i < events; i++) {
            assertThat(lines.get(i)).isEqualTo("event " + i);
        }
    }

    /** A start on an interrupted thread (recovery and journal creation use channels) succeeds and keeps the interrupt. */
    @Test
    void startOnAnInterruptedThreadSucceedsAndKeepsTheInterrupt() throws Exception {
        EngineConfig config = config("interrupted-start", 3, 16 * 1024, Backpressure.BLOCK, 1_000, 500);
        JournalEngine first = JournalEngine.start(config, TestStatus.QUIET, UnaryOperator.identity());
        first.append(line("before"), true);
        first.stop();
        Thread.currentThread().interrupt();
        try {
            engine = JournalEngine.start(config, TestStatus.QUIET, UnaryOperator.identity());
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
        }
        engine.append(line("after"), true);
        engine.stop();
        assertThat(Files.readAllLines(config.logFile())).containsExactly("before", "after");
    }

    /**
     * A second start on a journal in use used to close its own descriptor of the lock file, which
     * released the running engine's POSIX lock: another process could then take the journal.
     */
    @Test
    void aRefusedSecondStartKeepsTheFirstEnginesLockAgainstOtherProcesses() throws Exception {
        EngineConfig config = config("locked", 3, 16 * 1024, Backpressure.BLOCK, 1_000, 500);
        engine = JournalEngine.start(config, TestStatus.QUIET, UnaryOperator.identity());
        org.assertj.core.api.Assertions.assertThatIOException()
                .isThrownBy(() -> JournalEngine.start(config, TestStatus.QUIET, UnaryOperator.identity()))
                .withMessageContaining("is in use");
        assertThat(LockProbe.run(JournalLock.lockFileOf(config.journalFile()))).isEqualTo("REFUSED");
        engine.stop();
        engine = null;
        assertThat(LockProbe.run(JournalLock.lockFileOf(config.journalFile()))).isEqualTo("LOCKED");
    }

    /**
     * A fault in mapped memory (the device behind the mapping fails) reaches Java as an
     * {@code InternalError}, which the JVM may deliver at any later point of the caller's path, after
     * the access took effect or before. Here a journal raises one at random accesses of callers'
     * threads (one in 1,000), before or after the access, at every step: reservation, claim, copy,
     * commit, padding, rotation and the settling of a frame that failed. No caller ever sees one; each
     * such event is counted as dropped with reason {@code io} (or written, if it was committed); the
     * drainer, fault-free, writes every other event once, whole, in each caller's order, and the
     * counts add up. Before: the error escaped from {@code append} to the application's thread.
     *
     * <p>(Cutting a real mapped journal short from outside would show the same, but the JVM may also
     * crash on it: a fault in the VM's own unguarded compare-and-set is fatal.)
     */
    @Test
    void aFaultInMappedMemoryNeverReachesACaller() throws Exception {
        FaultyJournal journal = HeapJournal.initialised(new FaultyJournal(3, 64 * 1024));
        EngineConfig config = config("fault", 3, 16 * 1024, Backpressure.BLOCK, 2_000, 50);
        RecordingSink sink = new RecordingSink();
        JournalEngine faulty = JournalEngine.withoutDrainerThread(config, journal, sink, TestStatus.QUIET);
        Drainer drainer = faulty.drainer();
        AtomicBoolean callersDone = new AtomicBoolean();
        Thread drainerThread = new Thread(() -> {
            try {
                while (!callersDone.get()) {
                    if (!drainer.drainDirty()) {
                        drainer.drainTerm(false);
                    }
                }
                // a frame whose writer faulted mid-copy is passed over only after unblockTimeout (50 ms):
                // drain on until nothing is in flight, or for 5 s (1000 passes alone may take less than 50 ms)
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
                for (int pass = 0; pass < 1000 || (faulty.statistics().inFlight() > 0 && System.nanoTime() < deadline);
                        pass++) {
                    drainer.drainDirty();
                    drainer.drainTerm(true);
                }
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        drainerThread.start();
        int callers = 4;
        int events = 20_000;
        List<Throwable> escaped = java.util.Collections.synchronizedList(new ArrayList<>());
        boolean[][] accepted = new boolean[callers][events];
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < callers; t++) {
            int id = t;
            Thread thread = new Thread(() -> {
                for (int i = 0; i < events; i++) {
                    try {
                        accepted[id][i] = faulty.append(line("C" + id + " " + i), true);
                    } catch (Throwable e) {
                        escaped.add(e);
                    }
                }
            }, "caller-" + t);
            threads.add(thread);
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        callersDone.set(true);
        drainerThread.join();

        assertThat(escaped).as("errors that reached a caller").isEmpty();
        assertThat(journal.faults.get()).as("faults raised").isGreaterThan(200);
        AppenderStatistics stats = faulty.statistics();
        assertThat(stats.appended()).isEqualTo((long) callers * events);
        // names the counts when it fails: a caller whose own settling failed too leaves a hint that a second such
        // caller 2 KB away can overwrite before the drainer reads it (ActiveJournal.ORPHAN_HINTS): counted nowhere
        assertThat(stats.inFlight()).as("every event written or dropped: %s", stats).isZero();
        assertThat(stats.drops().get("io")).as("events lost to faults, counted").isPositive();
        assertThat(stats.eventsWritten() + stats.dropped()).isEqualTo(stats.appended());
        int[] next = new int[callers];
        long lines = 0;
        for (String text : new String(sink.bytes(), StandardCharsets.US_ASCII).split("\n")) {
            String[] parts = text.split(" ");
            assertThat(parts).as("a whole, intact line: %s", text).hasSize(2);
            int id = Integer.parseInt(parts[0].substring(1));
            int i = Integer.parseInt(parts[1]);
            assertThat(i).as("caller %d in order, once each", id).isGreaterThanOrEqualTo(next[id]);
            for (int skipped = next[id]; skipped < i; skipped++) {
                assertThat(accepted[id][skipped]).as("caller %d event %d, accepted, is in the log", id, skipped).isFalse();
            }
            next[id] = i + 1;
            lines++;
        }
        assertThat(lines).as("lines written").isEqualTo(stats.eventsWritten());
    }

    /**
     * A journal is retired (it was deleted from disk and replaced) while the buffer after the active
     * one still holds a term the drainer has not drained. Sealing must leave that term's tail alone:
     * every accepted event of the three terms is drained, once and in order. Before: the seal
     * overwrote that tail, and the drainer spun on the term for ever (a stop that timed out).
     */
    @Test
    void retiringAJournalLeavesTermsNotDrainedYetToTheDrainer() throws Exception {
        HeapJournal journal = HeapJournal.initialised(new HeapJournal(3, 64 * 1024));
        RecordingSink sink = new RecordingSink();
        JournalEngine undrained = JournalEngine.withoutDrainerThread(
                config("seal", 3, 16 * 1024, Backpressure.DROP, 100, 500), journal, sink, TestStatus.QUIET);
        int accepted = 0;
        while (journal.activeTermCountAcquire() < 2 || tailOffset(journal.rawTailVolatile(2)) < 1024) {
            assertThat(undrained.append(line("event " + accepted), true)).isTrue();
            accepted++;
        }
        undrained.activeJournal().retire(0); // nothing drained yet: terms 0 and 1 dirty, 2 active
        assertThat(undrained.append(line("refused"), true)).as("no buffer is handed out any more").isFalse();
        Drainer drainer = undrained.drainer();
        for (int step = 0; step < 10 && drainer.drainDirty(); step++) {
            // the dirty terms, one a step
        }
        assertThat(drainer.drainDirty()).as("the dirty terms are drained").isFalse();
        drainer.drainTerm(true);
        String[] lines = new String(sink.bytes(), StandardCharsets.US_ASCII).split("\n");
        assertThat(lines).hasSize(accepted);
        for (int i = 0; i < accepted; i++) {
            assertThat(lines[i]).isEqualTo("event " + i);
        }
    }

    /** A heap journal whose accesses from callers' threads ({@code caller-*}) fail now and then, before or after taking effect. */
    static final class FaultyJournal extends HeapJournal {
        final java.util.concurrent.atomic.AtomicLong faults = new java.util.concurrent.atomic.AtomicLong();

        FaultyJournal(int bufferCount, int bufferSize) {
            super(bufferCount, bufferSize);
        }

        /** -1: no fault; 0: fault before the access; 1: fault after it. */
        private int roll() {
            if (!Thread.currentThread().getName().startsWith("caller-")) {
                return -1;
            }
            int r = java.util.concurrent.ThreadLocalRandom.current().nextInt(2_000);
            return r < 2 ? r : -1;
        }

        private InternalError fault() {
            faults.incrementAndGet();
            return new InternalError("a fault occurred in a recent unsafe memory access operation in compiled Java code");
        }

        @Override
        public boolean casLong(int offset, long expected, long value) {
            int when = roll();
            if (when == 0) {
                throw fault();
            }
            boolean done = super.casLong(offset, expected, value);
            if (when == 1) {
                throw fault();
            }
            return done;
        }

        @Override
        public void putBytes(int offset, byte[] src, int srcOffset, int length) {
            int when = roll();
            if (when == 0) {
                throw fault();
            }
            super.putBytes(offset, src, srcOffset, length);
            if (when == 1) {
                throw fault();
            }
        }

        @Override
        public long getLongVolatile(int offset) {
            if (roll() >= 0) {
                throw fault();
            }
            return super.getLongVolatile(offset);
        }

        @Override
        public long getLongAcquire(int offset) {
            if (roll() >= 0) {
                throw fault();
            }
            return super.getLongAcquire(offset);
        }
    }

    /** A child JVM that tries to lock a file and says whether it could. */
    public static final class LockProbe {
        public static void main(String[] args) throws IOException {
            try (var channel = java.nio.channels.FileChannel.open(Path.of(args[0]),
                    java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.WRITE)) {
                System.out.println(channel.tryLock() == null ? "REFUSED" : "LOCKED");
            }
        }

        static String run(Path lockFile) throws Exception {
            try (ChildJvm probe = ChildJvm.start(LockProbe.class.getName(), List.of(), List.of(lockFile.toString()))) {
                String answer = probe.await(""); // its one line
                assertThat(probe.exit(30)).as("the probe's exit status").isZero();
                return answer;
            }
        }
    }

    /**
     * Logging from ever deeper recursion until the stack overflows makes errors arrive anywhere
     * between claim and commit. Every frame must still be settled: nothing stays in flight, the
     * log goes on at once, and every event is counted as written or dropped.
     */
    @Test
    void stackOverflowsBetweenClaimAndCommitLeaveNoFrameClaimed() throws Exception {
        EngineConfig config = config("overflow", 3, 16 * 1024, Backpressure.BLOCK, 5_000, 60_000);
        engine = JournalEngine.start(config, TestStatus.QUIET, UnaryOperator.identity());
        byte[] deep = line("deep");
        Thread thread = new Thread(null, () -> {
            for (int i = 0; i < 200; i++) {
                try {
                    recurse(engine, deep);
                } catch (StackOverflowError expected) {
                    // the next round overflows at another point
                }
            }
        }, "overflow", 256 * 1024);
        thread.start();
        thread.join();
        for (int i = 0; i < 1_000; i++) {
            engine.append(line("after " + i), true);
        }
        // unblockTimeout is a minute: a frame left claimed would hold these lines back that long
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(engine.statistics().inFlight())
                .as("%s", engine.statistics()).isZero());
        var stats = engine.statistics();
        assertThat(stats.appended()).isEqualTo(stats.eventsWritten() + stats.dropped());
        assertThat(stats.skippedFrames()).as("nothing had to be unblocked").isZero();
        engine.stop();
        List<String> lines = Files.readAllLines(config.logFile());
        assertThat(lines).filteredOn(l -> l.startsWith("after ")).hasSize(1_000);
        assertThat(lines).allMatch(l -> l.equals("deep") || l.startsWith("after "));
    }

    private static void recurse(JournalEngine engine, byte[] payload) {
        engine.append(payload, true);
        recurse(engine, payload);
    }

    /**
     * A writer stalled in the active term used to hide every later line until the buffer filled.
     * Now later lines reach the log once the stalled frame is overdue, with the buffer far from full.
     */
    @Test
    void aWriterStalledInTheActiveTermHoldsLaterLinesBackOnlyUntilTheUnblockTimeout() throws Exception {
        EngineConfig config = config("active-stall", 3, 16 * 1024, Backpressure.BLOCK, 1_000, 300);
        engine = JournalEngine.start(config, TestStatus.QUIET, UnaryOperator.identity());
        engine.append(line("before"), true);
        long reservation = engine.appender().reserve(0, 64); // reserved, header never written
        for (int i = 0; i < 10; i++) {
            engine.append(line("after " + i), true);
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> Files.readAllLines(config.logFile()).size() == 11);
        assertThat(engine.statistics().swaps()).as("the buffer never filled").isZero();
        assertThat(TermAppender.claim(engine.journal(), reservation, 20)).as("the stalled writer reserves again")
                .isFalse();
    }

    /**
     * With two buffers, a writer stalled mid-copy in a dirty term used to stop the log (its buffer
     * was held back until the writer resumed, and no other buffer was left). Now later terms of
     * that buffer start after the stalled frame, and the writer's late event is written once.
     */
    @Test
    void withTwoBuffersAWriterStalledMidCopyDoesNotStopTheLog() throws Exception {
        EngineConfig config = config("two", 2, 16 * 1024, Backpressure.BLOCK, 30_000, 300);
        engine = JournalEngine.start(config, TestStatus.QUIET, UnaryOperator.identity());
        Journal journal = engine.journal();
        byte[] stalledEvent = line("the stalled writer's event");
        int frameLength = HEADER_LENGTH + stalledEvent.length;
        long reservation = engine.appender().reserve(0, align(frameLength));
        int at = TermAppender.position(reservation);
        assertThat(TermAppender.claim(journal, reservation, frameLength)).isTrue();
        journal.putBytes(at + HEADER_LENGTH, stalledEvent, 0, 10);
        int others = 20_000; // about 7 buffers' worth: both buffers are reused several times
        for (int i = 0; i < others; i++) {
            engine.append(line("other " + i), true);
        }
        await().atMost(Duration.ofSeconds(20)).until(() -> engine.statistics().eventsWritten() == others);
        assertThat(engine.statistics().swaps()).isGreaterThan(5);
        // the writer resumes: finishes its copy, its commit is refused, it writes its event again
        journal.putBytes(at + HEADER_LENGTH + 10, stalledEvent, 10, stalledEvent.length - 10);
        assertThat(TermAppender.commit(journal, at, frameLength, TYPE_DATA, TYPE_DATA)).isFalse();
        engine.append(stalledEvent, true);
        for (int i = 0; i < 10_000; i++) {
            engine.append(line("after " + i), true);
        }
        engine.stop();
        List<String> lines = Files.readAllLines(config.logFile());
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < others; i++) {
            expected.add("other " + i);
        }
        expected.add("the stalled writer's event");
        for (int i = 0; i < 10_000; i++) {
            expected.add("after " + i);
        }
        assertThat(lines).isEqualTo(expected);
    }

    /**
     * A stop that timed out closed the log while the drainer was held in a write; let go, the
     * drainer reopened the file and wrote on, after {@code stop()} had returned. Now a closed sink
     * refuses every write: the drainer ends, what it held stays in the journal, counted in flight,
     * and the next start recovers it, each line once.
     */
    @Test
    void aDrainerThatOutlivesATimedOutStopWritesNothingAndTheNextStartRecoversItsEventsOnce() throws Exception {
        GatedSink[] gate = new GatedSink[1];
        EngineConfig config = EngineConfig.builder().name("outlived").logFile(dir.resolve("outlived.log"))
                .journalFile(dir.resolve("outlived.journal")).buffers(2, 64 * 1024).flushInterval(20, TimeUnit.MILLISECONDS)
                .unblockTimeout(500, TimeUnit.MILLISECONDS).stopTimeout(300, TimeUnit.MILLISECONDS).build();
        engine = JournalEngine.start(config, TestStatus.QUIET, s -> gate[0] = new GatedSink(s));
        int events = 200;
        for (int i = 0; i < events; i++) {
            assertThat(engine.append(line("held " + i), true)).isTrue();
        }
        assertThat(gate[0].firstWriteArrived.await(10, TimeUnit.SECONDS)).isTrue();
        Thread drainer = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals("lockfreelog-drainer-outlived")).findFirst().orElseThrow();
        engine.stop(); // times out: the drainer is held in its first write
        JournalEngine stopped = engine;
        engine = null;
        assertThat(drainer.isAlive()).as("the drainer outlived the stop").isTrue();
        gate[0].open();
        drainer.join(10_000);
        assertThat(drainer.isAlive()).as("the drainer ended").isFalse();
        assertThat(Files.readString(config.logFile())).as("written after stop() returned").isEmpty();
        assertThat(stopped.statistics().eventsWritten()).isZero();
        assertThat(stopped.statistics().inFlight()).as("left in the journal").isEqualTo(events);

        engine = JournalEngine.start(config, TestStatus.QUIET, UnaryOperator.identity());
        engine.stop();
        assertThat(engine.statistics().recoveredFrames()).isEqualTo(events);
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < events; i++) {
            expected.add("held " + i);
        }
        assertThat(Files.readAllLines(config.logFile())).isEqualTo(expected);
    }

    /** A stop that waits for callers used to swallow the interrupt of the thread that called it. */
    @Test
    void stopKeepsTheInterruptOfTheThreadThatCallsIt() throws Exception {
        GatedSink[] gate = new GatedSink[1];
        EngineConfig config = config("stop-interrupt", 2, 16 * 1024, Backpressure.BLOCK, 2_000, 500);
        engine = JournalEngine.start(config, TestStatus.QUIET, s -> gate[0] = new GatedSink(s));
        CountDownLatch blocked = new CountDownLatch(1);
        Thread caller = new Thread(() -> {
            for (int i = 0; i < 20_000; i++) { // fills both buffers while the drainer's write is held
                if (i == 5_000) {
                    blocked.countDown();
                }
                engine.append(line("event " + i), true);
            }
        });
        caller.start();
        blocked.await();
        Thread.sleep(100); // the caller now waits inside append for a clean buffer
        Thread.currentThread().interrupt();
        try {
            engine.stop();
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
            gate[0].open();
            caller.join();
        }
    }
}
