package io.github.lockfreelog.files;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.core.status.Status;
import io.github.lockfreelog.logback.LockFreeFileAppender;
import io.github.lockfreelog.testing.TestAppenders;
import io.github.lockfreelog.testsupport.CoTenant;
import io.github.lockfreelog.testsupport.OtherUser;
import io.github.lockfreelog.testsupport.TestLogback;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.IntStream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * In a log folder that others may write to without the sticky bit (an {@code emptyDir} of mode 0777), another user
 * ({@code nobody}, {@link OtherUser}) swaps a FIFO in at the live log's name in the moment between its check (a
 * regular file of this user) and its open: the swap is made in that very moment through a seam of
 * {@link SafeFiles}, not by chance. The drainer must not stall: the open is freed and refused, events wait in the
 * journal, and writing resumes once the FIFO is gone.
 */
class LiveFileRaceTest {

    @TempDir
    Path dir;

    private final LoggerContext context = TestLogback.newContext();
    private LockFreeFileAppender appender;
    private Path shared;
    private Path log;

    @BeforeEach
    void openFolder() throws Exception {
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx--x--x")); // nobody may pass through
        shared = Files.createDirectory(dir.resolve("shared"));
        Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxrwxrwx")); // no sticky bit
        log = shared.resolve("app.log");
    }

    @AfterEach
    void stop() {
        SafeFiles.betweenCheckAndOpen = null;
        if (appender != null) {
            appender.stop();
        }
    }

    @Test
    void aFifoAnotherUserSwapsInBetweenTheCheckAndTheOpenStallsNothing() throws Exception {
        OtherUser.assumeAvailable();
        appender = TestAppenders.start(context, log, a -> { });
        log(10, "before ");
        awaitWritten(10);
        AtomicBoolean swapped = new AtomicBoolean();
        SafeFiles.betweenCheckAndOpen = file -> {
            if (file.equals(log) && swapped.compareAndSet(false, true)) {
                try {
                    OtherUser.Run run = OtherUser.run(dir.resolve("tenant"), CoTenant.class, "rename", log.toString(),
                            shared.resolve("taken").toString(), "fifo", log.toString(), "chmod", log.toString(),
                            "rw-rw-rw-");
                    assertThat(run.output()).contains("DONE");
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
            }
        };
        replaceTheLogWithANewFileOfThisUser();
        log(10, "after ");
        awaitError("the log file " + log + " was replaced by a FIFO or a socket between its check and its open");
        assertThat(swapped).isTrue();
        assertThat(Files.isRegularFile(log, LinkOption.NOFOLLOW_LINKS)).as("their FIFO at the name").isFalse();
        assertThat(CheckedOpens.leftBehind()).as("the open was freed, not left behind").isZero();
        assertThat(appender.getStatistics().inFlight()).as("the events wait in the journal").isEqualTo(10);
        Files.delete(log);
        awaitWritten(20);
        assertThat(TestLogback.lines(log)).containsExactlyElementsOf(numbered(10, "after "));
        assertThat(TestLogback.lines(shared.resolve("app.log.1"))).containsExactlyElementsOf(numbered(10, "before "));
        appender.stop();
        assertThat(appender.getStatistics().dropped()).isZero();
    }

    @Test
    void anOpenThatAFifoBlocksAndThatCannotBeFreedIsLeftBehindAndWritingResumes() throws Exception {
        appender = TestAppenders.start(context, log, a -> { });
        Path moved = shared.resolve("fifo-moved");
        AtomicBoolean swapped = new AtomicBoolean();
        SafeFiles.betweenCheckAndOpen = file -> {
            if (file.equals(log) && swapped.compareAndSet(false, true)) {
                try {
                    Files.move(log, shared.resolve("taken"));
                    assertThat(new ProcessBuilder("mkfifo", log.toString()).start().waitFor()).isZero();
                    Thread away = new Thread(() -> { // once the open waits on it, the FIFO leaves the name
                        try {
                            Thread.sleep(200);
                            Files.move(log, moved, StandardCopyOption.ATOMIC_MOVE);
                        } catch (Exception e) {
                            throw new AssertionError(e);
                        }
                    });
                    away.start();
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
            }
        };
        replaceTheLogWithANewFileOfThisUser();
        log(10, "after ");
        awaitError("the open of the log file " + log + " did not return within");
        assertThat(CheckedOpens.leftBehind()).isEqualTo(1);
        // its other end: the open left behind returns, and its channel is closed
        FileChannel.open(moved, StandardOpenOption.READ, StandardOpenOption.WRITE).close();
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> CheckedOpens.leftBehind() == 0);
        awaitWritten(10);
        assertThat(TestLogback.lines(log)).containsExactlyElementsOf(numbered(10, "after "));
        assertThat(Files.size(moved)).isZero();
    }

    /**
     * An operator's roll by hand: the log keeps its lines as {@code app.log.1}, and a new empty file of this user
     * takes its name in one rename, so the drainer finds a file there (which it checks, then opens).
     */
    private void replaceTheLogWithANewFileOfThisUser() throws Exception {
        Files.createLink(shared.resolve("app.log.1"), log);
        Path fresh = Files.createFile(shared.resolve("fresh"));
        Files.move(fresh, log, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

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
}
