package io.github.lockfreelog.autoconfigure;

import static io.github.lockfreelog.autoconfigure.LogbackTestSupport.appenders;
import static io.github.lockfreelog.autoconfigure.LogbackTestSupport.awaitContent;
import static io.github.lockfreelog.autoconfigure.LogbackTestSupport.lockFreeAppenders;
import static io.github.lockfreelog.autoconfigure.LogbackTestSupport.root;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.core.FileAppender;
import io.github.lockfreelog.autoconfigure.actuate.LockFreeLogAppenders;
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
import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.properties.bind.BindException;
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
    void runWhenTheAutoConfigurationIsExcludedShouldLeaveSpringBootsFileAppenderInPlace() {
        try (ConfigurableApplicationContext context = application(
                "spring.autoconfigure.exclude=" + LockFreeLogAutoConfiguration.class.getName()).run()) {
            assertThat(context.getBeansOfType(LockFreeLogAttachment.class)).isEmpty();
            assertThat(LockFreeLogAppenderHolder.current()).isNull();
            assertThat(lockFreeAppenders()).isEmpty();
            assertThat(appenders(root())).anyMatch(a -> a instanceof FileAppender && "FILE".equals(a.getName()));
            awaitContent(dir.resolve("app.log"), "Started LockFreeLogApplicationTests.TestApplication in");
        }
    }

    @Test
    void runWhenAnotherAutoConfigurationIsExcludedShouldStillAttach() {
        try (ConfigurableApplicationContext context = application(
                "spring.autoconfigure.exclude[0]=org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration",
                "spring.autoconfigure.exclude[1]=" + LockFreeLogAutoConfiguration.class.getName() + "Other").run()) {
            assertThat(lockFreeAppenders()).singleElement().isSameAs(LockFreeLogAppenderHolder.current());
        }
    }

    @Test
    void closingTheContextWithoutLoggingShutdownHookShouldDrainAndStopTheAppender() throws IOException {
        Path log = dir.resolve("app.log");
        Path journal = dir.resolve(".lockfreelog/app.log.journal");
        LockFreeFileAppender first;
        try (ConfigurableApplicationContext context = application("logging.register-shutdown-hook=false")
                .sources(ShutdownLoggingBean.class).run()) {
            first = context.getBean(LockFreeLogAttachment.class).getAppender();
            assertThat(journal).exists();
            for (int i = 0; i < 500; i++) {
                LoggerFactory.getLogger("test.war").info("before close {}", i);
            }
        }
        // What a servlet container does on undeploy: nothing stops Logback, so the context close must.
        assertThat(first.isStarted()).isFalse();
        assertThat(LockFreeLogAppenderHolder.current()).isNull();
        assertThat(lockFreeAppenders()).isEmpty();
        assertThat(Files.size(journal)).isZero();
        String content = LogbackTestSupport.read(log);
        for (int i = 0; i < 500; i++) {
            assertThat(content).contains("before close " + i + "\n");
        }
        // Beans destroyed while the context closes still have their lines written.
        assertThat(content).contains("user bean destroyed");
        assertThat(first.getStatistics().dropped()).isZero();

        // A redeploy into the same JVM: the journal is free again.
        try (ConfigurableApplicationContext context = application("logging.register-shutdown-hook=false").run()) {
            LockFreeFileAppender second = context.getBean(LockFreeLogAttachment.class).getAppender();
            assertThat(second).isNotSameAs(first);
            assertThat(second.isStarted()).isTrue();
            LoggerFactory.getLogger("test.war").info("after redeploy");
            assertThat(awaitContent(log, "after redeploy")).contains("before close 499");
        }
    }

    @Test
    void closingOneOfTwoContextsWithoutLoggingShutdownHookShouldKeepTheAppenderForTheOther() {
        try (ConfigurableApplicationContext two = application("logging.register-shutdown-hook=false").run()) {
            LockFreeFileAppender appender = two.getBean(LockFreeLogAttachment.class).getAppender();
            application("logging.register-shutdown-hook=false").run().close();
            assertThat(appender.isStarted()).isTrue();
            assertThat(lockFreeAppenders()).containsExactly(appender);
        }
    }

    @Test
    void stoppingLogbackAsSpringBootsShutdownHookDoesShouldDrainAndStopTheAppender() throws IOException {
        Path journal = dir.resolve(".lockfreelog/app.log.journal");
        LockFreeFileAppender appender;
        try (ConfigurableApplicationContext context = application().run()) {
            appender = context.getBean(LockFreeLogAttachment.class).getAppender();
            for (int i = 0; i < 500; i++) {
                LoggerFactory.getLogger("test.hook").info("before exit {}", i);
            }
        }
        // With the hook (the default) the appender outlives the context, as Spring Boot's file appender does ...
        assertThat(appender.isStarted()).isTrue();
        LoggerFactory.getLogger("test.hook").info("after close");
        // ... until the hook stops Logback (LogbackLoggingSystem's shutdown handler: LoggerContext.stop()).
        try {
            LogbackTestSupport.loggerContext().stop();
            assertThat(appender.isStarted()).isFalse();
            assertThat(Files.size(journal)).isZero();
            String content = LogbackTestSupport.read(dir.resolve("app.log"));
            for (int i = 0; i < 500; i++) {
                assertThat(content).contains("before exit " + i + "\n");
            }
            assertThat(content).contains("after close\n");
            assertThat(appender.getStatistics().dropped()).isZero();
        } finally {
            LogbackTestSupport.loggerContext().start();
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
        // Bound by the listener while logging is set up, so Spring's BindException reaches the caller as it is.
        assertThatThrownBy(() -> application("lockfreelog.backpressure=SOMETIMES").run())
                .isInstanceOf(BindException.class).hasMessageContaining("lockfreelog.backpressure")
                .rootCause().hasMessageContaining("SOMETIMES");
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

    /** A user bean that logs while the context closes; created before the auto-configured beans, destroyed after. */
    static class ShutdownLoggingBean implements DisposableBean {

        @Override
        public void destroy() {
            LoggerFactory.getLogger("test.war").info("user bean destroyed");
        }
    }
}
