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
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Callers that wait for a clean buffer back off longer the more of them wait (a virtual thread per
 * request may mean tens of thousands), so that their wake-ups leave the drainer the CPU it needs; and
 * every caller that waited is counted out again, whatever ended its wait.
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
     * order, and nobody is counted as waiting any more; a later caller whose wait times out is
     * counted out too.
     */
    @Test
    void everyCallerThatWaitedIsCountedOutAndEveryEventArrivesInOrder() throws Exception {
        GatedSink[] gate = new GatedSink[1];
        JournalEngine engine = JournalEngine.start(twoSmallBuffers("waiting", 60_000), TestStatus.QUIET,
                s -> gate[0] = new GatedSink(s));
        int threads = 8;
        int events = 5_000; // 200 KB a thread, more than both buffers hold: none is done before they are full
        List<Thread> callers = new ArrayList<>();
        try {
            for (int t = 0; t < threads; t++) {
                int id = t;
                Thread caller = new Thread(() -> {
                    for (int n = 0; n < events; n++) {
                        assertThat(engine.append(line(id, n), true)).isTrue();
                    }
                }, "caller-" + t);
                callers.add(caller);
                caller.start();
            }
            await().atMost(Duration.ofSeconds(30)).until(() -> engine.waitingCallers() == threads);
        } finally {
            gate[0].open();
        }
        for (Thread caller : callers) {
            caller.join(TimeUnit.SECONDS.toMillis(60));
            assertThat(caller.isAlive()).isFalse();
        }
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
        JournalEngine engine = JournalEngine.start(twoSmallBuffers("timeout", 50), TestStatus.QUIET,
                s -> gate[0] = new GatedSink(s));
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

    /** Two buffers of 64 KB under {@code BLOCK}, callers waiting at most {@code maxBlockMs}. */
    private EngineConfig twoSmallBuffers(String name, long maxBlockMs) {
        return EngineConfig.builder().name(name).logFile(dir.resolve(name + ".log")).journalFile(dir.resolve(name + ".journal"))
                .buffers(2, 64 * 1024).maxEventSize(16 * 1024).backpressure(Backpressure.BLOCK)
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
