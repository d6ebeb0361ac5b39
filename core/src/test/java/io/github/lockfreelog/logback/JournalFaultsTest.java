package io.github.lockfreelog.logback;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.core.status.Status;
import ch.qos.logback.core.util.Duration;
import io.github.lockfreelog.diagnostics.AppenderStatistics;
import io.github.lockfreelog.testing.TestAppenders;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Journals that are not ours, damaged journals, and log files cut by an outside tool. */
class JournalFaultsTest {

    @TempDir
    Path dir;

    final LoggerContext context = TestAppenders.newContext();

    private Path journalOf(Path log) {
        return log.resolveSibling(".lockfreelog").resolve(log.getFileName() + ".journal");
    }

    private List<Path> asideFiles(Path journal) throws IOException {
        try (Stream<Path> files = Files.list(journal.getParent())) {
            return files.filter(p -> p.getFileName().toString().startsWith(journal.getFileName() + ".bad-")).toList();
        }
    }

    private void assertMovedAsideAndFreshJournalWorks(Path log, byte[] original, String reason) throws IOException {
        Path journal = journalOf(log);
        LockFreeFileAppender appender = TestAppenders.start(context, log, a -> { });
        appender.doAppend(TestAppenders.event(context, Level.INFO, "fresh start"));
        appender.stop();
        assertThat(TestAppenders.lines(log)).containsExactly("fresh start");
        List<Path> aside = asideFiles(journal);
        assertThat(aside).hasSize(1);
        assertThat(Files.readAllBytes(aside.get(0))).as("moved aside, never deleted").isEqualTo(original);
        assertThat(TestAppenders.statusMessages(context, Status.WARN))
                .anyMatch(m -> m.contains(reason) && m.contains("moved it to " + aside.get(0)) && m.contains("\"TEST\""));
    }

    @Test
    void corruptJournalIsMovedAsideAndAFreshOneCreated() throws IOException {
        Path log = dir.resolve("corrupt.log");
        Path journal = journalOf(log);
        Files.createDirectories(journal.getParent());
        byte[] garbage = new byte[10_000];
        new java.util.Random(1).nextBytes(garbage);
        Files.write(journal, garbage);
        assertMovedAsideAndFreshJournalWorks(log, garbage, "not a lockfreelog journal");
    }

    @Test
    void journalOfAnotherVersionIsMovedAside() throws IOException {
        Path log = dir.resolve("version.log");
        Path journal = journalOf(log);
        LockFreeFileAppender first = TestAppenders.start(context, log, a -> a.setStopTimeout(Duration.valueOf("5 seconds")));
        first.stop();
        // a journal as a future version would leave it: same magic, version 99
        byte[] bytes = new byte[4096 + 3 * 64 * 1024];
        ByteBuffer header = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        header.putLong(0, io.github.lockfreelog.term.JournalDescriptor.MAGIC).putInt(8, 99).putInt(12, 3)
                .putInt(16, 64 * 1024);
        Files.write(journal, bytes);
        Files.delete(log);
        assertMovedAsideAndFreshJournalWorks(log, bytes, "version=99");
    }

    @Test
    void journalWhoseDrainRecordsAreBothDamagedIsMovedAside() throws IOException {
        Path log = dir.resolve("record.log");
        Path journal = journalOf(log);
        try (io.github.lockfreelog.term.Journal j = io.github.lockfreelog.term.JournalFiles.create(journal, 3, 64 * 1024)) {
            j.putIntPlain(io.github.lockfreelog.term.JournalDescriptor.DRAIN_RECORD_OFFSET + 8, 12345);
            j.putIntPlain(io.github.lockfreelog.term.JournalDescriptor.DRAIN_RECORD_OFFSET + 64 + 8, 12345);
        }
        byte[] original = Files.readAllBytes(journal);
        assertMovedAsideAndFreshJournalWorks(log, original, "no intact drain record");
    }

    @Test
    void journalWithAnAbsurdFrameLengthIsReadPastNotFatal() throws IOException {
        Path log = dir.resolve("absurd.log");
        Path journal = journalOf(log);
        int base = io.github.lockfreelog.term.JournalDescriptor.METADATA_LENGTH;
        try (io.github.lockfreelog.term.Journal j = io.github.lockfreelog.term.JournalFiles.create(journal, 3, 64 * 1024)) {
            // a frame whose length would overflow when aligned, then a good one
            j.putIntPlain(base, 0x80000001);
            j.putIntPlain(base + 4, io.github.lockfreelog.term.JournalDescriptor.TYPE_DATA);
            byte[] good = "after the damage\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
            j.putBytes(base + 16 + 8, good, 0, good.length);
            j.putIntPlain(base + 16 + 4, io.github.lockfreelog.term.JournalDescriptor.TYPE_DATA);
            j.putIntRelease(base + 16, 8 + good.length);
            j.casRawTail(0, j.rawTailVolatile(0), io.github.lockfreelog.term.JournalDescriptor.packTail(0, 48));
        }
        LockFreeFileAppender appender = TestAppenders.start(context, log, a -> { });
        AppenderStatistics stats = appender.getStatistics();
        appender.stop();
        assertThat(stats.recoveredFrames()).isEqualTo(1);
        assertThat(stats.skippedFrames()).isEqualTo(1);
        List<String> lines = TestAppenders.lines(log);
        assertThat(lines).hasSize(2);
        assertThat(lines.get(0)).isEqualTo("after the damage");
        assertThat(lines.get(1)).startsWith("Recovered 1 event(s)")
                .contains("skipped 1 unfinished event(s) that no caller had finished");
    }

    @Test
    void logTruncatedByAnOutsideToolGoesOnAtTheNewEndWithoutNulBytes() throws Exception {
        Path log = dir.resolve("copytruncate.log");
        LockFreeFileAppender appender = TestAppenders.start(context, log,
                a -> a.setFlushInterval(Duration.valueOf("20 milliseconds")));
        for (int i = 0; i < 100; i++) {
            appender.doAppend(TestAppenders.event(context, Level.INFO, "old " + i));
        }
        Awaitility.await().atMost(java.time.Duration.ofSeconds(10))
                .until(() -> Files.exists(log) && TestAppenders.lines(log).size() == 100);
        try (FileChannel channel = FileChannel.open(log, StandardOpenOption.WRITE)) {
            channel.truncate(0); // what logrotate's copytruncate does after copying
        }
        for (int i = 0; i < 100; i++) {
            appender.doAppend(TestAppenders.event(context, Level.INFO, "new " + i));
        }
        appender.stop();
        byte[] content = Files.readAllBytes(log);
        assertThat(content).doesNotContain((byte) 0);
        List<String> lines = TestAppenders.lines(log);
        assertThat(lines).hasSize(100);
        for (int i = 0; i < 100; i++) {
            assertThat(lines.get(i)).isEqualTo("new " + i);
        }
    }
}
