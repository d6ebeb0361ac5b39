package io.github.lockfreelog.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.core.status.Status;
import io.github.lockfreelog.logback.LockFreeFileAppender;
import io.github.lockfreelog.testing.TestAppenders;
import io.github.lockfreelog.testsupport.CoTenant;
import io.github.lockfreelog.testsupport.OtherUser;
import io.github.lockfreelog.testsupport.TestLogback;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A journal folder is checked, then files are opened in it: in a folder that others may write to without the sticky
 * bit (an {@code emptyDir} of mode 0777), another user ({@code nobody}, {@link OtherUser}) renames this user's own
 * folder away and puts a link to a folder of this user's elsewhere at its name in the moment between the two (made in
 * that very moment through a seam of {@link CheckedOpens}, not by chance). Nothing may be opened or created through
 * the link.
 */
class PinnedFolderTest {

    @TempDir
    Path dir;

    private final LoggerContext context = TestLogback.newContext();
    private LockFreeFileAppender appender;
    private Path volume;
    private Path victim;

    @BeforeEach
    void folders() throws Exception {
        OtherUser.assumeAvailable();
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx--x--x")); // nobody may pass through
        volume = Files.createDirectory(dir.resolve("volume"));
        Files.setPosixFilePermissions(volume, PosixFilePermissions.fromString("rwxrwxrwx")); // no sticky bit
        victim = Files.createDirectory(dir.resolve("victim"), PosixFilePermissions.asFileAttribute(
                PosixFilePermissions.fromString("rwx------"))); // a folder of this user's that only it may enter
    }

    @AfterEach
    void stop() {
        CheckedOpens.betweenFolderCheckAndOpen = null;
        if (appender != null) {
            appender.stop();
        }
    }

    @Test
    void aLinkSwappedInAtTheCheckedFoldersNameBeforeAnOpenInItIsNeverFollowed() throws Exception {
        Path own = volume.resolve(".lockfreelog-uid-0");
        AtomicBoolean swapped = new AtomicBoolean();
        CheckedOpens.betweenFolderCheckAndOpen = folder -> {
            if (folder.equals(own) && swapped.compareAndSet(false, true)) {
                try {
                    OtherUser.Run run = OtherUser.run(dir.resolve("tenant"), CoTenant.class, "rename", own.toString(),
                            volume.resolve("moved").toString(), "link", own.toString(), victim.toString());
                    assertThat(run.output()).contains("DONE");
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
            }
        };
        appender = TestAppenders.create(context, dir.resolve("app.log"), a -> a.setJournal(volume + "/app.journal"));
        appender.start();
        assertThat(swapped).as("the swap was made between the check and the open").isTrue();
        try (Stream<Path> files = Files.list(victim)) {
            assertThat(files).as("nothing opened or created through the link").isEmpty();
        }
        assertThat(TestLogback.statusMessages(context, Status.ERROR)).anySatisfy(m -> assertThat(m)
                .contains("the folder " + own + " is no longer the folder lockfreelog checked: at its name is now a"
                        + " symbolic link (to " + victim + ")"));
        // tried once more, the start finds the link at the name and keeps the journal in another folder of its own
        assertThat(appender.isStarted()).as(TestLogback.statuses(context)).isTrue();
        Path journal = Path.of(appender.getStatistics().journal());
        assertThat(journal.getParent().getFileName().toString()).startsWith(".lockfreelog-uid-0-");
        assertThat(TestLogback.statusMessages(context, Status.WARN)).anySatisfy(m -> assertThat(m)
                .contains("The name " + own + " is a symbolic link (to " + victim + ", owner nobody)"));
        for (int i = 0; i < 10; i++) {
            appender.doAppend(TestLogback.event(context, ch.qos.logback.classic.Level.INFO, "line " + i));
        }
        appender.stop();
        assertThat(TestLogback.lines(dir.resolve("app.log"))).hasSize(10);
    }

    @Test
    void aFileIsNeverMovedAsideOrDeletedThroughALinkSwappedInAtTheCheckedFoldersName() throws Exception {
        Path own = volume.resolve("own");
        PrivateFolders.ensure(own); // checked and pinned
        Files.writeString(victim.resolve("app.journal"), "a journal of this user's elsewhere");
        Files.move(own, volume.resolve("moved"));
        Files.createSymbolicLink(own, victim); // as another user may, in a folder without the sticky bit
        assertThatThrownBy(() -> SafeFiles.moveAside(own.resolve("app.journal")))
                .isInstanceOf(PrivateFolders.UnsafeFolderException.class)
                .hasMessageContaining("the folder " + own + " is no longer the folder lockfreelog checked");
        assertThatThrownBy(() -> SafeFiles.delete(own.resolve("app.journal")))
                .isInstanceOf(PrivateFolders.UnsafeFolderException.class);
        assertThatThrownBy(() -> SafeFiles.openOwnerOnly(own.resolve("app.journal.lock"),
                java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.WRITE))
                .isInstanceOf(PrivateFolders.UnsafeFolderException.class);
        try (Stream<Path> files = Files.list(victim)) {
            assertThat(files).containsExactly(victim.resolve("app.journal"));
        }
        Files.delete(own);
        Files.move(volume.resolve("moved"), own); // the folder checked, back at its name
        Files.writeString(own.resolve("app.journal"), "ours");
        assertThat(SafeFiles.moveAside(own.resolve("app.journal")).getFileName().toString()).startsWith("app.journal.bad-");
    }
}
