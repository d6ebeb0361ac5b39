package io.github.lockfreelog.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.lockfreelog.diagnostics.StatusReporter;
import io.github.lockfreelog.journal.JournalLock;
import io.github.lockfreelog.term.Journal;
import io.github.lockfreelog.term.JournalFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
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
        List<String> warnings = new CopyOnWriteArrayList<>();
        StatusReporter status = new StatusReporter() {
            @Override
            public void info(String message) {
            }

            @Override
            public void warn(String message, Throwable cause) {
                warnings.add(message);
            }

            @Override
            public void error(String message, Throwable cause) {
                warnings.add(message);
            }
        };
        JournalLock hold = JournalLock.tryAcquire(journalFile, status);
        try {
            Recovery.Result result = Recovery.recover(hold, (journal, record) -> {
                throw new OutOfMemoryError("Java heap space");
            }, "app.log", status);
            assertThat(result.recoveredFrames()).isZero();
        } finally {
            hold.close();
        }
        assertThat(warnings).singleElement().satisfies(m -> assertThat(m).contains(journalFile.toString())
                .contains("OutOfMemoryError").contains("moved it to " + journalFile + ".bad-"));
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString())).anyMatch(n -> n.startsWith("app.log.journal.bad-"));
        }
    }
}
