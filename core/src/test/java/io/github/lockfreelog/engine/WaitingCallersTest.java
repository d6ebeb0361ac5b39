package io.github.lockfreelog.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.lockfreelog.testing.GatedSink;
import io.github.lockfreelog.testing.TestStatus;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Callers that wait for a clean buffer back off longer the more of them wait (a virtual thread per
 * request may mean tens of thousands), so that their wake-ups leave the drainer the CPU it needs; and
 * every caller that waited is counted out again, whether its wait ends with space, a time-out or a
 * stop, and a drop that never waited (the {@code DROP} policy) is never counted out.
 */
class WaitingCallersTest {

    @TempDir
    Path dir;

    @Test
    void theLongestParkIsAMillisecondForAFewWaitersAndAMicrosecondAWaiterForMany() {
        assertThat(BackOff.parkNanos(0, 1)).as("the first park").isEqualTo(10_000);
        assertThat(BackOff.parkNanos(3, 1)).as("doubled three times").isEqualTo(80_000);
        assertThat(BackOff.parkNanos(40, 1)).as("a lone waiter, however long it waits").isEqualTo(1_000_000);
        assertThat(BackOff.parkNanos(40, 1_000)).as("a thousand waiters: still a millisecond").isEqualTo(1_000_000);
        assertThat(BackOff.parkNanos(40, 50_000)).as("fifty thousand waiters").isEqualTo(50_000_000);
        assertThat(BackOff.parkNanos(3, 50_000)).as("many waiters, early: the doubling still rules").isEqualTo(80_000);
        assertThat(BackOff.parkNanos(40, 10_000_000)).as("at most the first park doubled 14 times")
                .isEqualTo(10_000L << 14);
    }

    /**
     * Eight threads fill both buffers while the drainer's write is held, and wait: all eight are
     * counted as waiting. Once the write goes on, every event of every thread arrives once, in
     * order, and nobody is counted as waiting any more.
     */
    @Test
    void everyCallerThatWaitedIsCountedOutAndEveryEventArrivesInOrder() throws Exception {
        GatedSink[] gate = new GatedSink[1];
        JournalEngine engine = startGated(twoSmallBuffers("waiting", 60_000), gate);
        int threads = 8;
        int events = 5_000; // 200 KB a thread, more than both buffers hold: none is done before they are full
        Queue<String> refused = new ConcurrentLinkedQueue<>();
        List<Thread> callers;
        try {
            callers = startCallers(engine, threads, events, refused);
            await().atMost(Duration.ofSeconds(30)).until(() -> engine.waitingCallers() == threads);
        } finally {
            gate[0].open();
        }
        joinAll(callers);
        assertThat(refused).as("events the engine did not take").isEmpty();
        assertThat(engine.waitingCallers()).as("after the waits ended").isZero();
        engine.stop();

        List<String> lines = Files.readAllLines(dir.resolve("waiting.log"), StandardCharsets.US_ASCII);
        assertThat(lines).hasSize(threads * events);
        int[] next = new int[threads];
        for (String line : lines) {
            String[] parts = line.split(" ");
            int id = Integer.parseInt(parts[0].substring(1));
            assertThat(line).as("thread %d's next line", id).isEqualTo(text(id, next[id]));
            next[id]++;
        }
        for (int t = 0; t < threads; t++) {
            assertThat(next[t]).as("thread %d", t).isEqualTo(events);
        }
    }

    @Test
    void aCallerWhoseWaitTimesOutIsCountedOut() throws Exception {
        GatedSink[] gate = new GatedSink[1];
        JournalEngine engine = startGated(twoSmallBuffers("timeout", 50), gate);
        int accepted = 0;
        int dropped = 0;
        try {
            for (int n = 0; n < 10_000 && dropped < 3; n++) { // both buffers fill, then each wait times out
                if (engine.append(line(0, n), true)) {
                    accepted++;
                } else {
                    dropped++;
                }
            }
            assertThat(dropped).as("waits that timed out").isEqualTo(3);
            assertThat(engine.waitingCallers()).as("after three waits that timed out").isZero();
        } finally {
            gate[0].open();
        }
        engine.stop();
        assertThat(engine.statistics().dropped()).isEqualTo(3);
        assertThat(Files.readAllLines(dir.resolve("timeout.log"), StandardCharsets.US_ASCII)).hasSize(accepted);
    }

