package io.github.lockfreelog.autoconfigure;

import static io.github.lockfreelog.autoconfigure.LogbackTestSupport.appenders;
import static io.github.lockfreelog.autoconfigure.LogbackTestSupport.awaitContent;
import static io.github.lockfreelog.autoconfigure.LogbackTestSupport.lockFreeAppenders;
import static io.github.lockfreelog.autoconfigure.LogbackTestSupport.root;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.core.FileAppender;
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
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

/** Full {@code SpringApplication} runs: what Spring Boot's logging initialisation does to the appender. */
@ExtendWith(OutputCaptureExtension.class)
class LockFreeLogApplicationTests {

    @TempDir
    Path dir;

    @AfterEach
    void cleanUp() {
        LogbackTestSupport.cleanUp();
    }

    private SpringApplicationBuilder application(String... properties) {
        return new SpringApplicationBuilder(TestApplication.class).main(TestApplication.class)
                .web(WebApplicationType.NONE)
                .properties("logging.file.name=" + dir.resolve("app.log"), "lockfreelog.buffer-size=64KB",
                        "lockfreelog.buffer-count=2", "lockfreelog.flush-interval=20ms", "spring.jmx.enabled=false")
                .properties(properties);
    }

    @Test
    void startUpLinesShouldBeInTheFileWrittenOnlyByTheLockFreeAppender() {
        try (ConfigurableApplicationContext context = application().run()) {
            String content = awaitContent(dir.resolve("app.log"), "Started LockFreeLogApplicationTests.TestApplication in");
            assertThat(content).contains("Starting LockFreeLogApplicationTests.TestApplication using Java")
                    .contains("No active profile set, falling back to 1 default profile");
            // The first line of the run is there exactly once: one file, written once.
            assertThat(content.split("Starting LockFreeLogApplicationTests.TestApplication using Java", -1)).hasSize(2);
            assertThat(appenders(root())).noneMatch(a -> a instanceof FileAppender);
            assertThat(lockFreeAppenders()).singleElement()
                    .isSameAs(context.getBean(LockFreeLogAttachment.class).getAppender())
                    .satisfies(a -> assertThat(a.getFile()).isEqualTo(dir.resolve("app.log").toString()));
        }
    }

    @Test
    void secondRunAfterTheFirstClosedShouldKeepExactlyOneAppenderAndItsCounters() {
        LockFreeFileAppender first;
        long appendedBefore;
        try (ConfigurableApplicationContext context = application().run()) {
            first = context.getBean(LockFreeLogAttachment.class).getAppender();
            for (int i = 0; i < 20; i++) {
                LoggerFactory.getLogger("test.rerun").info("first run {}", i);
            }
            appendedBefore = first.getStatistics().appended();
        }
        try (ConfigurableApplicationContext context = application().run()) {
            assertThat(lockFreeAppenders()).containsExactly(first);
            assertThat(appenders(root())).filteredOn(a -> a == first).hasSize(1);
            assertThat(first.isStarted()).isTrue();
            assertThat(context.getBean(LockFreeLogAttachment.class).getAppender()).isSameAs(first);
            LoggerFactory.getLogger("test.rerun").info("second run");
            // Counters go on from the first run: the start-up lines of the second run add to them.
            assertThat(first.getStatistics().appended()).isGreaterThan(appendedBefore + 1);
            String content = awaitContent(dir.resolve("app.log"), "second run");
            assertThat(content).contains("first run 19");
            assertThat(content.split("Starting LockFreeLogApplicationTests.TestApplication using Java", -1)).hasSize(3);
        }
    }

    @Test
    void secondRunWhileTheFirstIsOpenShouldKeepExactlyOneAppender() {
        try (ConfigurableApplicationContext one = application().run();
                ConfigurableApplicationContext two = application().run()) {
            LockFreeFileAppender appender = one.getBean(LockFreeLogAttachment.class).getAppender();
            assertThat(two.getBean(LockFreeLogAttachment.class).getAppender()).isSameAs(appender);
            assertThat(lockFreeAppenders()).containsExactly(appender);
        }
    }

    @Test
    void runWhenEnabledIsFalseShouldLeaveSpringBootsFileAppenderInPlace() {
        try (ConfigurableApplicationContext context = application("lockfreelog.enabled=false").run()) {
            assertThat(lockFreeAppenders()).isEmpty();
            assertThat(appenders(root())).anyMatch(a -> a instanceof FileAppender && "FILE".equals(a.getName()));
            awaitContent(dir.resolve("app.log"), "Started LockFreeLogApplicationTests.TestApplication in");
        }
    }

    @Test
    void appenderDeclaredInTheLogbackConfigurationShouldBeUsedAsItIsAndReported() {
        try (ConfigurableApplicationContext context = application(
                "logging.config=classpath:lockfreelog-declared-logback.xml").run()) {
            assertThat(context.getBean(LockFreeLogAttachment.class).getAppender()).isNull();
            LockFreeFileAppender declared = context.getBean(LockFreeLogAppenders.class).get("XML_FILE");
            assertThat(declared).isNotNull();
            assertThat(LockFreeLogAppenders.isAutoConfigured(declared)).isFalse();
            assertThat(lockFreeAppenders()).containsExactly(declared);
            awaitContent(dir.resolve("app.log"), "xml INFO io.github.lockfreelog.autoconfigure.LockFreeLogApplicationTests$TestApplication : Started");
        }
    }

    @Test
    void invalidValueShouldFailStartUpWithAReportNamingThePropertyAndTheAllowedValues(CapturedOutput output) {
        assertThatThrownBy(() -> application("lockfreelog.buffer-count=1").run())
                .isInstanceOf(InvalidLockFreeLogPropertyException.class);
        assertThat(output).contains("APPLICATION FAILED TO START")
                .contains("Property: lockfreelog.buffer-count")
                .contains("Value: 1")
                .contains("Reason: an integer from 2 to 16")
                .contains("set 'lockfreelog.buffer-count' to a value that is allowed");
        assertThat(lockFreeAppenders()).isEmpty();
    }

    @Test
    void unknownBackpressureShouldFailStartUpListingTheAllowedValues(CapturedOutput output) {
        assertThatThrownBy(() -> application("lockfreelog.backpressure=SOMETIMES").run()).isNotNull();
        assertThat(output).contains("APPLICATION FAILED TO START").contains("lockfreelog.backpressure")
                .contains("SOMETIMES").containsPattern("(?s)The following values are valid:\\s+BLOCK\\s+DROP");
    }

    @Test
    void failureAnalyzerShouldDescribeTheProperty() {
        FailureAnalysis analysis = new LockFreeLogFailureAnalyzer().analyze(new IllegalStateException("wrapped",
                new InvalidLockFreeLogPropertyException("lockfreelog.drop-below-level", "LOUD",
                        "one of TRACE, DEBUG, INFO, WARN, ERROR, OFF")));
        assertThat(analysis.getDescription()).contains("Property: lockfreelog.drop-below-level").contains("Value: LOUD")
                .contains("one of TRACE, DEBUG, INFO, WARN, ERROR, OFF");
        assertThat(analysis.getAction()).contains("'lockfreelog.drop-below-level'");
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class TestApplication {
    }
}
