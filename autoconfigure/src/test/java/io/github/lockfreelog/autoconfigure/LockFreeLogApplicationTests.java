package io.github.lockfreelog.autoconfigure;

import static io.github.lockfreelog.autoconfigure.LogbackTestSupport.appenders;
import static io.github.lockfreelog.autoconfigure.LogbackTestSupport.awaitContent;
import static io.github.lockfreelog.autoconfigure.LogbackTestSupport.lockFreeAppenders;
import static io.github.lockfreelog.autoconfigure.LogbackTestSupport.root;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.core.FileAppender;
import io.github.lockfreelog.logback.LockFreeFileAppender;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
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
    void logFileShouldRollWithSpringBootsRollingPolicyIntoArchivesOfWholeLines() throws IOException {
        int events = 3000;
        String padding = "x".repeat(60);
        Path log = dir.resolve("app.log");
        try (ConfigurableApplicationContext context = application("logging.logback.rollingpolicy.max-file-size=64KB").run()) {
            LockFreeFileAppender appender = context.getBean(LockFreeLogAttachment.class).getAppender();
            assertThat(appender.getFileNamePattern()).isEqualTo(log + ".%d{yyyy-MM-dd}.%i.gz");
            org.slf4j.Logger logger = LoggerFactory.getLogger("test.rolling");
            for (int i = 0; i < events; i++) {
                logger.info("rolling event {} {}", i, padding);
            }
            awaitContent(log, "rolling event " + (events - 1) + " ");
        }
        // About 450KB of lines: several archives, compressed by a background thread after each roll.
        String prefix = log.getFileName() + "." + LocalDate.now() + ".";
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(archives(prefix))
                .hasSizeGreaterThanOrEqualTo(5).allMatch(p -> p.toString().endsWith(".gz")));
        Map<Integer, Integer> seen = new HashMap<>();
        List<String> texts = new ArrayList<>();
        for (Path archive : archives(prefix)) {
            try (InputStream in = new GZIPInputStream(Files.newInputStream(archive))) {
                texts.add(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            }
        }
        texts.add(LogbackTestSupport.read(log));
        for (String text : texts.subList(0, texts.size() - 1)) {
            assertThat(text.length()).isLessThanOrEqualTo(64 * 1024);
        }
        for (String text : texts) {
            assertThat(text).endsWith("\n");
            for (String line : text.split("\n")) {
                // Every line is whole: it starts with the date of Spring Boot's pattern.
                assertThat(line).matches("\\d{4}-\\d\\d-\\d\\dT.*");
                Matcher matcher = ROLLING_EVENT.matcher(line);
                if (matcher.find()) {
                    assertThat(line).endsWith(padding);
                    seen.merge(Integer.parseInt(matcher.group(1)), 1, Integer::sum);
                }
            }
        }
        assertThat(seen).hasSize(events).allSatisfy((event, count) -> assertThat(count).isOne());
    }

    private static final Pattern ROLLING_EVENT = Pattern.compile("rolling event (\\d+) ");

    private List<Path> archives(String prefix) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.getFileName().toString().startsWith(prefix)).sorted().toList();
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