    /**
     * Waiting callers that the engine's stop ends are counted out: each drops its event (reason
     * {@code stopped}) and leaves, and every event is written or counted as dropped.
     */
    @Test
    void callersWhoseWaitTheStopEndsAreCountedOut() throws Exception {
        GatedSink[] gate = new GatedSink[1];
        JournalEngine engine = startGated(twoSmallBuffers("stopped", 60_000), gate);
        Queue<String> refused = new ConcurrentLinkedQueue<>();
        List<Thread> callers;
        Thread stopper = new Thread(engine::stop, "stopper");
        try {
            callers = startCallers(engine, 4, 5_000, refused);
            await().atMost(Duration.ofSeconds(30)).until(() -> engine.waitingCallers() == 4);
            stopper.start();
            joinAll(callers); // the stop ends their waits while the drainer's write is still held
            assertThat(engine.waitingCallers()).as("after the stop ended the waits").isZero();
        } finally {
            gate[0].open();
        }
        stopper.join(TimeUnit.SECONDS.toMillis(30));
        assertThat(stopper.isAlive()).isFalse();
        var stats = engine.statistics();
        assertThat(refused).as("events dropped at the stop").isNotEmpty();
        assertThat(stats.dropped()).isEqualTo(refused.size());
        assertThat(stats.appended()).isEqualTo(4 * 5_000);
        assertThat(stats.eventsWritten() + stats.dropped()).isEqualTo(stats.appended());
    }

    /** Under {@code DROP} a full buffer drops at once: nobody waits, and the count of waiters stays 0. */
    @Test
    void dropsThatNeverWaitedAreNotCountedOut() throws Exception {
        GatedSink[] gate = new GatedSink[1];
        JournalEngine engine = startGated(twoSmallBuffers("drop", 60_000, Backpressure.DROP), gate);
        int dropped = 0;
        try {
            for (int n = 0; n < 10_000; n++) {
                if (!engine.append(line(0, n), true)) {
                    dropped++;
                }
            }
            assertThat(dropped).as("drops of full buffers").isPositive();
            assertThat(engine.waitingCallers()).as("after %d drops", dropped).isZero();
        } finally {
            gate[0].open();
        }
        engine.stop();
        assertThat(engine.statistics().dropped()).isEqualTo(dropped);
    }

    /** Starts an engine on {@code config} whose drainer's writes wait at the gate it puts in {@code gate[0]}. */
    private static JournalEngine startGated(EngineConfig config, GatedSink[] gate) throws java.io.IOException {
        return JournalEngine.start(config, TestStatus.QUIET, s -> gate[0] = new GatedSink(s));
    }

    /** {@code threads} threads each appending {@code events} lines; a line the engine did not take goes to {@code refused}. */
    private static List<Thread> startCallers(JournalEngine engine, int threads, int events, Queue<String> refused) {
        List<Thread> callers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int id = t;
            Thread caller = new Thread(() -> {
                for (int n = 0; n < events; n++) {
                    if (!engine.append(line(id, n), true)) {
                        refused.add(text(id, n));
                    }
                }
            }, "caller-" + t);
            callers.add(caller);
            caller.start();
        }
        return callers;
    }

    private static void joinAll(List<Thread> callers) throws InterruptedException {
        for (Thread caller : callers) {
            caller.join(TimeUnit.SECONDS.toMillis(60));
            assertThat(caller.isAlive()).as("%s has ended", caller.getName()).isFalse();
        }
    }

    /** Two buffers of 64 KB under {@code BLOCK}, callers waiting at most {@code maxBlockMs}. */
    private EngineConfig twoSmallBuffers(String name, long maxBlockMs) {
        return twoSmallBuffers(name, maxBlockMs, Backpressure.BLOCK);
    }

    private EngineConfig twoSmallBuffers(String name, long maxBlockMs, Backpressure backpressure) {
        return EngineConfig.builder().name(name).logFile(dir.resolve(name + ".log")).journalFile(dir.resolve(name + ".journal"))
                .buffers(2, 64 * 1024).maxEventSize(16 * 1024).backpressure(backpressure)
                .maxBlock(maxBlockMs, TimeUnit.MILLISECONDS).flushInterval(20, TimeUnit.MILLISECONDS)
                .unblockTimeout(500, TimeUnit.MILLISECONDS).stopTimeout(10, TimeUnit.SECONDS).build();
    }

    private static String text(int thread, int n) {
        return "T" + thread + " " + n + " " + ".".repeat(20);
    }

    private static byte[] line(int thread, int n) {
        return (text(thread, n) + "\n").getBytes(StandardCharsets.US_ASCII);
    }
}
