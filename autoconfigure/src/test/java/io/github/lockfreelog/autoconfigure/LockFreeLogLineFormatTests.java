package io.github.lockfreelog.autoconfigure;

import static io.github.lockfreelog.autoconfigure.LogbackTestSupport.awaitContent;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Full {@code SpringApplication} runs: the lines of the starter's file follow Spring Boot's file-logging
 * properties ({@code logging.threshold.file}, {@code logging.pattern.*}, {@code logging.exception-conversion-word})
 * as Spring Boot's own file appender's do, and placeholders in patterns are left to Logback.
 */
class LockFreeLogLineFormatTests {

    @TempDir
    Path dir;

    @AfterEach
    void cleanUp() {
        MDC.clear();
        LogbackTestSupport.cleanUp();
    }

    private ConfigurableApplicationContext run(String... properties) {
        return LogbackTestSupport.application(TestApplication.class, "logging.file.name=" + log())
                .properties(properties).run();
    }

    private Path log() {
        return dir.resolve("app.log");
    }

    private List<String> linesWith(String content, String text) {
        return Arrays.stream(content.split("\n")).filter(line -> line.contains(text)).toList();
    }

    @Test
    void fileThresholdShouldKeepLowerLevelsOutOfTheFile() {
        try (ConfigurableApplicationContext context = run("logging.threshold.file=WARN")) {
            Logger logger = LoggerFactory.getLogger("test.threshold");
            logger.info("below the threshold");
            logger.warn("at the threshold");
            logger.error("above the threshold");
            String content = awaitContent(log(), "above the threshold");
            assertThat(content).contains("at the threshold").doesNotContain("below the threshold")
                    // Spring Boot's INFO start-up lines are kept out too.
                    .doesNotContain("Starting LockFreeLogLineFormatTests.TestApplication").doesNotContain(" INFO ");
        }
    }

    @Test
    void levelAndDateFormatPatternsShouldShapeTheDefaultLines() {
        try (ConfigurableApplicationContext context = run("logging.pattern.level=%5p [lvl]",
                "logging.pattern.dateformat=yyyy/MM/dd HH:mm")) {
            LoggerFactory.getLogger("test.shape").info("shaped line");
            String content = awaitContent(log(), "shaped line");
            assertThat(linesWith(content, "shaped line")).singleElement().asString()
                    .matches("\\d{4}/\\d\\d/\\d\\d \\d\\d:\\d\\d  INFO \\[lvl\\] " + ProcessHandle.current().pid()
                            + " --- \\[[^\\]]+\\] test\\.shape\\s+ : shaped line");
            assertThat(linesWith(content, "Started LockFreeLogLineFormatTests.TestApplication")).singleElement()
                    .asString().contains("  INFO [lvl] ");
        }
    }

    @Test
    void correlationPatternShouldBeInTheDefaultLines() {
        try (ConfigurableApplicationContext context = run("logging.pattern.correlation=<%X{requestId}> ")) {
            MDC.put("requestId", "req-42");
            LoggerFactory.getLogger("test.correlation").info("correlated line");
            String content = awaitContent(log(), "correlated line");
            assertThat(linesWith(content, "correlated line")).singleElement().asString()
                    .containsPattern("\\] <req-42> test\\.correlation\\s+ : correlated line");
        }
    }

    @Test
    void expectedCorrelationIdShouldBeInTheDefaultLinesAsWithTracing() {
        // Spring Boot's tracing sets logging.expect-correlation-id; its Logback system then writes %correlationId.
        try (ConfigurableApplicationContext context = run("logging.expect-correlation-id=true")) {
            MDC.put("traceId", "0123456789abcdef0123456789abcdef");
            MDC.put("spanId", "0123456789abcdef");
            LoggerFactory.getLogger("test.tracing").info("traced line");
            String content = awaitContent(log(), "traced line");
            assertThat(linesWith(content, "traced line")).singleElement().asString()
                    .contains("[0123456789abcdef0123456789abcdef-0123456789abcdef] test.tracing");
        }
    }

    @Test
    void exceptionConversionWordShouldFormatStackTraces() {
        try (ConfigurableApplicationContext context = run("logging.exception-conversion-word=[[%ex{short}]]")) {
            LoggerFactory.getLogger("test.exception").error("failed line", new IllegalStateException("boom"));
            String content = awaitContent(log(), "boom");
            // One frame, as %ex{short} writes it, where Spring Boot's default %wEx would write the whole trace.
            assertThat(content).contains("failed line\n[[java.lang.IllegalStateException: boom\n\tat ")
                    .containsOnlyOnce("\tat ");
        }
    }

    @Test
    void placeholdersInLoggingPatternFileAreWrittenExactlyAsSpringBootsOwnFileAppenderWritesThem() throws Exception {
        String[] properties = { "test.label=from-spring",
            "logging.pattern.file=[${NOPE}] [${LEVEL_VAR:-%5p}] [${test.label}] [${test.missing:spring-default}] %m%n" };
        List<String> boots;
        try (ConfigurableApplicationContext context = run(append(properties, "lockfreelog.enabled=false"))) {
            LoggerFactory.getLogger("test.placeholders").info("placeholder line");
            boots = linesWith(awaitContent(log(), "placeholder line"), "placeholder line");
        }
        java.nio.file.Files.delete(log());
        try (ConfigurableApplicationContext context = run(properties)) {
            LoggerFactory.getLogger("test.placeholders").info("placeholder line");
            assertThat(linesWith(awaitContent(log(), "placeholder line"), "placeholder line")).isEqualTo(boots)
                    .containsExactly("[NOPE_IS_UNDEFINED] [- INFO] [from-spring] [spring-default] placeholder line");
        }
    }

    private static String[] append(String[] properties, String more) {
        String[] all = java.util.Arrays.copyOf(properties, properties.length + 1);
        all[properties.length] = more;
        return all;
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class TestApplication {
    }
}
