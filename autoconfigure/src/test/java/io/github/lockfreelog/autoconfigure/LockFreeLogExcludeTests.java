package io.github.lockfreelog.autoconfigure;

import static io.github.lockfreelog.autoconfigure.LogbackTestSupport.appenders;
import static io.github.lockfreelog.autoconfigure.LogbackTestSupport.awaitContent;
import static io.github.lockfreelog.autoconfigure.LogbackTestSupport.lockFreeAppenders;
import static io.github.lockfreelog.autoconfigure.LogbackTestSupport.root;
import static io.github.lockfreelog.autoconfigure.LogbackTestSupport.runtime;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.core.rolling.RollingFileAppender;
import io.github.lockfreelog.autoconfigure.actuate.LockFreeLogAppenders;
import io.github.lockfreelog.autoconfigure.excluded.ExcludingApplication;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Turning the starter off the Spring Boot way, in the application's own annotation
 * ({@code @SpringBootApplication(exclude = ...)}, {@code @EnableAutoConfiguration(excludeName = ...)}): Spring Boot's
 * {@code FILE} writes the log file as it would without the starter, no lock-free appender is attached, no journal is
 * made, and the context has none of the starter's beans.
 */
class LockFreeLogExcludeTests {

    @TempDir
    Path dir;

    @AfterEach
    void cleanUp() {
        LogbackTestSupport.cleanUp();
    }

    private void assertSpringBootsFileWritesAlone(ConfigurableApplicationContext context, Path log, String started,
            Class<?> application) throws IOException {
        assertThat(lockFreeAppenders()).isEmpty();
        assertThat(runtime().appender()).isNull();
        assertThat(runtime().absence()).isEqualTo("the starter is turned off: the exclude of @EnableAutoConfiguration"
                + " (or @SpringBootApplication) on " + application.getName() + " names "
                + LockFreeLogAutoConfiguration.class.getName());
        assertThat(appenders(root())).anyMatch(a -> "FILE".equals(a.getName()) && a instanceof RollingFileAppender
                && a.isStarted());
        assertThat(context.getBeansOfType(LockFreeLogAppenders.class)).isEmpty();
        LoggerFactory.getLogger("com.example.app").info("written by FILE");
        // Spring Boot's FILE writes synchronously: the line is in the file as the call returns.
        String content = awaitContent(log, "written by FILE");
        assertThat(content).containsOnlyOnce(started).containsOnlyOnce("written by FILE");
        try (Stream<Path> files = Files.walk(dir)) {
            assertThat(files.map(Path::toString)).noneMatch(name -> name.endsWith(".journal"));
        }
    }

    @Test
    void springBootApplicationExcludeTurnsTheStarterOff() throws IOException {
        Path log = dir.resolve("app.log");
        try (ConfigurableApplicationContext context = LogbackTestSupport.application(ExcludingApplication.class,
                "logging.file.name=" + log).run()) {
            assertSpringBootsFileWritesAlone(context, log, "Started ExcludingApplication in",
                    ExcludingApplication.class);
        }
    }

    @Test
    void enableAutoConfigurationExcludeNameTurnsTheStarterOff() throws IOException {
        Path log = dir.resolve("app.log");
        try (ConfigurableApplicationContext context = LogbackTestSupport.application(ExcludingByName.class,
                "logging.file.name=" + log).run()) {
            assertSpringBootsFileWritesAlone(context, log, "Started LockFreeLogExcludeTests.ExcludingByName in",
                    ExcludingByName.class);
        }
    }

    @Test
    void anExcludeOfAnotherAutoConfigurationLeavesTheStarterOn() {
        Path log = dir.resolve("app.log");
        try (ConfigurableApplicationContext context = LogbackTestSupport.application(ExcludingAnother.class,
                "logging.file.name=" + log).run()) {
            assertThat(runtime().appender()).isNotNull();
            assertThat(lockFreeAppenders()).containsExactly(runtime().appender());
            assertThat(appenders(root())).noneMatch(a -> a instanceof RollingFileAppender);
        }
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration(excludeName = "io.github.lockfreelog.autoconfigure.LockFreeLogAutoConfiguration")
    static class ExcludingByName {
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration(exclude = LockFreeLogMetricsAutoConfiguration.class)
    static class ExcludingAnother {
    }
}
