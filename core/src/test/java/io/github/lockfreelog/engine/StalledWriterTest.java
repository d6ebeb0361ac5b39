package io.github.lockfreelog.engine;

import static io.github.lockfreelog.term.JournalDescriptor.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.lockfreelog.term.Journal;
import io.github.lockfreelog.term.TermAppender;
import io.github.lockfreelog.testing.TestStatus;
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

    /** The accounting identity, at rest: everything appended was written or dropped. */
    static final class AppenderStatisticsCheck {
        static void assertBalanced(JournalEngine engine) {
            var stats = engine.statistics();
            assertThat(stats.appended()).isEqualTo(stats.eventsWritten() + stats.dropped());
            assertThat(stats.inFlight()).isZero();
        }
    }

    @TempDir
    Path dir;

    @Test
    void drainerPadsOverAStalledReservationAfterTheUnblockTimeout() throws IOException {
        Path log = dir.resolve("stall.log");
        EngineConfig config = EngineConfig.builder().name("stall").logFile(log).journalFile(dir.resolve("stall.journal"))
                .buffers(3, 64 * 1024).maxEventSize(16 * 1024).backpressure(Backpressure.BLOCK)
                .maxBlock(30, TimeUnit.SECONDS).flushInterval(20, TimeUnit.MILLISECONDS)
                .unblockTimeout(300, TimeUnit.MILLISECONDS).stopTimeout(10, TimeUnit.SECONDS).build();
        JournalEngine engine = JournalEngine.start(config, TestStatus.QUIET, UnaryOperator.identity());
        Journal journal = engine.journal();
        try {
            engine.append("before\n".getBytes(StandardCharsets.US_ASCII), true);
            // play a writer that reserved 64 bytes and stalled before its header
            long reservation = engine.appender().reserve(0, 64);
            int stalledAt = TermAppender.position(reservation);
            long start = System.nanoTime();
            for (int i = 0; i < 40_000; i++) { // 640 KB: every buffer is drained and reused more than once
                engine.append(("after " + i + "\n").getBytes(StandardCharsets.US_ASCII), true);
            }
            long elapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertThat(elapsedMs).as("callers waited for the unblock, not forever").isLessThan(20_000);
            // the stalled writer wakes up long after: its buffer now hosts a later term, and its
            // claim, which names term 0, fails there too, so it would reserve again
            assertThat(engine.statistics().swaps()).isGreaterThan(6);
            assertThat(TermAppender.claim(journal, reservation, 20)).isFalse();
            assertThat(TermAppender.writePadding(journal, stalledAt, 64, TermAppender.termIdOf(reservation))).isFalse();
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
    void aWriterStalledMidCopyHoldsBackOnlyItsBufferAndWritesItsEventWhenItResumes() throws Exception {
        Path log = dir.resolve("midcopy.log");
        EngineConfig config = EngineConfig.builder().name("midcopy").logFile(log).journalFile(dir.resolve("midcopy.journal"))
                .buffers(3, 64 * 1024).maxEventSize(16 * 1024).backpressure(Backpressure.BLOCK)
                .maxBlock(30, TimeUnit.SECONDS).flushInterval(20, TimeUnit.MILLISECONDS)
                .unblockTimeout(300, TimeUnit.MILLISECONDS).stopTimeout(10, TimeUnit.SECONDS).build();
        JournalEngine engine = JournalEngine.start(config, TestStatus.QUIET, UnaryOperator.identity());
        Journal journal = engine.journal();
        byte[] stalledEvent = "the stalled writer's event\n".getBytes(StandardCharsets.US_ASCII);
        int frameLength = HEADER_LENGTH + stalledEvent.length;
        try {
            engine.append("before\n".getBytes(StandardCharsets.US_ASCII), true);
            // a writer reserves, claims its header, copies half its event, and stalls
            long reservation = engine.appender().reserve(0, align(frameLength));
            int at = TermAppender.position(reservation);
            assertThat(TermAppender.claim(journal, reservation, frameLength)).isTrue();
            journal.putBytes(at + HEADER_LENGTH, stalledEvent, 0, 10);

            // others go on logging: about two buffers' worth reach the log while the writer is stalled
            int others = 7_000; // 7,000 x 24 bytes = 168 KB of 192 KB
            for (int i = 0; i < others; i++) {
                engine.append(("other " + i + "\n").getBytes(StandardCharsets.US_ASCII), true);
            }
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(20))
                    .until(() -> engine.statistics().eventsWritten() == 1 + others);
            assertThat(engine.statistics().skippedFrames()).isEqualTo(1);
            assertThat(headerType(journal.getLongVolatile(at))).isEqualTo(TYPE_ABANDONED);

            // the writer resumes: it finishes its copy, its commit fails, it acknowledges and writes again
            journal.putBytes(at + HEADER_LENGTH + 10, stalledEvent, 10, stalledEvent.length - 10);
            assertThat(TermAppender.commit(journal, at, frameLength, TYPE_DATA, TYPE_DATA)).isFalse();
            assertThat(headerType(journal.getLongVolatile(at))).isEqualTo(TYPE_ACKNOWLEDGED);
            engine.append(stalledEvent, true);

            // buffer 0 is handed back: logging cycles through every buffer again
            for (int i = 0; i < 20_000; i++) {
                engine.append(("after " + i + "\n").getBytes(StandardCharsets.US_ASCII), true);
            }
        } finally {
            engine.stop();
        }
        List<String> lines = Files.readAllLines(log);
        assertThat(lines).hasSize(1 + 7_000 + 1 + 20_000);
        assertThat(lines.get(0)).isEqualTo("before");
        for (int i = 0; i < 7_000; i++) {
            assertThat(lines.get(1 + i)).isEqualTo("other " + i);
        }
        assertThat(lines.get(7_001)).isEqualTo("the stalled writer's event");
        assertThat(lines).filteredOn(l -> l.startsWith("the stalled")).hasSize(1);
        for (int i = 0; i < 20_000; i++) {
            assertThat(lines.get(7_002 + i)).isEqualTo("after " + i);
        }
        AppenderStatisticsCheck.assertBalanced(engine);
        assertThat(engine.statistics().swaps()).isGreaterThan(5);
    }

    @Test
    void aSecondEngineOnTheSameJournalIsRefusedWhileTheFirstRuns() throws IOException {
        EngineConfig config = EngineConfig.builder().name("first").logFile(dir.resolve("one.log")).journalFile(dir.resolve("same.journal"))
                .buffers(3, 64 * 1024).maxEventSize(16 * 1024).backpressure(Backpressure.BLOCK)
                .maxBlock(1, TimeUnit.SECONDS).flushInterval(20, TimeUnit.MILLISECONDS)
                .unblockTimeout(10, TimeUnit.SECONDS).stopTimeout(10, TimeUnit.SECONDS).build();
        JournalEngine first = JournalEngine.start(config, TestStatus.QUIET, UnaryOperator.identity());
        try {
            first.append("kept\n".getBytes(StandardCharsets.US_ASCII), true);
            EngineConfig other = EngineConfig.builder().name("second").logFile(dir.resolve("two.log")).journalFile(dir.resolve("same.journal"))
                .buffers(3, 64 * 1024).maxEventSize(16 * 1024).backpressure(Backpressure.BLOCK)
                .maxBlock(1, TimeUnit.SECONDS).flushInterval(20, TimeUnit.MILLISECONDS)
                .unblockTimeout(10, TimeUnit.SECONDS).stopTimeout(10, TimeUnit.SECONDS).build();
            org.assertj.core.api.Assertions.assertThatIOException()
                    .isThrownBy(() -> JournalEngine.start(other, TestStatus.QUIET, UnaryOperator.identity()))
                    .withMessageContaining("is in use by another appender or process");
        } finally {
            first.stop();
        }
        assertThat(Files.readAllLines(dir.resolve("one.log"))).containsExactly("kept");
        assertThat(Files.exists(dir.resolve("two.log"))).isFalse();
        // once the first has stopped, the journal may be used again
        EngineConfig again = EngineConfig.builder().name("again").logFile(dir.resolve("one.log")).journalFile(dir.resolve("same.journal"))
                .buffers(3, 64 * 1024).maxEventSize(16 * 1024).backpressure(Backpressure.BLOCK)
                .maxBlock(1, TimeUnit.SECONDS).flushInterval(20, TimeUnit.MILLISECONDS)
                .unblockTimeout(10, TimeUnit.SECONDS).stopTimeout(10, TimeUnit.SECONDS).build();
        JournalEngine.start(again, TestStatus.QUIET, UnaryOperator.identity()).stop();
    }
}
