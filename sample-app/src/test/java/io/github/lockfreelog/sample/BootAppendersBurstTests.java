package io.github.lockfreelog.sample;

import static org.assertj.core.api.Assertions.assertThat;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;

/** The burst with the starter switched off: Spring Boot's own CONSOLE and FILE take the lines, timed the same way. */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
        properties = { "lockfreelog.enabled=false", "logging.file.name=target/sample-boot-appenders/sample.log",
                "logging.threshold.console=OFF" })
// closed after the class: Spring Boot sets logging up anew for the next class's properties (Spring Framework 7 pauses a
// cached context, which does that too; Spring Framework 6, under Spring Boot 3.5, keeps it running)
@DirtiesContext
class BootAppendersBurstTests {

    private static final Path LOG = Path.of("target/sample-boot-appenders/sample.log");

    static {
        try { // Boot's FILE appends: a file of an earlier run would hold its bursts too
            Files.deleteIfExists(LOG);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @LocalServerPort
    int port;

    @Test
    void burstShouldRunThroughBootsOwnAppendersWhenTheStarterIsOff() throws Exception {
        HttpResponse<String> burst = HttpClient.newHttpClient().send(HttpRequest
                .newBuilder(URI.create("http://localhost:" + port + "/burst?events=400&threads=4"))
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());

        assertThat(burst.statusCode()).as(burst.body()).isEqualTo(200);
        DocumentContext result = JsonPath.parse(burst.body());
        assertThat(result.read("$.rootAppenders", List.class)).containsExactly("CONSOLE (ConsoleAppender)",
                "FILE (RollingFileAppender)");
        assertThat(result.read("$.appenders", Map.class)).isEmpty();
        assertThat(result.read("$.elapsedMillis", Double.class)).isPositive();
        List<String> lines = Files.readAllLines(LOG);
        for (int i = 0; i < 400; i++) {
            String event = "burst event " + i + " from thread ";
            assertThat(lines).as("event %d once in Boot's file", i).filteredOn(line -> line.contains(event)).hasSize(1);
        }
    }
}
