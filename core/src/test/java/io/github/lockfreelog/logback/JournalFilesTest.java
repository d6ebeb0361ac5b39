package io.github.lockfreelog.logback;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.core.status.Status;
import io.github.lockfreelog.diagnostics.AppenderStatistics;
import io.github.lockfreelog.testing.TestAppenders;
import io.github.lockfreelog.testsupport.TestLogback;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The files the appender keeps beside the log, in a folder others may write to, and a start that fails. */
class JournalFilesTest {

    @TempDir
    Path dir;

    private final LoggerContext context = TestLogback.newContext();

    @Test
    void aSymbolicLinkPlantedAtTheJournalIsMovedAsideAndNeverFollowed() throws Exception {
        Path log = dir.resolve("app.log");
        Path hidden = Files.createDirectories(dir.resolve(LockFreeFileAppender.JOURNAL_FOLDER));
        Path victim = dir.resolve("victim");
        Files.createSymbolicLink(hidden.resolve("app.log.journal"), victim); // dangling
        LockFreeFileAppender appender = TestAppenders.start(context, log, a -> { });
        appender.doAppend(TestLogback.event(context, Level.INFO, "kept"));
        appender.stop();

        assertThat(victim).doesNotExist();
        assertThat(Files.isSymbolicLink(hidden.resolve("app.log.journal"))).isFalse();
        try (Stream<Path> files = Files.list(hidden)) {
            List<Path> aside = files.filter(p -> p.getFileName().toString().startsWith("app.log.journal.bad-")).toList();
            assertThat(aside).hasSize(1);
            assertThat(Files.isSymbolicLink(aside.get(0))).isTrue();
        }
        assertThat(TestLogback.statusMessages(context, Status.ERROR))
                .anySatisfy(m -> assertThat(m).contains("refused the symbolic link").contains("app.log.journal")
                        .contains(victim.toString()));
        assertThat(TestLogback.lines(log)).containsExactly("kept");
    }

    @Test
    void theHiddenFolderIsCreatedOwnerOnly() throws Exception {
        Path log = dir.resolve("logs").resolve("app.log");
        LockFreeFileAppender appender = TestAppenders.start(context, log, a -> { });
        appender.stop();
        Path hidden = log.resolveSibling(LockFreeFileAppender.JOURNAL_FOLDER);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(hidden, LinkOption.NOFOLLOW_LINKS)))
                .isEqualTo("rwx------");
    }

    /**
     * A journal set explicitly in a folder that does not exist yet: the folder is created
     * owner-only, like the hidden one. Before: it was created with the umask's mode (and so refused
     * at every start under a umask of 002).
     */
    @Test
    void theMissingFolderOfAnExplicitJournalIsCreatedOwnerOnly() throws Exception {
        Path journal = dir.resolve("state").resolve("app.journal");
        LockFreeFileAppender appender = TestAppenders.start(context, dir.resolve("app.log"),
                a -> a.setJournal(journal.toString()));
        appender.stop();
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(journal.getParent(),
                LinkOption.NOFOLLOW_LINKS))).isEqualTo("rwx------");
    }

    @Test
    void eventsAfterAFailedStartAreCountedAsDropped() throws Exception {
        Path log = dir.resolve("failed.log");
        Path journal = Files.createDirectories(dir.resolve("journal-is-a-folder"));
        Files.writeString(journal.resolve("x"), "x"); // a journal path that cannot be opened as a file
        LockFreeFileAppender appender = TestAppenders.create(context, log, a -> a.setJournal(journal.toString()));
        appender.start();
        assertThat(appender.isStarted()).isFalse();
        assertThat(TestLogback.statusMessages(context, Status.ERROR)).anySatisfy(m -> assertThat(m)
                .contains("Could not start"));
        for (int i = 0; i < 5; i++) {
            appender.doAppend(TestLogback.event(context, Level.INFO, "lost " + i));
        }
        AppenderStatistics stats = appender.getStatistics();
        assertThat(stats.appended()).isEqualTo(5);
        assertThat(stats.dropped()).isEqualTo(5);
        assertThat(stats.drops()).containsEntry("stopped", 5L);
        assertThat(stats.inFlight()).isZero();
    }
}
