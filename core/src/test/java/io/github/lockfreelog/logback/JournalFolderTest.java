package io.github.lockfreelog.logback;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.core.status.Status;
import io.github.lockfreelog.testing.TestAppenders;
import io.github.lockfreelog.testsupport.OtherUser;
import io.github.lockfreelog.testsupport.TestLogback;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A journal set explicitly in a folder that others may write to, as a Kubernetes {@code emptyDir} is (mode 0777,
 * owned by root; 2777 with an {@code fsGroup}), or {@code /tmp} (1777): it goes into this user's own folder inside,
 * {@code .lockfreelog-uid-<uid>}, made owner-only; a link or another user's folder under that name is never followed
 * or used (another folder of this user's own takes the journal), an open one of this user's is refused. As
 * root in process, and as {@code nobody} in a child JVM ({@link OtherUser}), for whom the permission bits count.
 */
class JournalFolderTest {

    @TempDir
    Path dir;

    private final LoggerContext context = TestLogback.newContext();
    private LockFreeFileAppender appender;

    @AfterEach
    void stop() {
        if (appender != null) {
            appender.stop();
        }
    }

    @ParameterizedTest(name = "mode {0}, owned by {1}")
    @CsvSource({"777, self", "1777, self", "2777, self", "777, nobody", "1777, nobody"})
    void aJournalInAFolderOpenToOthersGoesIntoThisUsersOwnFolderInside(String mode, String owner) throws Exception {
        Path volume = volume(mode, owner.equals("nobody") ? OtherUser.nobody() : null);
        Path own = volume.resolve(".lockfreelog-uid-" + uid());
        appender = TestAppenders.start(context, dir.resolve("app.log"), a -> a.setJournal(volume + "/console.journal"));
        log(100);
        assertThat(appender.getStatistics().journal()).isEqualTo(own.resolve("console.journal").toString());
        appender.stop();
        assertThat(TestLogback.lines(dir.resolve("app.log"))).containsExactlyElementsOf(numbered(100));
        assertThat(Files.isSymbolicLink(own)).isFalse();
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(own))).isEqualTo("rwx------");
        assertThat((Integer) Files.getAttribute(own, "unix:uid")).isEqualTo(uid());
        try (Stream<Path> files = Files.list(volume)) {
            assertThat(files).as("nothing of lockfreelog's in the open folder itself").containsExactly(own);
        }
        assertThat(TestLogback.statusMessages(context, Status.WARN)).as("no WARN").isEmpty();
        assertThat(TestLogback.statusMessages(context, Status.ERROR)).as("no ERROR").isEmpty();
        assertThat(TestLogback.statusMessages(context, Status.INFO)).anySatisfy(m -> assertThat(m)
                .contains("The journal's folder " + volume).contains("mode rwxrwxrw" + (mode.equals("1777") ? "t" : "x"))
                .contains("the journal is kept in " + own));
    }

    @Test
    void aFolderOfThisUserClosedToOthersHoldsTheJournalItself() throws Exception {
        Path volume = volume("700", null);
        appender = TestAppenders.start(context, dir.resolve("app.log"), a -> a.setJournal(volume + "/app.journal"));
        assertThat(appender.getStatistics().journal()).isEqualTo(volume.resolve("app.journal").toString());
    }

    @Test
    void aLinkPlantedUnderTheOwnFoldersNameIsNeverFollowedAndAnotherOwnFolderTakesTheJournal() throws Exception {
        Path volume = volume("1777", null);
        Path mine = Files.createDirectory(dir.resolve("mine"), PosixFilePermissions.asFileAttribute(
                PosixFilePermissions.fromString("rwx------")));
        Path own = Files.createSymbolicLink(volume.resolve(".lockfreelog-uid-" + uid()), mine);
        assertKeptElsewhere(volume, own + " is a symbolic link (to " + mine + ", owner root)");
        assertThat(Files.isSymbolicLink(own)).as("the link left where it is").isTrue();
        try (Stream<Path> files = Files.list(mine)) {
            assertThat(files).as("nothing written through the link").isEmpty();
        }
    }

    @Test
    void anOwnFolderThatAnotherUserMadeFirstIsNeverUsedAndAnotherOwnFolderTakesTheJournal() throws Exception {
        UserPrincipal nobody = OtherUser.nobody();
        Path volume = volume("777", null);
        Path own = Files.createDirectory(volume.resolve(".lockfreelog-uid-" + uid()));
        Files.setOwner(own, nobody);
        assertKeptElsewhere(volume, own + " is a folder of nobody, not of root who runs this process");
        try (Stream<Path> files = Files.list(own)) {
            assertThat(files).as("nothing created in their folder").isEmpty();
        }
    }

    @Test
    void anOwnFolderOpenToOthersIsRefusedWithHowToCloseIt() throws Exception {
        Path volume = volume("777", null);
        Path own = Files.createDirectory(volume.resolve(".lockfreelog-uid-" + uid()));
        Files.setPosixFilePermissions(own, PosixFilePermissions.fromString("rwxrwxrwx"));
        assertRefused(volume, own + " is open to others (mode rwxrwxrwx)");
        assertThat(TestLogback.statusMessages(context, Status.ERROR).get(0)).contains("chmod 700 " + own);
    }

    @ParameterizedTest(name = "mode {0}")
    @CsvSource({"777", "1777"})
    void aNonRootApplicationKeepsItsJournalInItsOwnFolderInsideAFolderOfRoot(String mode) throws Exception {
        OtherUser.assumeAvailable();
        Path volume = volume(mode, null);
        OtherUser.Run run = OtherUser.run(dir, JournalFolderChild.class, volume + "/app.log", volume + "/console.journal",
                "1000");
        Path own = volume.resolve(".lockfreelog-uid-" + OtherUser.UID);
        assertThat(run.output()).contains("STARTED true", "JOURNAL " + own.resolve("console.journal"), "WRITTEN 1000")
                .doesNotContain("STATUS WARN", "STATUS ERROR");
        assertThat((Integer) Files.getAttribute(own, "unix:uid", LinkOption.NOFOLLOW_LINKS)).isEqualTo(OtherUser.UID);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(own))).isEqualTo("rwx------");
        assertThat(TestLogback.lines(volume.resolve("app.log"))).containsExactlyElementsOf(numbered(1000));
    }

    @Test
    void aNonRootApplicationNeverFollowsALinkRootPlantedUnderItsName() throws Exception {
        OtherUser.assumeAvailable();
        Path volume = volume("1777", null);
        Path victim = Files.createDirectories(dir.resolve("victim"));
        Files.setOwner(victim, OtherUser.nobody());
        Path own = Files.createSymbolicLink(volume.resolve(".lockfreelog-uid-" + OtherUser.UID), victim);
        Path logs = volume("777", null, "logs");
        OtherUser.Run run = OtherUser.run(dir, JournalFolderChild.class, logs + "/app.log", volume + "/console.journal",
                "10");
        assertThat(run.output()).contains("STARTED true", "WRITTEN 10", "STATUS WARN The name " + own
                + " is a symbolic link (to " + victim + ", owner root)", "JOURNAL " + own + "-");
        try (Stream<Path> files = Files.list(victim)) {
            assertThat(files).as("nothing written through the link").isEmpty();
        }
    }

    @Test
    void aNonRootApplicationThatMayNotWriteTheFolderIsToldHowToMakeItWritable() throws Exception {
        OtherUser.assumeAvailable();
        Path volume = volume("755", null);
        Path logs = volume("777", null, "logs");
        OtherUser.Run run = OtherUser.run(dir, JournalFolderChild.class, logs + "/app.log", volume + "/console.journal",
                "10");
        assertThat(run.output()).contains("STARTED false", "STATUS ERROR Cannot create the directory " + volume,
                "mode rwxr-xr-x, owner root", "may not write there", "fsGroup", "or set the journal to a folder it may write");
        assertThat(run.output()).doesNotContain("chmod 700");
    }

    private Path volume(String mode, UserPrincipal owner) throws Exception {
        return volume(mode, owner, "volume");
    }

    /** A folder of {@code mode} (octal, as chmod takes it), owned by {@code owner} ({@code null}: this user). */
    private Path volume(String mode, UserPrincipal owner, String name) throws Exception {
        Path volume = Files.createDirectory(dir.resolve(name));
        if (owner != null) {
            Files.setOwner(volume, owner);
        }
        assertThat(new ProcessBuilder("chmod", mode, volume.toString()).start().waitFor()).as("chmod").isZero();
        return volume;
    }

    /** The journal goes into another folder of this user's own in {@code volume}, with one WARN that says {@code why}. */
    private void assertKeptElsewhere(Path volume, String why) throws IOException {
        appender = TestAppenders.start(context, dir.resolve("app.log"), a -> a.setJournal(volume + "/console.journal"));
        log(10);
        Path journal = Path.of(appender.getStatistics().journal());
        assertThat(journal.getParent().getParent()).isEqualTo(volume);
        assertThat(journal.getParent().getFileName().toString()).startsWith(".lockfreelog-uid-" + uid() + "-");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(journal.getParent(),
                LinkOption.NOFOLLOW_LINKS))).isEqualTo("rwx------");
        assertThat(TestLogback.statusMessages(context, Status.WARN)).singleElement().satisfies(m -> assertThat(m)
                .contains("The name " + why).contains("never follows or uses it")
                .contains("for the appender named \"TEST\""));
        appender.stop();
        assertThat(TestLogback.lines(dir.resolve("app.log"))).containsExactlyElementsOf(numbered(10));
    }

    private void assertRefused(Path volume, String why) throws IOException {
        LockFreeFileAppender refused = TestAppenders.create(context, dir.resolve("app.log"),
                a -> a.setJournal(volume + "/console.journal"));
        refused.start();
        assertThat(refused.isStarted()).isFalse();
        assertThat(TestLogback.statusMessages(context, Status.ERROR)).singleElement().satisfies(m -> assertThat(m)
                .contains(why).contains("remove").contains("for the appender named \"TEST\""));
    }

    private void log(int lines) {
        for (int i = 0; i < lines; i++) {
            appender.doAppend(TestLogback.event(context, Level.INFO, "line " + i));
        }
    }

    private static List<String> numbered(int lines) {
        return IntStream.range(0, lines).mapToObj(i -> "line " + i).toList();
    }

    private static int uid() throws IOException {
        return (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
    }
}
