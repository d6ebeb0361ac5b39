package io.github.lockfreelog.logback;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.core.status.Status;
import io.github.lockfreelog.sink.ForwardingLogSink;
import io.github.lockfreelog.testing.TestAppenders;
import io.github.lockfreelog.testsupport.CoTenant;
import io.github.lockfreelog.testsupport.OtherUser;
import io.github.lockfreelog.testsupport.TestLogback;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Another user on the host ({@code nobody}, a child JVM run through {@code setpriv}: {@link OtherUser}, {@link CoTenant})
 * acts first on the places that lockfreelog shares with others: a log folder others may write to (sticky, as
 * {@code /tmp}), and the default journal folder under {@code java.io.tmpdir}. The application, this process, must
 * still start and log, and say once what it found.
 */
class CoTenantTest {

    @TempDir
    Path dir;

    private final LoggerContext context = TestLogback.newContext();
    private LockFreeFileAppender appender;
    private Path shared;

    @BeforeEach
    void sharedFolder() throws Exception {
        OtherUser.assumeAvailable();
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx--x--x")); // nobody may pass through
        shared = folder("shared", "1777");
    }

    @AfterEach
    void stop() {
        if (appender != null) {
            appender.stop();
        }
    }

    // ---- 1. keep the application from starting ------------------------------------------------------------------

