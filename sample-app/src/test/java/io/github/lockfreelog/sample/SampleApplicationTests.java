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
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;

@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
        properties = { "logging.file.name=target/sample-test/sample.log", "lockfreelog.file.buffer-size=256KB",
                "lockfreelog.file.max-event-size=64KB",
                // Spring Boot 3 switches metrics export off in tests unless asked
                "management.prometheus.metrics.export.enabled=true" })
// closed after the class: Spring Boot sets logging up anew for the next class's properties (Spring Framework 7 pauses a
// cached context, which does that too; Spring Framework 6, under Spring Boot 3.5, keeps it running)
@DirtiesContext
class SampleApplicationTests {

    @LocalServerPort
    int port;

    private final HttpClient http = HttpClient.newHttpClient();

    private HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create("http://localhost:" + port + path));
    }

    @Test
    void burstShouldBeCountedByTheAppenderAndShownByTheEndpoint() throws Exception {
        HttpResponse<String> burst = send(request("/burst?events=2000&threads=4").POST(HttpRequest.BodyPublishers.noBody()));
        assertThat(burst.statusCode()).isEqualTo(200);
        DocumentContext result = JsonPath.parse(burst.body());
        assertThat(result.read("$.events", Integer.class)).isEqualTo(2000);
        assertThat(result.read("$.threads", Integer.class)).isEqualTo(4);
        long appended = result.read("$.appenders.LOCKFREE_FILE.appended", Long.class);
        long dropped = result.read("$.appenders.LOCKFREE_FILE.dropped", Long.class);
        assertThat(appended).isGreaterThanOrEqualTo(2000);
        assertThat(dropped).isZero();

        DocumentContext endpoint = JsonPath.parse(send(request("/actuator/lockfreelog/LOCKFREE_FILE")).body());
        assertThat(endpoint.read("$.appended", Long.class)).isGreaterThanOrEqualTo(2000);
        assertThat(JsonPath.parse(send(request("/actuator/health")).body())
                .read("$.components.lockfreelog.status", String.class)).isEqualTo("UP");
    }

    @Test
    void prometheusShouldShowTheMetersOfTheAppenderAndTheProcessPageFaultsOnce() throws Exception {
        List<String> lines = send(request("/actuator/prometheus")).body().lines()
                .filter(line -> line.startsWith("lockfreelog_")).toList();
        assertThat(lines).anyMatch(line -> line.startsWith("lockfreelog_events_appended_total{appender=\"LOCKFREE_FILE\""))
                .anyMatch(line -> line.startsWith("lockfreelog_written_bytes_total{appender=\"LOCKFREE_FILE\""))
                .noneMatch(line -> line.contains("_bytes_bytes") || line.contains("_total_total"));
        if (Files.isReadable(Path.of("/proc/self/stat"))) {
            assertThat(lines).filteredOn(line -> line.startsWith("lockfreelog_process_page_faults_total{"))
                    .hasSize(2).noneMatch(line -> line.contains("appender="));
        }
    }

    @Test
    void burstWithTooManyThreadsShouldBeRejected() throws Exception {
        assertThat(send(request("/burst?events=10&threads=100000").POST(HttpRequest.BodyPublishers.noBody()))
                .statusCode()).isEqualTo(400);
    }
}
