package io.github.lockfreelog.journal;

import static io.github.lockfreelog.journal.JournalDescriptor.*;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A writer that reserved space and then stalled before writing its header must not stop the log:
 * after the unblock timeout the drainer pads over its reservation, and the stalled writer's own
 * compare-and-set then fails, so it reserves again instead of writing into space already passed.
 */
class StalledWriterTest {

    @TempDir
    Path dir;

    @Test
    void drainerPadsOverAStalledReservationAfterTheUnblockTimeout() throws IOException {
        Path log = dir.resolve("stall.log");
        JournalEngine.Config config = new JournalEngine.Config("stall", log, dir.resolve("stall.journal"), 3,
                64 * 1024, 16 * 1024, Backpressure.BLOCK, TimeUnit.SECONDS.toNanos(30), TimeUnit.MILLISECONDS.toNanos(20),
                TimeUnit.MILLISECONDS.toNanos(300), TimeUnit.SECONDS.toNanos(10));
        JournalEngine engine = JournalEngine.start(config, FrameFormatTest.QUIET, UnaryOperator.identity());
        Journal journal = engine.journal();
        try {
            engine.append("before\n".getBytes(StandardCharsets.US_ASCII), true);
            // play a writer that reserved 64 bytes and stalled before its header
            long rawTail = journal.getAndAddRawTail(0, 64);
            int stalledAt = journal.bufferBase(0) + (int) tailOffset(rawTail);
            long start = System.nanoTime();
            for (int i = 0; i < 40_000; i++) { // 640 KB: every buffer is drained and reused more than once
                engine.append(("after " + i + "\n").getBytes(StandardCharsets.US_ASCII), true);
            }
            long elapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertThat(elapsedMs).as("callers waited for the unblock, not forever").isLessThan(20_000);
            // the stalled writer wakes up long after: its buffer now hosts a later term, and its
            // claim, which names term 0, fails there too, so it would reserve again
            assertThat(engine.statistics().swaps()).isGreaterThan(6);
            assertThat(journal.casLong(stalledAt, emptyHeader(termId(rawTail)), header(-20, TYPE_DATA))).isFalse();
            assertThat(JournalEngine.writePadding(journal, stalledAt, 64, termId(rawTail))).isFalse();
            assertThat(engine.statistics().skippedFrames()).isEqualTo(1);
        } finally {
            engine.stop();
        }
        List<String> lines = Files.readAllLines(log);
        assertThat(lines).hasSize(40_001);
        assertThat(lines.get(0)).isEqualTo("before");
        for (int i = 0; i < 40_000; i++) {
            assertThat(lines.get(i + 1)).isEqualTo("after " + i);
        }
        assertThat(engine.statistics().dropped()).isZero();
    }

    @Test
    void aSecondEngineOnTheSameJournalIsRefusedWhileTheFirstRuns() throws IOException {
        JournalEngine.Config config = new JournalEngine.Config("first", dir.resolve("one.log"), dir.resolve("same.journal"),
                3, 64 * 1024, 16 * 1024, Backpressure.BLOCK, TimeUnit.SECONDS.toNanos(1), TimeUnit.MILLISECONDS.toNanos(20),
                TimeUnit.SECONDS.toNanos(10), TimeUnit.SECONDS.toNanos(10));
        JournalEngine first = JournalEngine.start(config, FrameFormatTest.QUIET, UnaryOperator.identity());
        try {
            first.append("kept\n".getBytes(StandardCharsets.US_ASCII), true);
            JournalEngine.Config other = new JournalEngine.Config("second", dir.resolve("two.log"),
                    dir.resolve("same.journal"), 3, 64 * 1024, 16 * 1024, Backpressure.BLOCK, TimeUnit.SECONDS.toNanos(1),
                    TimeUnit.MILLISECONDS.toNanos(20), TimeUnit.SECONDS.toNanos(10), TimeUnit.SECONDS.toNanos(10));
            org.assertj.core.api.Assertions.assertThatIOException()
                    .isThrownBy(() -> JournalEngine.start(other, FrameFormatTest.QUIET, UnaryOperator.identity()))
                    .withMessageContaining("is in use by another appender or process");
        } finally {
            first.stop();
        }
        assertThat(Files.readAllLines(dir.resolve("one.log"))).containsExactly("kept");
        assertThat(Files.exists(dir.resolve("two.log"))).isFalse();
        // once the first has stopped, the journal may be used again
        JournalEngine.Config again = new JournalEngine.Config("again", dir.resolve("one.log"), dir.resolve("same.journal"),
                3, 64 * 1024, 16 * 1024, Backpressure.BLOCK, TimeUnit.SECONDS.toNanos(1), TimeUnit.MILLISECONDS.toNanos(20),
                TimeUnit.SECONDS.toNanos(10), TimeUnit.SECONDS.toNanos(10));
        JournalEngine.start(again, FrameFormatTest.QUIET, UnaryOperator.identity()).stop();
    }
}
