package io.github.lockfreelog.autoconfigure;

import static io.github.lockfreelog.autoconfigure.LogbackTestSupport.awaitContent;
import static io.github.lockfreelog.autoconfigure.LogbackTestSupport.lockFreeAppenders;
import static io.github.lockfreelog.autoconfigure.LogbackTestSupport.runtime;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.lockfreelog.autoconfigure.actuate.LockFreeLogAppenders;
import io.github.lockfreelog.logback.LockFreeFileAppender;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.logging.logback.StructuredLogEncoder;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/** Spring Boot's structured log formats and JSON encoders, written by the lock-free appender: one JSON document a line. */
@ExtendWith(OutputCaptureExtension.class)
class LockFreeLogStructuredLoggingTests {

    private static final int EVENTS = 200;
    private static final ObjectMapper JSON = JsonMapper.builder().build();

    @TempDir
    Path dir;

    @AfterEach
    void cleanUp() {
        LogbackTestSupport.cleanUp();
    }

    private SpringApplicationBuilder application(String... properties) {
        return LogbackTestSupport.application(TestApplication.class, "logging.file.name=" + dir.resolve("app.log"),
                "spring.application.name=structured-test").properties(properties);
    }

    /** Logs {@link #EVENTS} numbered events, waits for the last, and checks that every line is a JSON document. */
    private List<JsonNode> logAndParse(String messageField) {
        Logger logger = LoggerFactory.getLogger("test.structured");
        for (int i = 0; i < EVENTS; i++) {
            logger.info("structured event {} with \"quotes\" and caf\u00e9", i);
        }
        String content = awaitContent(dir.resolve("app.log"), "structured event " + (EVENTS - 1) + " ");
        assertThat(content).endsWith("\n");
        List<JsonNode> lines = new ArrayList<>();
        for (String line : content.split("\n")) {
            JsonNode node = JSON.readTree(line);
            assertThat(node.isObject()).as(line).isTrue();
            lines.add(node);
        }
        List<String> messages = lines.stream().map(node -> node.path(messageField).asString())
                .filter(m -> m.startsWith("structured event ")).toList();
        assertThat(messages).hasSize(EVENTS);
        for (int i = 0; i < EVENTS; i++) {
            assertThat(messages.get(i)).isEqualTo("structured event " + i + " with \"quotes\" and caf\u00e9");
        }
        return lines;
    }

    @ParameterizedTest(name = "logging.structured.format.file={0}")
    @CsvSource({ "ecs,message", "logstash,message", "gelf,short_message" })
    void springBootsStructuredFormatShouldMakeEachLineOneJsonDocument(String format, String messageField) {
        try (ConfigurableApplicationContext context = application("logging.structured.format.file=" + format).run()) {
            LockFreeFileAppender appender = runtime().appender();
            assertThat(appender.getEncoder()).isInstanceOf(StructuredLogEncoder.class);
            List<JsonNode> lines = logAndParse(messageField);
            // Start-up lines are structured too.
            assertThat(lines).anySatisfy(line -> assertThat(line.path(messageField).asString())
                    .startsWith("Starting LockFreeLogStructuredLoggingTests.TestApplication using Java"));
            switch (format) {
                case "ecs" -> assertThat(lines.get(lines.size() - 1).path("service").path("name").asString())
                        .isEqualTo("structured-test");
                case "gelf" -> assertThat(lines.get(lines.size() - 1).path("host").asString()).isEqualTo("structured-test");
                default -> assertThat(lines.get(lines.size() - 1).path("logger_name").asString()).isEqualTo("test.structured");
            }
        }
    }

    @Test
    void structuredFormatShouldWinOverLoggingPatternFileAsInSpringBoot() {
        try (ConfigurableApplicationContext context = application("logging.structured.format.file=logstash",
                "logging.pattern.file=%msg%n").run()) {
            assertThat(runtime().appender().getEncoder())
                    .isInstanceOf(StructuredLogEncoder.class);
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({ "lockfreelog-declared-structured-logback.xml,message",
        "lockfreelog-declared-json-logback.xml,formattedMessage" })
    void jsonEncoderDeclaredInTheLogbackConfigurationShouldWriteOneJsonDocumentALine(String config, String messageField) {
        try (ConfigurableApplicationContext context = application("logging.config=classpath:" + config).run()) {
            assertThat(runtime().appender()).isNull();
            LockFreeFileAppender declared = (LockFreeFileAppender) context.getBean(LockFreeLogAppenders.class).get("JSON_FILE");
            assertThat(lockFreeAppenders()).containsExactly(declared);
            logAndParse(messageField);
        }
    }

    /** The explicit property, in a context that Spring Boot's logging initialisation did not set up. */
    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class TestApplication {
    }
}
