package io.github.lockfreelog.autoconfigure.actuate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;
import io.github.lockfreelog.logback.LockFreeFileAppender;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.util.FileSystemUtils;

/**
 * The endpoint and health over real HTTP, in a web application started on a random port. The
 * starter's logging integration is excluded: the application's {@link LockFreeLogAppenders} bean
 * looks at a Logback context of its own, where the test attaches an appender directly.
 */
@SpringBootTest(classes = LockFreeLogWebTests.WebTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
        properties = { "spring.autoconfigure.exclude=io.github.lockfreelog.autoconfigure.LockFreeLogAutoConfiguration",
                "management.endpoints.web.exposure.include=lockfreelog,health",
                "management.endpoint.health.show-details=always", "spring.jmx.enabled=false",
                "management.endpoint.health.group.logs.include=lockfreelog" })
@DirtiesContext
class LockFreeLogWebTests {

    private static final Path DIR = Paths.get("target/lockfreelog-web-test");
    private static final Path LOG = DIR.resolve("web.log").toAbsolutePath();
    private static final String NAME = "WEB_FILE";

    private static final AttachedAppenders LOGBACK = new AttachedAppenders();

    /** What the application says when it runs no appender. */
    private static final String REASON = "logback-spring.xml writes /x/app.log with its own appender FILE";

    @LocalServerPort
    int port;

    @Autowired
    LockFreeLogAppenders appenders;

    private final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll
    static void attach() throws IOException {
        FileSystemUtils.deleteRecursively(DIR);
        LOGBACK.attach(NAME, LOG);
    }

    @AfterAll
    static void detachAndStop() {
        LOGBACK.close();
    }

    private HttpResponse<String> get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private DocumentContext getJson(String path) throws Exception {
        HttpResponse<String> response = get(path);
        assertThat(response.statusCode()).as(path).isEqualTo(200);
        return JsonPath.parse(response.body());
    }

    @Test
    void endpointShouldShowCountersMovingAfterLogging() throws Exception {
        DocumentContext before = getJson("/actuator/lockfreelog");
        List<String> names = before.read("$.appenders[*].name");
        assertThat(names).containsExactly(NAME);
        Map<String, Object> top = before.read("$");
        assertThat(top).as("no reason while an appender runs").containsOnlyKeys("appenders");
        long appendedBefore = before.read("$.appenders[0].appended", Long.class);
        long writtenBefore = before.read("$.appenders[0].eventsWritten", Long.class);

        for (int i = 0; i < 200; i++) {
            LOGBACK.logger().info("web event {}", i);
        }

        DocumentContext after = getJson("/actuator/lockfreelog/" + NAME);
        assertThat(get("/actuator/lockfreelog/" + NAME).body().split("\"name\":", -1))
                .as("one name: the nested statistics' own is left out").hasSize(2);
        assertThat(after.read("$.name", String.class)).isEqualTo(NAME);
        assertThat(after.read("$.autoConfigured", Boolean.class)).isFalse();
        assertThat(after.read("$.started", Boolean.class)).isTrue();
        assertThat(after.read("$.appended", Long.class)).isGreaterThanOrEqualTo(appendedBefore + 200);
        assertThat(after.read("$.file", String.class)).isEqualTo(LOG.toString());
        assertThat(after.read("$.journal", String.class)).as("the journal in use")
                .isEqualTo(appenders.get(NAME).getStatistics().journal()).startsWith(DIR.toAbsolutePath().toString());
        assertThat(after.read("$.bufferSize", Integer.class)).isEqualTo(64 * 1024);
        Map<String, Object> drops = after.read("$.drops");
        assertThat(drops).containsOnlyKeys("buffer-full", "timeout", "io", "stopped", "encoding", "too-large");
        assertThat(after.read("$.pageFaults.available", Boolean.class))
                .isEqualTo(Files.isReadable(Path.of("/proc/self/stat")));
        await().atMost(Duration.ofSeconds(10)).until(() -> getJson("/actuator/lockfreelog/" + NAME)
                .read("$.eventsWritten", Long.class) >= writtenBefore + 200);
        Files.writeString(DIR.resolve("endpoint-example.json"), get("/actuator/lockfreelog").body());
    }

    @Test
    void endpointWithoutAppenderShouldSayThereIsNoLogFileAndWhy() throws Exception {
        LockFreeFileAppender appender = (LockFreeFileAppender) appenders.get(NAME);
        LOGBACK.detach(appender);
        try {
            DocumentContext none = getJson("/actuator/lockfreelog");
            assertThat(none.read("$.appenders", List.class)).isEmpty();
            assertThat(none.read("$.logFile", String.class)).isEqualTo("none");
            assertThat(none.read("$.reason", String.class)).isEqualTo(REASON);
            Files.writeString(DIR.resolve("endpoint-none-example.json"), get("/actuator/lockfreelog").body());
        } finally {
            LOGBACK.attach(appender);
        }
    }

