package io.github.lockfreelog.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.lockfreelog.journal.JournalLock;
import io.github.lockfreelog.term.Journal;
import io.github.lockfreelog.term.JournalFiles;
import io.github.lockfreelog.testing.TestStatus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A journal whose recovery needs more memory than the JVM has (a journal of large buffers, or one crafted to make
 * recovery allocate): the {@link OutOfMemoryError} must not fail every start, as a journal that cannot be read would
 * otherwise; the journal is moved aside, kept, and a fresh one started.
 */
class RecoveryFaultsTest {

    @TempDir
    Path dir;

    @Test
    void aRecoveryThatRunsOutOfMemoryMovesTheJournalAsideAndTheStartGoesOn() throws Exception {
        Path journalFile = dir.resolve("app.log.journal");
        try (Journal journal = JournalFiles.create(journalFile, 3, 64 * 1024)) {
            assertThat(journal.readDrainRecord()).isNotNull();
        }
        TestStatus.Recording status = TestStatus.recording();
        JournalLock hold = JournalLock.tryAcquire(journalFile, status);
        try {
            Recovery.Result result = Recovery.recover(hold, (journal, record) -> {
                throw new OutOfMemoryError("Java heap space");
            }, "app.log", status);
            assertThat(result.recoveredFrames()).isZero();
        } finally {
            hold.close();
        }
        assertThat(status.problems()).singleElement().satisfies(m -> assertThat(m).contains(journalFile.toString())
                .contains("OutOfMemoryError").contains("moved it to " + journalFile + ".bad-"));
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString())).anyMatch(n -> n.startsWith("app.log.journal.bad-"));
        }
    }
}
