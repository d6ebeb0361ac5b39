package io.github.lockfreelog.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.lockfreelog.drain.DrainLog;
import io.github.lockfreelog.term.Journal;
import io.github.lockfreelog.term.JournalFiles;
import io.github.lockfreelog.testing.TestStatus;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The log file is followed by name: another instance's roll, an operator's move or delete. */
class FileLogSinkFollowTest {

    @TempDir
    Path dir;

    private static void write(LogSink sink, String line) throws IOException {
        ByteBuffer bytes = ByteBuffer.wrap((line + "\n").getBytes(StandardCharsets.US_ASCII));
        while (bytes.hasRemaining()) {
            sink.write(bytes);
        }
    }

    @Test
    void afterTheFileIsRenamedWritesGoOnInItUntilTheNextLookThenToTheNewFile() throws Exception {
        Path log = dir.resolve("app.log");
        Path rolled = dir.resolve("app.1.log");
        try (FileLogSink sink = new FileLogSink(log, TestStatus.QUIET)) {
            write(sink, "before");
            Files.move(log, rolled); // another instance rolls
            Files.writeString(log, "other\n"); // and writes to its new file
            assertThat(sink.isLive()).isFalse();
            write(sink, "between"); // not looked yet: lands, whole, in the renamed file
            assertThat(sink.follow()).isTrue();
            assertThat(sink.isLive()).isTrue();
            write(sink, "after");
            assertThat(sink.follow()).as("nothing changed since").isFalse();
        }
        assertThat(Files.readAllLines(rolled)).containsExactly("before", "between");
        assertThat(Files.readAllLines(log)).containsExactly("other", "after");
    }

    /** The drainer asks before each write, so a write never goes to a file renamed before it began. */
    @Test
    void followLooksEachTimeItIsAsked() throws Exception {
        Path log = dir.resolve("app.log");
        try (FileLogSink sink = new FileLogSink(log, TestStatus.QUIET)) {
            assertThat(sink.follow()).isFalse(); // looked: still live
            Files.move(log, dir.resolve("moved.log"));
            assertThat(sink.follow()).as("at once").isTrue();
            assertThat(sink.follow()).isFalse();
        }
    }

    /** The log's folder deleted ({@code rm -rf}): the next look creates folder and file again. */
    @Test
    void aDeletedFolderIsCreatedAgain() throws Exception {
        Path log = dir.resolve("logs").resolve("app.log");
        Files.createDirectories(log.getParent());
        try (FileLogSink sink = new FileLogSink(log, TestStatus.QUIET)) {
            write(sink, "gone");
            Files.delete(log);
            Files.delete(log.getParent());
            assertThat(sink.follow()).isTrue();
            write(sink, "kept");
        }
        assertThat(Files.readAllLines(log)).containsExactly("kept");
    }

    @Test
    void aDeletedLogFileIsCreatedAgain() throws Exception {
        Path log = dir.resolve("app.log");
        try (FileLogSink sink = new FileLogSink(log, TestStatus.QUIET)) {
            write(sink, "gone");
            Files.delete(log);
            assertThat(sink.follow()).isTrue();
            write(sink, "kept");
        }
        assertThat(Files.readAllLines(log)).containsExactly("kept");
    }

    @Test
    void aFileCutInPlaceIsTheSameFile() throws Exception {
        Path log = dir.resolve("app.log");
        try (FileLogSink sink = new FileLogSink(log, TestStatus.QUIET)) {
            write(sink, "cut");
            try (FileChannel channel = FileChannel.open(log, StandardOpenOption.WRITE)) {
                channel.truncate(0); // logrotate's copytruncate
            }
            assertThat(sink.follow()).isFalse();
            write(sink, "after");
            assertThat(sink.size()).isEqualTo("after\n".length());
        }
        assertThat(Files.readAllLines(log)).containsExactly("after");
    }

    /**
     * The drainer looks before it reads the size for a write's intent, so the intent is
     * recorded against the file that the write then goes to.
     */
    @Test
    void aWriteIsRecordedAgainstTheSizeOfTheFileItGoesTo() throws Exception {
        Path log = dir.resolve("app.log");
        Path journalFile = dir.resolve("app.journal");
        try (FileLogSink sink = new FileLogSink(log, TestStatus.QUIET); Journal journal = JournalFiles.create(journalFile, 2, 64 * 1024)) {
            DrainLog drainLog = new DrainLog(journal, sink, 1, 0, null);
            drainLog.write(ByteBuffer.wrap("first line\n".getBytes(StandardCharsets.US_ASCII)), 0, 0, 0, 24);
            Files.move(log, dir.resolve("app.1.log"));
            Files.writeString(log, "x\n");
            drainLog.write(ByteBuffer.wrap("second\n".getBytes(StandardCharsets.US_ASCII)), 0, 0, 24, 40);
            assertThat(journal.readIntent().logSizeBefore()).isEqualTo(2);
        }
        assertThat(Files.readAllLines(log)).containsExactly("x", "second");
    }
}
