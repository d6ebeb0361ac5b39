package io.github.lockfreelog.logback;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.core.util.Duration;
import io.github.lockfreelog.diagnostics.AppenderStatistics;
import io.github.lockfreelog.term.JournalDescriptor;
import io.github.lockfreelog.testing.TestAppenders;
import io.github.lockfreelog.testsupport.TestLogback;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Many threads through tiny buffers (thousands of swaps): every line must come out exactly once,
 * intact and in order per thread. Each line repeats its sequence number, so a torn or mixed line
 * shows.
 */
class StressTest {

    static final int THREADS = 8;
    static final int EVENTS_PER_THREAD = 250_000;

    @TempDir
    Path dir;

    @Test
    void everyLineOnceIntactAndInOrderPerThread() throws Exception {
        LoggerContext context = TestLogback.newContext();
        Path log = dir.resolve("stress.log");
        LockFreeFileAppender appender = TestAppenders.start(context, log, a -> {
            a.setMaxBlockTime(Duration.valueOf("60 seconds")); // nothing may be dropped here
            a.setFlushInterval(Duration.valueOf("20 milliseconds"));
        });
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            int id = t;
            Thread thread = new Thread(() -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int i = 0; i < EVENTS_PER_THREAD; i++) {
                    appender.doAppend(TestLogback.event(context, Level.INFO, line(id, i)));
                }
            });
            thread.start();
            threads.add(thread);
        }
        go.countDown();
        for (Thread thread : threads) {
            thread.join();
        }
        appender.stop();

        AppenderStatistics stats = appender.getStatistics();
        long total = (long) THREADS * EVENTS_PER_THREAD;
        assertThat(stats.appended()).isEqualTo(total);
        assertThat(stats.dropped()).isZero();
        assertThat(stats.eventsWritten()).isEqualTo(total);
        assertThat(stats.inFlight()).isZero();
        assertThat(stats.appended()).isEqualTo(stats.eventsWritten() + stats.dropped() + stats.inFlight());

        byte[] content = Files.readAllBytes(log);
        for (byte b : content) {
            if (b == 0) {
                throw new AssertionError("NUL byte in the log file");
            }
        }
        int[] next = new int[THREADS];
        long lines = 0;
        long frameBytes = 0;
        int start = 0;
        for (int i = 0; i < content.length; i++) {
            if (content[i] == '\n') {
                String text = new String(content, start, i - start, java.nio.charset.StandardCharsets.US_ASCII);
                int thread = parseAndCheck(text);
                int seq = Integer.parseInt(text.substring(text.indexOf(' ') + 1, text.indexOf(' ', text.indexOf(' ') + 1)));
                assertThat(seq).as("thread %d order", thread).isEqualTo(next[thread]);
                next[thread]++;
                lines++;
                frameBytes += JournalDescriptor.align(JournalDescriptor.HEADER_LENGTH + (i - start + 1));
                start = i + 1;
            }
        }
        assertThat(start).as("file ends with a whole line").isEqualTo(content.length);
        assertThat(lines).isEqualTo(total);
        for (int t = 0; t < THREADS; t++) {
            assertThat(next[t]).isEqualTo(EVENTS_PER_THREAD);
        }
        // Each term holds at most bufferSize bytes of frames and wastes less than one frame at its end.
        int bufferSize = stats.bufferSize();
        int maxFrame = JournalDescriptor.align(JournalDescriptor.HEADER_LENGTH + line(7, EVENTS_PER_THREAD).length() + 1);
        long minSwaps = (frameBytes + bufferSize - 1) / bufferSize - 1;
        long maxSwaps = frameBytes / (bufferSize - maxFrame);
        assertThat(stats.swaps()).isBetween(minSwaps, maxSwaps);
        assertThat(minSwaps).isGreaterThan(1000);
    }

    static String line(int thread, int seq) {
        return "T" + thread + " " + seq + " payload-" + seq + "-" + thread + "-" + seq + " ...............................";
    }

    /** Returns the thread id after checking that the line is exactly what its writer wrote. */
    static int parseAndCheck(String text) {
        int thread = Integer.parseInt(text.substring(1, text.indexOf(' ')));
        int seq = Integer.parseInt(text.substring(text.indexOf(' ') + 1, text.indexOf(' ', text.indexOf(' ') + 1)));
        assertThat(text).isEqualTo(line(thread, seq));
        return thread;
    }
}