    @Test
    void aHiddenFolderAnotherUserMadeFirstInAnOpenLogFolderStopsNothing() throws Exception {
        Path planted = shared.resolve(".lockfreelog");
        asOtherUser("mkdir", planted.toString());
        appender = TestAppenders.start(context, shared.resolve("app.log"), a -> { });
        assertThat(appender.isStarted()).as(TestLogback.statuses(context)).isTrue();
        log(100);
        Path own = shared.resolve(".lockfreelog-uid-0");
        assertThat(appender.getStatistics().journal()).isEqualTo(own.resolve("app.log.journal").toString());
        appender.stop();
        assertThat(TestLogback.lines(shared.resolve("app.log"))).containsExactlyElementsOf(numbered(100));
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(own))).isEqualTo("rwx------");
        try (Stream<Path> files = Files.list(planted)) {
            assertThat(files).as("nothing put in the other user's folder").isEmpty();
        }
        assertThat(TestLogback.statusMessages(context, Status.ERROR)).isEmpty();
    }

    @Test
    void aLogFolderOfThisUserClosedToOthersKeepsTheHiddenFolderItsName() throws Exception {
        Path logs = folder("logs", "755");
        appender = TestAppenders.start(context, logs.resolve("app.log"), a -> { });
        assertThat(appender.getStatistics().journal()).isEqualTo(logs.resolve(".lockfreelog/app.log.journal").toString());
    }

    @Test
    void thisUsersFolderNameTakenByAnotherUserGivesAFolderOfItsOwnThatTheNextStartFindsAgain() throws Exception {
        Path usual = shared.resolve(".lockfreelog-uid-0");
        Path victim = folder("victim", "777");
        asOtherUser("link", usual.toString(), victim.toString());
        appender = TestAppenders.start(context, shared.resolve("app.log"), a -> { });
        assertThat(appender.isStarted()).as(TestLogback.statuses(context)).isTrue();
        log(10);
        Path journal = Path.of(appender.getStatistics().journal());
        Path own = journal.getParent();
        assertThat(own.getParent()).isEqualTo(shared);
        assertThat(own.getFileName().toString()).startsWith(".lockfreelog-uid-0-");
        assertThat((Integer) Files.getAttribute(own, "unix:uid", LinkOption.NOFOLLOW_LINKS)).isZero();
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(own, LinkOption.NOFOLLOW_LINKS)))
                .isEqualTo("rwx------");
        assertThat(TestLogback.statusMessages(context, Status.WARN)).singleElement().satisfies(m -> assertThat(m)
                .contains("The name " + usual + " is a symbolic link (to " + victim + ", owner nobody)")
                .contains("never follows or uses it").contains("keeps this user's journals in " + own)
                .contains("for the appender named \"TEST\""));
        appender.stop();
        appender = TestAppenders.start(context, shared.resolve("app.log"), a -> { });
        log(10);
        assertThat(appender.getStatistics().journal()).as("the next start finds the same folder").isEqualTo(
                journal.toString());
        appender.stop();
        assertThat(TestLogback.lines(shared.resolve("app.log"))).hasSize(20);
        try (Stream<Path> files = Files.list(victim)) {
            assertThat(files).as("nothing written through the link").isEmpty();
        }
    }

    @Test
    void theDefaultJournalFolderInTmpTakenByAnotherUserStopsNothing() throws Exception {
        String tmp = System.getProperty("java.io.tmpdir");
        Path usual = shared.resolve(".lockfreelog-app-uid-0");
        asOtherUser("mkdir", usual.toString(), "mkdir", shared.resolve(".lockfreelog-app-root").toString());
        System.setProperty("java.io.tmpdir", shared.toString());
        Path out = dir.resolve("console.out");
        LockFreeConsoleAppender console = new LockFreeConsoleAppender();
        try {
            console.setContext(context);
            console.setName("CONSOLE");
            console.setApplication("app");
            console.setBufferSize(ch.qos.logback.core.util.FileSize.valueOf("64KB"));
            console.setEncoder(TestAppenders.create(context, dir.resolve("unused.log"), a -> { }).getEncoder());
            console.setStream(() -> {
                try {
                    return new io.github.lockfreelog.sink.ConsoleLogSink(new java.io.FileOutputStream(out.toFile()), "out");
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            console.start();
            assertThat(console.isStarted()).as(TestLogback.statuses(context)).isTrue();
            for (int i = 0; i < 50; i++) {
                console.doAppend(TestLogback.event(context, Level.INFO, "line " + i));
            }
            Path journal = Path.of(console.getStatistics().journal());
            assertThat(journal.getParent().getFileName().toString()).startsWith(".lockfreelog-app-uid-0-");
            assertThat(TestLogback.statusMessages(context, Status.WARN)).singleElement().satisfies(m -> assertThat(m)
                    .contains("The name " + usual + " is a folder of nobody"));
        } finally {
            console.stop();
            System.setProperty("java.io.tmpdir", tmp);
        }
        assertThat(TestLogback.lines(out)).containsExactlyElementsOf(numbered(50));
    }

    // ---- 2. a link at a folder's name ---------------------------------------------------------------------------

    /**
     * In a folder without the sticky bit (an {@code emptyDir}, mode 0777), another user may rename this user's own
     * folder and put a link under its name; the engine, finding its journal gone from that name, must not build a new
     * one through the link in a folder of this user's elsewhere (here one that only root may enter).
     */
    @Test
    void aLinkAnotherUserPutsAtTheOwnFoldersNameIsNeverFollowedWhenTheJournalIsBuiltAgain() throws Exception {
        Path volume = folder("volume", "777");
        Path victim = folder("victim", "700");
        Path own = volume.resolve(".lockfreelog-uid-0");
        appender = TestAppenders.start(context, dir.resolve("app.log"), a -> a.setJournal(volume + "/app.journal"));
        assertThat(appender.getStatistics().journal()).isEqualTo(own.resolve("app.journal").toString());
        log(10, "before ");
        awaitWritten(10);
        asOtherUser("rename", own.toString(), volume.resolve("moved").toString(), "link", own.toString(),
                victim.toString());
        awaitError("the folder " + own + " (a link to " + victim + ") is a symbolic link in " + volume);
        log(10, "after ");
        awaitWritten(20);
        try (Stream<Path> files = Files.list(victim)) {
            assertThat(files).as("nothing made through the link").isEmpty();
        }
        appender.stop();
        assertThat(TestLogback.lines(dir.resolve("app.log"))).containsExactlyElementsOf(Stream.concat(
                numbered(10, "before ").stream(), numbered(10, "after ").stream()).toList());
    }

    @Test
    void aJournalOfAnotherUserFoundAtStartIsMovedAsideNeverUsed() throws Exception {
        Path logs = folder("logs", "755");
        TestAppenders.start(context, logs.resolve("app.log"), a -> { }).stop(); // leaves a journal, whole and empty
        Path hidden = logs.resolve(".lockfreelog");
        Path journal = hidden.resolve("app.log.journal");
        Files.setOwner(journal, OtherUser.nobody()); // as if another user had put it there (root may)
        Files.setPosixFilePermissions(journal, PosixFilePermissions.fromString("rw-rw-rw-"));
        appender = TestAppenders.start(context, logs.resolve("app.log"), a -> { });
        log(10);
        assertThat(appender.getStatistics().journal()).isEqualTo(journal.toString());
        assertThat((Integer) Files.getAttribute(journal, "unix:uid", LinkOption.NOFOLLOW_LINKS)).as("a journal of ours")
                .isZero();
        assertThat(TestLogback.statusMessages(context, Status.ERROR)).singleElement().satisfies(m -> assertThat(m)
                .contains("the journal " + journal + " is owned by uid 65534").contains("moved it to " + journal
                        + ".bad-"));
        appender.stop();
        assertThat(TestLogback.lines(logs.resolve("app.log"))).containsExactlyElementsOf(numbered(10));
        try (Stream<Path> files = Files.list(hidden)) {
            assertThat(files.filter(p -> p.getFileName().toString().startsWith("app.log.journal.bad-")))
                    .singleElement().satisfies(p -> assertThat((Integer) Files.getAttribute(p, "unix:uid",
                            LinkOption.NOFOLLOW_LINKS)).isEqualTo(OtherUser.UID));
        }
    }

    // ---- 3. forge lines through messages ------------------------------------------------------------------------

    @Test
    void aNameWithANewlineThatAnotherUserChoseIsShownInTheMessageNeverWritten() throws Exception {
        Path usual = shared.resolve(".lockfreelog-uid-0");
        String forged = "x\n2026-12-04 12:00:00.000 ERROR [main] com.example.Bank - transfer approved\u001b[2K";
        asOtherUser("link", usual.toString(), "/tmp/" + forged);
        appender = TestAppenders.start(context, shared.resolve("app.log"), a -> { });
        List<Status> all = context.getStatusManager().getCopyOfStatusList();
        assertThat(all).as("no status of the appender holds a control character").allSatisfy(status -> assertThat(
                status.getMessage()).doesNotContain("\n", "\r", "\u001b"));
        assertThat(TestLogback.statusMessages(context, Status.WARN)).singleElement().satisfies(m -> assertThat(m)
                .contains("(to /tmp/x\\n2026-12-04 12:00:00.000 ERROR [main] com.example.Bank - transfer approved"
                        + "\\u001b[2K, owner nobody)"));
    }

    // ---- 4. take or stall the live log --------------------------------------------------------------------------

    @Test
    void aFileAnotherUserPutsAtTheLogsNameIsNeverWrittenAndWritingResumesOnceItIsGone() throws Exception {
        Path log = shared.resolve("app.log");
        appender = TestAppenders.start(context, log, a -> { });
        log(10, "before ");
        awaitWritten(10);
        Files.move(log, shared.resolve("app.log.1")); // an operator's (or logrotate's) move
        asOtherUser("file", log.toString(), "theirs\n", "chmod", log.toString(), "rw-rw-rw-");
        log(10, "after ");
        awaitError("the log file " + log + " is owned by nobody");
        assertThat(Files.readString(log)).as("nothing written into the other user's file").isEqualTo("theirs\n");
        assertThat(appender.getStatistics().inFlight()).as("the events wait in the journal").isEqualTo(10);
        Files.delete(log);
        awaitWritten(20);
        assertThat(TestLogback.lines(log)).containsExactlyElementsOf(numbered(10, "after "));
        assertThat((Integer) Files.getAttribute(log, "unix:uid")).isZero();
        assertThat(TestLogback.lines(shared.resolve("app.log.1"))).containsExactlyElementsOf(numbered(10, "before "));
    }

    @Test
    void aFifoAnotherUserPutsAtTheLogsNameStallsNothingAndWritingResumesOnceItIsGone() throws Exception {
        Path log = shared.resolve("app.log");
        appender = TestAppenders.start(context, log, a -> { });
        log(10, "before ");
        awaitWritten(10);
        Files.delete(log); // an operator's clean-up
        asOtherUser("fifo", log.toString(), "chmod", log.toString(), "rw-rw-rw-");
        log(10, "after ");
        awaitError("the log file " + log + " is a FIFO, socket or device of nobody, not a regular file");
        Files.delete(log);
        awaitWritten(20);
        assertThat(TestLogback.lines(log)).containsExactlyElementsOf(numbered(10, "after "));
        appender.stop();
        assertThat(appender.getStatistics().dropped()).isZero();
    }

    // ---- 5. a new live log open wider than the log for a moment -------------------------------------------------

    @Test
    void aLiveLogMadeAgainAfterItsDeletionHasTheModeOfTheOneDeleted() throws Exception {
        Path log = shared.resolve("app.log");
        appender = TestAppenders.start(context, log, a -> { });
        Files.setPosixFilePermissions(log, PosixFilePermissions.fromString("rw-------")); // the operator's choice
        log(10, "before ");
        awaitWritten(10);
        Files.delete(log);
        log(10, "after ");
        awaitWritten(20);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(log))).isEqualTo("rw-------");
        assertThat(TestLogback.lines(log)).containsExactlyElementsOf(numbered(10, "after "));
    }

    // ---- 6. smaller items ---------------------------------------------------------------------------------------

    @Test
    void theEndpointsLastErrorNamesTheCauseWithoutAddressesOrPrincipals() throws Exception {
        AtomicBoolean failing = new AtomicBoolean(true);
        appender = TestAppenders.start(context, dir.resolve("app.log"), a -> a.setSinkDecorator(s -> new ForwardingLogSink(s) {
            @Override
            public int write(ByteBuffer src) throws IOException {
                if (failing.get()) {
                    throw new IOException("Connection to node 1 (broker-1.example.com/10.0.0.7:9092) failed for"
                            + " User:alice");
                }
                return super.write(src);
            }
        }));
        log(1, "line ");
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> appender.getStatistics().lastError() != null);
        assertThat(appender.getStatistics().lastError()).isEqualTo("IOException: Connection to node 1 (<address>)"
                + " failed for User:<principal>");
        failing.set(false);
        awaitWritten(1);
    }

    @Test
    void aCompressionLeftoverThatAnotherUserPlantsIsNeverMadeIntoAnArchive() throws Exception {
        Path planted = shared.resolve("app.2026-01-02.0.log.tmp");
        asOtherUser("file", planted.toString(), "2026-01-02 00:00:00 INFO forged\n");
        appender = TestAppenders.start(context, shared.resolve("app.log"), a -> {
            a.setFileNamePattern(shared + "/app.%d{yyyy-MM-dd}.%i.log.gz");
            a.setMaxFileSize(ch.qos.logback.core.util.FileSize.valueOf("1MB"));
        });
        log(10, "line ");
        appender.stop(); // waits for the compressions of leftovers that start began
        assertThat(shared.resolve("app.2026-01-02.0.log.gz")).as("no archive of their text").doesNotExist();
        assertThat(Files.readString(planted)).isEqualTo("2026-01-02 00:00:00 INFO forged\n");
        assertThat(TestLogback.statusMessages(context, Status.WARN)).anySatisfy(m -> assertThat(m)
                .contains("the file " + planted + " looks like a compression that a crash interrupted, but it belongs to"
                        + " another user (uid 65534)"));
    }

    // ---- helpers --------------------------------------------------------------------------------------------------

    private void awaitWritten(long events) {
        Awaitility.await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(
                appender.getStatistics().eventsWritten()).isEqualTo(events));
    }

    private void awaitError(String text) {
        Awaitility.await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(
                TestLogback.statusMessages(context, Status.ERROR)).anySatisfy(m -> assertThat(m).contains(text)));
    }

    private void log(int lines, String prefix) {
        for (int i = 0; i < lines; i++) {
            appender.doAppend(TestLogback.event(context, Level.INFO, prefix + i));
        }
    }

    private static List<String> numbered(int lines, String prefix) {
        return IntStream.range(0, lines).mapToObj(i -> prefix + i).toList();
    }

    /** Runs {@link CoTenant} with {@code steps} as {@code nobody}, and checks that each worked. */
    private void asOtherUser(String... steps) throws Exception {
        OtherUser.Run run = OtherUser.run(dir.resolve("tenant"), CoTenant.class, steps);
        assertThat(run.output()).as("what the other user did").contains("DONE");
    }

    /** A folder of {@code mode} (octal, as chmod takes it) owned by this user. */
    private Path folder(String name, String mode) throws Exception {
        Path folder = Files.createDirectory(dir.resolve(name));
        assertThat(new ProcessBuilder("chmod", mode, folder.toString()).start().waitFor()).as("chmod").isZero();
        return folder;
    }

    private void log(int lines) {
        for (int i = 0; i < lines; i++) {
            appender.doAppend(TestLogback.event(context, Level.INFO, "line " + i));
        }
    }

    private static List<String> numbered(int lines) {
        return IntStream.range(0, lines).mapToObj(i -> "line " + i).toList();
    }
}
