package io.github.lockfreelog.logback;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.core.status.Status;
import ch.qos.logback.core.util.Duration;
import io.github.lockfreelog.diagnostics.AppenderStatistics;
import io.github.lockfreelog.testing.TestAppenders;
import io.github.lockfreelog.testsupport.TestLogback;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Journals that are not ours, damaged journals, and log files cut by an outside tool. */
class JournalFaultsTest {

    @TempDir
    Path dir;

    final LoggerContext context = TestLogback.newContext();

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
        appender.doAppend(TestLogback.event(context, Level.INFO, "fresh start"));
        appender.stop();
        assertThat(TestLogback.lines(log)).containsExactly("fresh start");
        List<Path> aside = asideFiles(journal);
        assertThat(aside).hasSize(1);
        assertThat(Files.readAllBytes(aside.get(0))).as("moved aside, never deleted").isEqualTo(original);
        assertThat(TestLogback.statusMessages(context, Status.WARN))
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

    /** What a start that was cut while it created its journal leaves, at each step of the creation. */
    enum HalfMade {
        /** Killed, or the disk full, while the file was being filled with zeros: short, all zeros. */
        CUT_WHILE_FILLED,
        /** Killed after the zeros were written, before anything else: its full length, all zeros. */
        FILLED_NOT_INITIALISED,
        /** Killed while the header, tails and buffers were written: everything but the magic, which comes last. */
        INITIALISED_BUT_FOR_THE_MAGIC;

        byte[] bytes(Path scratch) throws IOException {
            int length = 4096 + 3 * 64 * 1024;
            switch (this) {
                case CUT_WHILE_FILLED:
                    return new byte[length / 3 + 123];
                case FILLED_NOT_INITIALISED:
                    return new byte[length];
                default:
                    io.github.lockfreelog.term.JournalFiles.create(scratch, 3, 64 * 1024).close();
                    byte[] bytes = Files.readAllBytes(scratch);
                    java.util.Arrays.fill(bytes, 0, Long.BYTES, (byte) 0);
                    return bytes;
            }
        }
    }

    /**
     * A journal that a start left half-made (killed, or out of disk, while it created it) held
     * nothing anyone acknowledged: the next start removes it with an INFO that says so, in its own
     * slot and in another one, and keeps nothing aside. Before: "not a lockfreelog journal, or
     * corrupt", a WARN, and the file kept as {@code .bad-*} for ever.
     */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.EnumSource(HalfMade.class)
    void aJournalLeftHalfMadeIsRemovedQuietlyByTheNextStart(HalfMade cut) throws Exception {
        Path log = dir.resolve("half.log");
        Path journal = journalOf(log);
        Path otherSlot = journal.resolveSibling("half.log.3.journal");
        Files.createDirectories(journal.getParent());
        byte[] left = cut.bytes(dir.resolve("scratch.journal"));
        Files.write(journal, left);
        Files.write(otherSlot, left);

        LockFreeFileAppender appender = TestAppenders.start(context, log, a -> { });
        appender.doAppend(TestLogback.event(context, Level.INFO, "fresh start"));
        appender.stop();

        assertThat(TestLogback.lines(log)).containsExactly("fresh start");
        assertThat(asideFiles(journal)).isEmpty();
        assertThat(asideFiles(otherSlot)).isEmpty();
        assertThat(otherSlot).doesNotExist();
        assertThat(TestLogback.statusMessages(context, Status.WARN)).isEmpty();
        assertThat(TestLogback.statusMessages(context, Status.INFO))
                .anySatisfy(m -> assertThat(m).contains(journal.toString()).contains("half-made"))
                .anySatisfy(m -> assertThat(m).contains(otherSlot.toString()).contains("half-made"));
    }

