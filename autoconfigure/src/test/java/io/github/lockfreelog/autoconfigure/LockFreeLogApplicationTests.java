package io.github.lockfreelog.autoconfigure;

import static io.github.lockfreelog.autoconfigure.LogbackTestSupport.appenders;
import static io.github.lockfreelog.autoconfigure.LogbackTestSupport.awaitContent;
import static io.github.lockfreelog.autoconfigure.LogbackTestSupport.lockFreeAppenders;
import static io.github.lockfreelog.autoconfigure.LogbackTestSupport.root;
import static io.github.lockfreelog.autoconfigure.LogbackTestSupport.runtime;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.core.FileAppender;
import io.github.lockfreelog.autoconfigure.actuate.LockFreeLogAppenders;
import io.github.lockfreelog.autoconfigure.logging.LockFreeLogRuntime;
import io.github.lockfreelog.autoconfigure.properties.InvalidLockFreeLogPropertyException;
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
        return LogbackTestSupport.application(TestApplication.class, "logging.file.name=" + dir.resolve("app.log"))
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
            assertThat(context.getBean(LockFreeLogRuntime.class)).as("the runtime's bean is the Logback context's")
                    .isSameAs(runtime());
            assertThat(lockFreeAppenders()).singleElement()
                    .isSameAs(runtime().appender())
                    .satisfies(a -> assertThat(((LockFreeFileAppender) a).getFile()).isEqualTo(dir.resolve("app.log").toString()));
        }
    }

    @Test
    void secondRunAfterTheFirstClosedShouldKeepExactlyOneAppenderAndItsCounters() {
        LockFreeFileAppender first;
        long appendedBefore;
        try (ConfigurableApplicationContext context = application().run()) {
            first = runtime().appender();
            for (int i = 0; i < 20; i++) {
                LoggerFactory.getLogger("test.rerun").info("first run {}", i);
            }
            appendedBefore = first.getStatistics().appended();
        }
        try (ConfigurableApplicationContext context = application().run()) {
            assertThat(lockFreeAppenders()).containsExactly(first);
            assertThat(appenders(root())).filteredOn(a -> a == first).hasSize(1);
            assertThat(first.isStarted()).isTrue();
            assertThat(runtime().appender()).isSameAs(first);
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
            LockFreeFileAppender appender = runtime().appender();
            assertThat(runtime().appender()).isSameAs(appender);
            assertThat(lockFreeAppenders()).containsExactly(appender);
        }
    }

    @Test
    void logFileShouldRollWithSpringBootsRollingPolicyIntoArchivesOfWholeLines() throws IOException {
        int events = 3000;
        String padding = "x".repeat(60);
        Path log = dir.resolve("app.log");
        try (ConfigurableApplicationContext context = application("logging.logback.rollingpolicy.max-file-size=64KB").run()) {
            LockFreeFileAppender appender = runtime().appender();
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
            assertThat(context.getBeansOfType(LockFreeLogAppenders.class)).isEmpty();
            assertThat(runtime().appender()).isNull();
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
            assertThat(lockFreeAppenders()).singleElement().isSameAs(runtime().appender());
        }
    }

    @Test
    void closingTheContextWithoutLoggingShutdownHookShouldDrainAndStopTheAppender() throws IOException {
        Path log = dir.resolve("app.log");
        Path journal = dir.resolve(".lockfreelog/app.log.journal");
        LockFreeFileAppender first;
        try (ConfigurableApplicationContext context = application("logging.register-shutdown-hook=false")
                .sources(ShutdownLoggingBean.class).run()) {
            first = runtime().appender();
            assertThat(journal).exists();
            for (int i = 0; i < 500; i++) {
                LoggerFactory.getLogger("test.war").info("before close {}", i);
            }
        }
        // What a servlet container does on undeploy: nothing stops Logback, so the context close must.
        assertThat(first.isStarted()).isFalse();
        assertThat(runtime().appender()).isNull();
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
            LockFreeFileAppender second = runtime().appender();
            assertThat(second).isNotSameAs(first);
            assertThat(second.isStarted()).isTrue();
            LoggerFactory.getLogger("test.war").info("after redeploy");
            assertThat(awaitContent(log, "after redeploy")).contains("before close 499");
        }
    }

    @Test
    void closingOneOfTwoContextsWithoutLoggingShutdownHookShouldKeepTheAppenderForTheOther() {
        try (ConfigurableApplicationContext two = application("logging.register-shutdown-hook=false").run()) {
            LockFreeFileAppender appender = runtime().appender();
            application("logging.register-shutdown-hook=false").run().close();
            assertThat(appender.isStarted()).isTrue();
            assertThat(lockFreeAppenders()).containsExactly(appender);
        }
    }

    @Test
    void atShutdownTheEngineEndsAfterSpringBootHasStoppedLogbackAndWritesEveryLine() throws IOException {
        Path journal = dir.resolve(".lockfreelog/app.log.journal");
        LockFreeFileAppender appender;
        try (ConfigurableApplicationContext context = application().run()) {
            appender = runtime().appender();
            for (int i = 0; i < 500; i++) {
                LoggerFactory.getLogger("test.hook").info("before exit {}", i);
            }
        }
        // With the hook (the default) the appender outlives the context, as Spring Boot's file appender does ...
        assertThat(appender.isStarted()).isTrue();
        LoggerFactory.getLogger("test.hook").info("after close");
        // ... Spring Boot's shutdown handler stops Logback (LoggerContext.stop()); the starter's handler, added
        // before it and so run after it, then ends the engine.
        try {
            LogbackTestSupport.loggerContext().stop();
            LoggerFactory.getLogger("test.hook").info("while Logback stops");
            runtime().shutdown();
            assertThat(appender.isStarted()).isFalse();
            assertThat(runtime().appender()).isNull();
            assertThat(Files.size(journal)).isZero();
            String content = LogbackTestSupport.read(dir.resolve("app.log"));
            for (int i = 0; i < 500; i++) {
                assertThat(content).contains("before exit " + i + "\n");
            }
            assertThat(content).contains("after close\n").contains("while Logback stops\n");
            assertThat(appender.getStatistics().dropped()).isZero();
        } finally {
            LogbackTestSupport.loggerContext().start();
        }
    }

    @Test
    void aPlainLogbackResetKeepsTheSameAppenderAttachedWithItsEngineAndCounters() {
        try (ConfigurableApplicationContext context = application().run()) {
            LockFreeFileAppender appender = runtime().appender();
            LoggerFactory.getLogger("test.reset").info("before reset");
            long appended = appender.getStatistics().appended();
            LogbackTestSupport.loggerContext().reset(); // what a Logback reconfiguration (scan, JMX) does first
            assertThat(appender.isStarted()).isTrue();
            assertThat(lockFreeAppenders()).containsExactly(appender);
            LoggerFactory.getLogger("test.reset").info("after reset");
            assertThat(appender.getStatistics().appended()).isEqualTo(appended + 1);
            assertThat(awaitContent(dir.resolve("app.log"), "after reset")).contains("before reset");
            assertThat(appender.getStatistics().dropped()).isZero();
        }
    }

    @Test
    void appenderDeclaredInTheLogbackConfigurationShouldBeUsedAsItIsAndReported() {
        try (ConfigurableApplicationContext context = application(
                "logging.config=classpath:lockfreelog-declared-logback.xml").run()) {
            assertThat(runtime().appender()).isNull();
            LockFreeFileAppender declared = (LockFreeFileAppender) context.getBean(LockFreeLogAppenders.class).get("XML_FILE");
            assertThat(declared).isNotNull();
            assertThat(context.getBean(LockFreeLogAppenders.class).isAutoConfigured(declared)).isFalse();
            assertThat(lockFreeAppenders()).containsExactly(declared);
            awaitContent(dir.resolve("app.log"), "xml INFO io.github.lockfreelog.autoconfigure.LockFreeLogApplicationTests$TestApplication : Started");
        }
    }

    @Test
    void invalidValueShouldFailStartUpWithAReportOfTheValueAsWrittenAndItsOrigin(CapturedOutput output) {
        assertThatThrownBy(() -> application("lockfreelog.file.buffer-size=1KB").run())
                .isInstanceOf(InvalidLockFreeLogPropertyException.class)
                .isInstanceOf(org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException.class);
        assertThat(output).contains("APPLICATION FAILED TO START")
                .contains("Property: lockfreelog.file.buffer-size")
                .contains("Value: \"1KB\"")
                .containsPattern("Origin: .*lockfreelog.file.buffer-size")
                .contains("Reason: a multiple of the page size (4096 bytes) from 64KB to 512MB")
                .contains("set 'lockfreelog.file.buffer-size' to");
        assertThat(lockFreeAppenders()).isEmpty();
    }

    @Test
    void aRuleBetweenTwoSettingsIsReportedInPropertyNames(CapturedOutput output) {
        assertThatThrownBy(() -> application("lockfreelog.file.max-event-size=60KB").run())
                .isInstanceOf(InvalidLockFreeLogPropertyException.class);
        assertThat(output).contains("Property: lockfreelog.file.max-event-size").contains("Value: \"60KB\"")
                .contains("half of lockfreelog.file.buffer-size").doesNotContain("bufferSize").doesNotContain("maxEventSize");
    }

    @Test
    void unknownBackpressureShouldFailStartUpListingTheAllowedValues(CapturedOutput output) {
        // Bound by the listener while logging is set up, so Spring's BindException reaches the caller as it is.
        assertThatThrownBy(() -> application("lockfreelog.file.backpressure=SOMETIMES").run())
                .isInstanceOf(BindException.class).hasMessageContaining("lockfreelog.file.backpressure")
                .rootCause().hasMessageContaining("SOMETIMES");
        assertThat(output).contains("APPLICATION FAILED TO START").contains("lockfreelog.file.backpressure")
                .contains("SOMETIMES").containsPattern("(?s)The following values are valid:\\s+BLOCK\\s+DROP");
    }

    @Test
    void dropBelowLevelBindsToSpringBootsLogLevel(CapturedOutput output) {
        assertThatThrownBy(() -> application("lockfreelog.file.backpressure=DROP",
                "lockfreelog.file.drop-below-level=LOUD").run())
                .isInstanceOf(BindException.class).hasMessageContaining("lockfreelog.file.drop-below-level");
        assertThat(output).contains("APPLICATION FAILED TO START").contains("LOUD")
                .containsPattern("(?s)The following values are valid:.*FATAL.*WARN");
        try (ConfigurableApplicationContext context = application("lockfreelog.file.backpressure=DROP",
                "lockfreelog.file.drop-below-level=fatal").run()) {
            assertThat(runtime().appender().getDropBelowLevel()).isEqualTo("ERROR");
        }
    }

    @Test
    void failureAnalyzerShouldDescribeTheProperty() {
        FailureAnalysis analysis = new LockFreeLogFailureAnalyzer().analyze(new IllegalStateException("wrapped",
                new InvalidLockFreeLogPropertyException("lockfreelog.file.buffer-count", "1", null, "2 to 16")));
        assertThat(analysis.getDescription()).contains("Property: lockfreelog.file.buffer-count").contains("Value: \"1\"")
                .contains("Reason: 2 to 16").doesNotContain("Origin:");
        assertThat(analysis.getAction()).contains("'lockfreelog.file.buffer-count'");
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