    @Test
    void unknownAppenderShouldBe404() throws Exception {
        assertThat(get("/actuator/lockfreelog/NO_SUCH_APPENDER").statusCode()).isEqualTo(404);
    }

    @Test
    void healthShouldShowTheAppenderUp() throws Exception {
        DocumentContext health = getJson("/actuator/health");
        assertThat(health.read("$.components.lockfreelog.status", String.class)).isEqualTo("UP");
        assertThat(health.read("$.components.lockfreelog.details.appenders." + NAME + ".drainerErrors", Long.class))
                .isZero();
        Files.createDirectories(DIR);
        Files.writeString(DIR.resolve("health-example.json"), get("/actuator/health").body());
    }

    @Test
    void healthShouldBeDownWhileAnAppendersWritesFail() throws Exception {
        AtomicBoolean failing = new AtomicBoolean(true);
        LockFreeFileAppender broken = LOGBACK.attach("BROKEN_FILE", DIR.resolve("broken.log").toAbsolutePath(), failing);
        try {
            LOGBACK.logger().info("cannot be written yet");
            await().atMost(Duration.ofSeconds(10)).until(() -> broken.getStatistics().failingSinceEpochMillis() != 0);
            HttpResponse<String> response = get("/actuator/health");
            assertThat(response.statusCode()).as("Spring Boot answers DOWN with 503").isEqualTo(503);
            DocumentContext health = JsonPath.parse(response.body());
            assertThat(health.read("$.components.lockfreelog.status", String.class)).isEqualTo("DOWN");
            assertThat(health.read("$.components.lockfreelog.details.appenders.BROKEN_FILE.failingSince", String.class))
                    .isEqualTo(Instant.ofEpochMilli(broken.getStatistics().failingSinceEpochMillis()).toString());
            assertThat(health.read("$.components.lockfreelog.details.appenders." + NAME + ".status", String.class))
                    .isEqualTo("UP");
            Files.writeString(DIR.resolve("health-down-example.json"), response.body());
        } finally {
            LOGBACK.detach(broken);
            failing.set(false);
        }
    }

    /**
     * A log file that cannot be written (a full disk) is no reason to restart the application or take it out of load
     * balancing: the liveness and readiness groups (on by default in Spring Boot 4) hold Spring Boot's availability states alone, so they stay UP while
     * the overall health is DOWN; a group that includes {@code lockfreelog} ({@code logs} here) reports it.
     */
    @Test
    void probesShouldStayUpWhileAnAppendersWritesFailAndAGroupIncludingItShouldNot() throws Exception {
        AtomicBoolean failing = new AtomicBoolean(true);
        LockFreeFileAppender broken = LOGBACK.attach("BROKEN_FILE", DIR.resolve("broken-probes.log").toAbsolutePath(), failing);
        try {
            LOGBACK.logger().info("cannot be written yet");
            await().atMost(Duration.ofSeconds(10)).until(() -> broken.getStatistics().failingSinceEpochMillis() != 0);
            assertThat(get("/actuator/health").statusCode()).isEqualTo(503);
            for (String probe : List.of("/actuator/health/liveness", "/actuator/health/readiness")) {
                HttpResponse<String> response = get(probe);
                assertThat(response.statusCode()).as(probe).isEqualTo(200);
                DocumentContext health = JsonPath.parse(response.body());
                assertThat(health.read("$.status", String.class)).as(probe).isEqualTo("UP");
                assertThat(response.body()).as(probe).doesNotContain("lockfreelog");
            }
            HttpResponse<String> group = get("/actuator/health/logs");
            assertThat(group.statusCode()).as("a group that includes lockfreelog").isEqualTo(503);
            assertThat(JsonPath.parse(group.body()).read("$.components.lockfreelog.status", String.class))
                    .isEqualTo("DOWN");
        } finally {
            LOGBACK.detach(broken);
            failing.set(false);
        }
        assertThat(get("/actuator/health/logs").statusCode()).as("UP again once no write fails").isEqualTo(200);
    }

    @Test
    void healthWithoutAppenderShouldBeUnknownWithTheReasonAndLeaveTheApplicationUp() throws Exception {
        LockFreeFileAppender appender = (LockFreeFileAppender) appenders.get(NAME);
        LOGBACK.detach(appender);
        try {
            DocumentContext health = getJson("/actuator/health");
            assertThat(health.read("$.components.lockfreelog.status", String.class)).isEqualTo("UNKNOWN");
            assertThat(health.read("$.components.lockfreelog.details.reason", String.class)).isEqualTo(REASON);
            assertThat(health.read("$.status", String.class)).as("UNKNOWN does not take the application down")
                    .isEqualTo("UP");
            Files.writeString(DIR.resolve("health-none-example.json"), get("/actuator/health").body());
        } finally {
            LOGBACK.attach(appender);
        }
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class WebTestApplication {

        @Bean
        LockFreeLogAppenders lockFreeLogAppenders() {
            return new LockFreeLogAppenders(LOGBACK.context(), () -> REASON);
        }
    }
}
