package io.github.lockfreelog.autoconfigure;

import static io.github.lockfreelog.autoconfigure.LogbackTestSupport.appenders;
import static io.github.lockfreelog.autoconfigure.LogbackTestSupport.awaitContent;
import static io.github.lockfreelog.autoconfigure.LogbackTestSupport.root;
import static io.github.lockfreelog.autoconfigure.LogbackTestSupport.runtime;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.core.FileAppender;
import io.github.lockfreelog.autoconfigure.actuate.LockFreeLogAppenders;
import io.github.lockfreelog.testsupport.OtherUser;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The lock-free file refused at start (a folder or file that another user holds, that is open to others, that the
 * application may not create) never stops the application: it starts, logs through Spring Boot's own {@code FILE}
 * where the starter was to take its place (else through the console alone), and says once what was refused and what
 * to set. Another user is {@code nobody}: a process run as that user through {@code setpriv}, or a folder given to
 * that user (as a job run as another user leaves one); both need root, and are skipped elsewhere.
 */
@ExtendWith(OutputCaptureExtension.class)
@Timeout(value = 120, unit = TimeUnit.SECONDS) // a FIFO opened by mistake would block for ever
class LockFreeLogRefusalTests {

    @TempDir
    Path dir;

    @AfterEach
    void cleanUp() {
        LogbackTestSupport.cleanUp();
    }

    @Test
    void aJournalFolderOfAnotherUserLeavesSpringBootsFileWritingTheLogWithOneWarning(CapturedOutput output)
            throws Exception {
        Path logs = folder("logs", "755");
        Path hidden = Files.createDirectory(logs.resolve(".lockfreelog"));
        Files.setOwner(hidden, OtherUser.nobody()); // as a job run as another user leaves it
        Path log = logs.resolve("app.log");
        try (ConfigurableApplicationContext context = LogbackTestSupport.application(TestApplication.class,
                "logging.file.name=" + log).run()) {
            assertThat(runtime().appender()).as("no lock-free file").isNull();
            assertThat(appenders(root())).anyMatch(a -> a instanceof FileAppender && a.getName().equals("FILE"));
            LoggerFactory.getLogger(LockFreeLogRefusalTests.class).info("a line after the refusal");
            String content = awaitContent(log, "a line after the refusal");
            assertThat(content).as("Spring Boot's FILE wrote the start-up lines too")
                    .contains("Started LockFreeLogRefusalTests.TestApplication in");
            List<String> said = lines(output, "lockfreelog: Spring Boot's own FILE appender writes " + log);
            assertThat(said).as("said once, in the console").singleElement().satisfies(line -> assertThat(line)
                    .contains(" WARN ").contains("not lock-free: the lock-free appender for " + log + " was refused")
                    .contains("the folder " + hidden + " is owned by nobody")
                    .contains("set lockfreelog.file.journal to a place of this application's user"));
            assertThat(content).as("and in the log itself").contains("was refused");
            assertThat(context.getBean(LockFreeLogAppenders.class).absence())
                    .contains("was refused").contains("Spring Boot's own FILE appender writes the log");
        }
        try (var found = Files.list(hidden)) {
            assertThat(found).as("nothing put in the other user's folder").isEmpty();
        }
    }

    @Test
    void aFifoAnotherUserPutAtALogFileOfTheStartersOwnStopsNothing(CapturedOutput output) throws Exception {
        OtherUser.assumeAvailable();
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx--x--x")); // nobody may pass through
        Path shared = folder("shared", "1777");
        Path log = shared.resolve("app.log");
        Process mkfifo = new ProcessBuilder("setpriv", "--reuid=" + OtherUser.UID, "--regid=" + OtherUser.UID,
                "--clear-groups", "mkfifo", log.toString()).inheritIO().start();
        assertThat(mkfifo.waitFor(30, TimeUnit.SECONDS) && mkfifo.exitValue() == 0).as("mkfifo as nobody").isTrue();
        assertThat((Integer) Files.getAttribute(log, "unix:uid", LinkOption.NOFOLLOW_LINKS)).isEqualTo(OtherUser.UID);
        try (ConfigurableApplicationContext context = LogbackTestSupport.application(TestApplication.class,
                "lockfreelog.file.name=" + log).run()) {
            assertThat(runtime().appender()).isNull();
            LoggerFactory.getLogger(LockFreeLogRefusalTests.class).info("a line after the refusal");
            await().atMost(Duration.ofSeconds(10)).until(() -> output.getOut().contains("a line after the refusal"));
            assertThat(lines(output, "lockfreelog: " + log + " is not written")).singleElement().satisfies(line ->
                    assertThat(line).contains(" ERROR ").contains("the log file " + log + " is a FIFO, socket or device"
                            + " of nobody").contains("Every line still reaches the console")
                            .contains("set lockfreelog.file.name to a place of this application's user")
                            .doesNotContain("app.log.lockfreelog"));
            assertThat(context.getBean(LockFreeLogAppenders.class).absence()).contains("the log file is not written");
        }
        assertThat(Files.isRegularFile(log, LinkOption.NOFOLLOW_LINKS)).as("still their FIFO").isFalse();
    }

    private static List<String> lines(CapturedOutput output, String text) {
        return output.getOut().lines().filter(l -> l.contains(text)).toList();
    }

    /** A folder of {@code mode} (octal, as chmod takes it) owned by this user. */
    private Path folder(String name, String mode) throws Exception {
        Path folder = Files.createDirectory(dir.resolve(name));
        assertThat(new ProcessBuilder("chmod", mode, folder.toString()).start().waitFor()).as("chmod").isZero();
        return folder;
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class TestApplication {
    }
}