    /**
     * A journal without its magic that holds a frame was in use (its first page damaged): that is
     * no half-made journal, and it is moved aside, never deleted.
     */
    @Test
    void aJournalWithoutItsMagicThatHoldsAFrameIsMovedAsideNotRemoved() throws IOException {
        Path log = dir.resolve("used.log");
        Path journal = journalOf(log);
        byte[] bytes = HalfMade.INITIALISED_BUT_FOR_THE_MAGIC.bytes(dir.resolve("scratch.journal"));
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putLong(4096,
                io.github.lockfreelog.term.JournalDescriptor.header(16, io.github.lockfreelog.term.JournalDescriptor.TYPE_DATA));
        Files.createDirectories(journal.getParent());
        Files.write(journal, bytes);
        assertMovedAsideAndFreshJournalWorks(log, bytes, "not a lockfreelog journal");
    }

    /**
     * A disk too full for the journal, and an application that is started again and again: each
     * start fails with an ERROR, and gives back what it wrote of the journal; nothing piles up.
     * Before: each start moved the last one's zeros aside as {@code .bad-*} and wrote more.
     */
    @Test
    void startsOnADiskTooFullForTheJournalPileNothingUp() throws Exception {
        Path mount = dir.resolve("tmpfs");
        Files.createDirectories(mount);
        Process mounting = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=256k,mode=755", "tmpfs", mount.toString())
                .redirectErrorStream(true).start();
        boolean mounted = mounting.waitFor(10, TimeUnit.SECONDS) && mounting.exitValue() == 0;
        Assumptions.assumeTrue(mounted, "cannot mount a tmpfs here (not root)");
        try {
            Path log = mount.resolve("full.log");
            Path journal = journalOf(log);
            Files.createDirectories(journal.getParent());
            Files.write(io.github.lockfreelog.journal.WriteLedger.fileOf(log), new byte[16 * 1024]); // the ledger, as a first start made it
            // about 96 KB free: the ledger fits, a journal of 196 KB does not
            long free = Files.getFileStore(mount).getUsableSpace();
            Files.write(mount.resolve("filler"), new byte[(int) Math.max(0, free - 96 * 1024)]);
            long before = Files.getFileStore(mount).getUsableSpace();
            for (int start = 1; start <= 3; start++) {
                LockFreeFileAppender appender = TestAppenders.create(context, log, a -> { });
                appender.start();
                assertThat(appender.isStarted()).as("start " + start).isFalse();
                appender.stop();
                assertThat(asideFiles(journal)).as("after start " + start).isEmpty();
                assertThat(Files.size(journal)).as("after start " + start).isZero();
                assertThat(Files.getFileStore(mount).getUsableSpace()).as("after start " + start)
                        .isGreaterThanOrEqualTo(before - 8 * 1024);
            }
            assertThat(TestLogback.statusMessages(context, Status.ERROR).stream().filter(m -> m.contains("Could not start")))
                    .hasSize(3);
        } finally {
            new ProcessBuilder("umount", mount.toString()).start().waitFor(10, TimeUnit.SECONDS);
        }
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
        List<String> lines = TestLogback.lines(log);
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
            appender.doAppend(TestLogback.event(context, Level.INFO, "old " + i));
        }
        Awaitility.await().atMost(java.time.Duration.ofSeconds(10))
                .until(() -> Files.exists(log) && TestLogback.lines(log).size() == 100);
        try (FileChannel channel = FileChannel.open(log, StandardOpenOption.WRITE)) {
            channel.truncate(0); // what logrotate's copytruncate does after copying
        }
        for (int i = 0; i < 100; i++) {
            appender.doAppend(TestLogback.event(context, Level.INFO, "new " + i));
        }
        appender.stop();
        byte[] content = Files.readAllBytes(log);
        assertThat(content).doesNotContain((byte) 0);
        List<String> lines = TestLogback.lines(log);
        assertThat(lines).hasSize(100);
        for (int i = 0; i < 100; i++) {
            assertThat(lines.get(i)).isEqualTo("new " + i);
        }
    }
}
