package io.github.lockfreelog.autoconfigure;

import static io.github.lockfreelog.autoconfigure.LogbackTestSupport.appenders;
import static io.github.lockfreelog.autoconfigure.LogbackTestSupport.awaitContent;
import static io.github.lockfreelog.autoconfigure.LogbackTestSupport.loggerContext;
import static io.github.lockfreelog.autoconfigure.LogbackTestSupport.root;
import static io.github.lockfreelog.autoconfigure.LogbackTestSupport.runtime;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.core.rolling.RollingFileAppender;
import io.github.lockfreelog.logback.LockFreeFileAppender;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * {@code lockfreelog.loggers} with Spring Boot's log file ({@code logging.file.name}): every line of every logger that
 * Spring Boot's {@code FILE} would have written is in the file exactly once, whatever the list; a file of the
 * starter's own ({@code lockfreelog.file}) holds the listed loggers' lines, each once.
 */
@ExtendWith(OutputCaptureExtension.class)
class LockFreeLogLoggersTests {

    private static final String STARTED = "Started LockFreeLogLoggersTests.TestApplication in";

    @TempDir
    Path dir;

    @AfterEach
    void cleanUp() {
        LogbackTestSupport.cleanUp();
    }

    private SpringApplicationBuilder application(String... properties) {
        return LogbackTestSupport.application(TestApplication.class, properties);
    }

    /** Logs two lines of the application's logger and one of another, then waits for the last in {@code file}. */
    private static String logAndRead(Path file, String last) {
        LoggerFactory.getLogger("com.example.app").info("app one");
        LoggerFactory.getLogger("com.example.app").info("app two");
        LoggerFactory.getLogger("org.other.lib").info("other one");
        LoggerFactory.getLogger("com.example.audit").info("audit one");
        LoggerFactory.getLogger("com.example.app").info(last);
        return awaitContent(file, last);
    }

    private static long count(String content, String message) {
        return content.lines().filter(line -> line.endsWith(message)).count();
    }

    @Test
    void oneApplicationLoggerListedLosesNoOtherLoggersLineOfSpringBootsFile(CapturedOutput output) {
        Path log = dir.resolve("app.log");
        try (ConfigurableApplicationContext context = application("logging.file.name=" + log,
                "lockfreelog.loggers=com.example").run()) {
            String content = logAndRead(log, "the end");
            assertThat(content).as("Spring Boot's own start-up lines, as its FILE writes them").contains(STARTED);
            assertThat(count(content, "app one")).isEqualTo(1);
            assertThat(count(content, "app two")).isEqualTo(1);
            assertThat(count(content, "other one")).isEqualTo(1);
            assertThat(count(content, "audit one")).isEqualTo(1);
            assertThat(appenders(root())).contains(runtime().appender())
                    .noneMatch(a -> a instanceof RollingFileAppender);
            assertThat(output).contains("lockfreelog.loggers=[com.example]");
        }
    }

    @Test
    void rootAndAnApplicationLoggerListedWriteEachLineOnce() {
        Path log = dir.resolve("app.log");
        try (ConfigurableApplicationContext context = application("logging.file.name=" + log,
                "lockfreelog.loggers=ROOT,com.example").run()) {
            String content = logAndRead(log, "the end");
            assertThat(content).containsOnlyOnce(STARTED);
            assertThat(count(content, "app one")).isEqualTo(1);
            assertThat(count(content, "app two")).isEqualTo(1);
            assertThat(count(content, "other one")).isEqualTo(1);
            assertThat(count(content, "the end")).isEqualTo(1);
        }
    }

    @Test
    void aListedLoggerWithoutAdditivityIsWrittenOnceBesideTheRoot() {
        Path log = dir.resolve("app.log");
        try (ConfigurableApplicationContext context = application("logging.file.name=" + log,
                "logging.config=classpath:additivity-false-logback-spring.xml",
                "lockfreelog.loggers=ROOT,com.example.audit,com.example").run()) {
            LockFreeFileAppender appender = runtime().appender();
            assertThat(appenders(loggerContext().getLogger("com.example.audit"))).containsExactly(appender);
            assertThat(appenders(loggerContext().getLogger("com.example"))).doesNotContain(appender);
            String content = logAndRead(log, "the end");
            assertThat(count(content, "audit one")).isEqualTo(1);
            assertThat(count(content, "app one")).isEqualTo(1);
            assertThat(count(content, "other one")).isEqualTo(1);
            assertThat(content).containsOnlyOnce(STARTED);
        }
    }

    @Test
    void withoutAdditivityAndNotListedALoggerStaysOutAsSpringBootsFileLeftIt() {
        Path log = dir.resolve("app.log");
        try (ConfigurableApplicationContext context = application("logging.file.name=" + log,
                "logging.config=classpath:additivity-false-logback-spring.xml").run()) {
            String content = logAndRead(log, "the end");
            assertThat(count(content, "audit one")).isZero();
            assertThat(count(content, "app one")).isEqualTo(1);
        }
    }

    @Test
    void aFileOfItsOwnHoldsOnlyTheListedLoggersLinesEachOnce() {
        // lockfreelog.file.name in place of logging.file.name: Spring Boot writes no file, so the lock-free file
        // replaces nothing and holds the listed loggers alone (a second file beside Boot's is refused).
        Path own = dir.resolve("example.log");
        try (ConfigurableApplicationContext context = application("lockfreelog.file.name=" + own,
                "lockfreelog.loggers=com.example,com.example.app").run()) {
            LoggerFactory.getLogger("com.example.app").info("app one");
            LoggerFactory.getLogger("org.other.lib").info("other one");
            LoggerFactory.getLogger("com.example.audit").info("the end");
            String mine = awaitContent(own, "the end");
            assertThat(mine.lines().toList()).hasSize(2);
            assertThat(count(mine, "app one")).isEqualTo(1);
            assertThat(mine).doesNotContain("other one").doesNotContain(STARTED);
            assertThat(appenders(root())).noneMatch(a -> a instanceof RollingFileAppender)
                    .doesNotContain(runtime().appender());
            assertThat(appenders(loggerContext().getLogger("com.example"))).containsExactly(runtime().appender());
            assertThat(appenders(loggerContext().getLogger("com.example.app"))).isEmpty();
        }
    }

    @Test
    void theLockFreeConsoleKeepsEveryLoggerOfSpringBootsConsole() {
        try (ConfigurableApplicationContext context = application("lockfreelog.console.enabled=true",
                "lockfreelog.console.journal=" + dir.resolve("console.journal"), "lockfreelog.loggers=com.example").run()) {
            assertThat(runtime().console()).isNotNull();
            assertThat(appenders(root())).contains(runtime().console()).noneMatch(a -> "CONSOLE".equals(a.getName()));
            assertThat(appenders(loggerContext().getLogger("com.example"))).doesNotContain(runtime().console());
        }
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class TestApplication {
    }
}
