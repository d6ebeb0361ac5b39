package io.github.lockfreelog.autoconfigure;

import static io.github.lockfreelog.autoconfigure.LogbackTestSupport.appenders;
import static io.github.lockfreelog.autoconfigure.LogbackTestSupport.awaitContent;
import static io.github.lockfreelog.autoconfigure.LogbackTestSupport.lockFreeAppenders;
import static io.github.lockfreelog.autoconfigure.LogbackTestSupport.root;
import static io.github.lockfreelog.autoconfigure.LogbackTestSupport.runtime;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.core.FileAppender;
import io.github.lockfreelog.autoconfigure.properties.InvalidLockFreeLogPropertyException;
import io.github.lockfreelog.autoconfigure.properties.LockFreeLogProperties;
import io.github.lockfreelog.engine.Backpressure;
import io.github.lockfreelog.logback.LockFreeFileAppender;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The shape of the settings in full runs: the file's under {@code lockfreelog.file.*}, the console's under
 * {@code lockfreelog.console.*}, and one log file.
 */
@ExtendWith(OutputCaptureExtension.class)
class LockFreeLogPropertiesTests {

    @TempDir
    Path dir;

    @AfterEach
    void cleanUp() {
        LogbackTestSupport.cleanUp();
    }

    /** A run with the engine's defaults (not the small buffers of the other tests): the test sets what it names. */
    private SpringApplicationBuilder application(String... properties) {
        return new SpringApplicationBuilder(TestApplication.class).main(TestApplication.class)
                .web(WebApplicationType.NONE).properties("spring.jmx.enabled=false").properties(properties);
    }

    private String log() {
        return dir.resolve("app.log").toString();
    }

    @Test
    void theFilesSettingsAreItsOwnGroup() {
        Path journal = dir.resolve("journals/app.journal");
        try (ConfigurableApplicationContext context = application("logging.file.name=" + log(),
                "lockfreelog.file.buffer-size=128KB", "lockfreelog.file.buffer-count=4",
                "lockfreelog.file.backpressure=DROP", "lockfreelog.file.drop-below-level=WARN",
                "lockfreelog.file.max-event-size=16KB", "lockfreelog.file.max-block-time=50ms",
                "lockfreelog.file.flush-interval=30ms", "lockfreelog.file.journal=" + journal).run()) {
            LockFreeFileAppender appender = runtime().appender();
            assertThat(appender.getBufferSize().getSize()).isEqualTo(128 * 1024);
            assertThat(appender.getBufferCount()).isEqualTo(4);
            assertThat(appender.getBackpressure()).isEqualTo(Backpressure.DROP);
            assertThat(appender.getDropBelowLevel()).isEqualTo("WARN");
            assertThat(appender.getMaxEventSize().getSize()).isEqualTo(16 * 1024);
            assertThat(appender.getMaxBlockTime().getMilliseconds()).isEqualTo(50);
            assertThat(appender.getFlushInterval().getMilliseconds()).isEqualTo(30);
            assertThat(appender.getJournal()).isEqualTo(journal.toString());
            assertThat(journal).exists();
        }
    }

    @Test
    void theNewFileNameNamesTheFileWhenSpringBootHasNone() {
        Path own = dir.resolve("own.log");
        try (ConfigurableApplicationContext context = application("lockfreelog.file.name=" + own).run()) {
            assertThat(runtime().appender().getFile()).isEqualTo(own.toString());
        }
    }

    @Test
    void theSameFileNamedTwiceIsOneFile() {
        try (ConfigurableApplicationContext context = application("logging.file.name=" + log(),
                "lockfreelog.file.name=" + dir.resolve("./app.log")).run()) {
            assertThat(lockFreeAppenders()).singleElement().isSameAs(runtime().appender());
            assertThat(appenders(root())).noneMatch(a -> a instanceof FileAppender);
        }
    }

    @Test
    void twoDifferentFileNamesAreRefusedNamingBoth(CapturedOutput output) {
        Path other = dir.resolve("other.log");
        assertThatThrownBy(() -> application("logging.file.name=" + log(), "lockfreelog.file.name=" + other).run())
                .isInstanceOf(InvalidLockFreeLogPropertyException.class);
        assertThat(output).contains("APPLICATION FAILED TO START").contains("Property: lockfreelog.file.name")
                .contains("Value: \"" + other + "\"").containsPattern("Origin: .*lockfreelog.file.name")
                .contains("Reason: the file logging.file.name names (\"" + log() + "\")");
        assertThat(lockFreeAppenders()).isEmpty();
    }

    @Test
    void aFileNameBesideSpringBootsLogFolderIsRefusedNamingTheFolder(CapturedOutput output) {
        Path other = dir.resolve("other.log");
        assertThatThrownBy(() -> application("logging.file.path=" + dir, "lockfreelog.file.name=" + other).run())
                .isInstanceOf(InvalidLockFreeLogPropertyException.class);
        assertThat(output).contains("Property: lockfreelog.file.name")
                .contains("Reason: the file logging.file.path names (\"" + dir.resolve("spring.log") + "\")");
    }

    @Test
    void aBadOldNameIsReportedUnderTheNameAsWritten(CapturedOutput output) {
        assertThatThrownBy(() -> application("logging.file.name=" + log(), "lockfreelog.file.buffer-count=1").run())
                .isInstanceOf(InvalidLockFreeLogPropertyException.class);
        assertThat(output).contains("Property: lockfreelog.file.buffer-count\n").contains("Value: \"1\"")
                .containsPattern("Origin: .*\"lockfreelog.file.buffer-count\"");
    }

    @Test
    void aBadConsoleValueIsReportedUnderTheConsolesName(CapturedOutput output) {
        // The journal cannot be made, so that where the console took the file's settings it stays Spring Boot's own.
        assertThatThrownBy(() -> application("lockfreelog.console.enabled=true", "lockfreelog.console.buffer-count=1",
                "lockfreelog.console.journal=/proc/lockfreelog/console.journal").run())
                .isInstanceOf(InvalidLockFreeLogPropertyException.class);
        assertThat(output).contains("Property: lockfreelog.console.buffer-count").contains("Value: \"1\"")
                .contains("Reason: 2 to 16");
    }

    @Test
    void aFileCharsetWhoseNewlineIsNotOneByteIsRefusedUnderSpringBootsProperty(CapturedOutput output) {
        assertThatThrownBy(() -> application("logging.file.name=" + log(), "logging.charset.file=UTF-16").run())
                .isInstanceOf(InvalidLockFreeLogPropertyException.class);
        assertThat(output).contains("Property: logging.charset.file\n").contains("Value: \"UTF-16\"")
                .containsPattern("Origin: .*\"logging.charset.file\"").contains("newline is the one byte 0x0A");
        assertThat(lockFreeAppenders()).isEmpty();
    }

    @Test
    void aConsoleCharsetWhoseNewlineIsNotOneByteIsRefusedUnderSpringBootsProperty() {
        // The report itself goes to Spring Boot's console, in UTF-32: the exception says what it reports.
        assertThatThrownBy(() -> application("lockfreelog.console.enabled=true", "logging.charset.console=UTF-32",
                "lockfreelog.console.journal=" + dir.resolve("console.journal")).run())
                .isInstanceOfSatisfying(InvalidLockFreeLogPropertyException.class, refused -> {
                    assertThat(refused.getName()).isEqualTo("logging.charset.console");
                    assertThat(refused.getValue()).isEqualTo("UTF-32");
                    assertThat(refused.getReason()).contains("newline is the one byte 0x0A");
                });
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class TestApplication {
    }
}
