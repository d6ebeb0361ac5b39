package io.github.lockfreelog.sample;

import static org.assertj.core.api.Assertions.assertThat;

import com.jayway.jsonpath.JsonPath;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;

/**
 * The sample app's answers that docs/observability.md and README.md show (docs/captured/, written by
 * docs/capture-sample.sh from a running sample app) have every field, and only the fields, that the app
 * answers now: the endpoint's, the lockfreelog part of health's, and the meters with their tags in
 * Prometheus' text. Values differ from run to run; the shape may not go stale.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
        properties = { "logging.file.name=target/sample-test/sample.log", "lockfreelog.file.buffer-size=256KB",
                "lockfreelog.file.max-event-size=64KB", "management.prometheus.metrics.export.enabled=true" })
// closed after the class: Spring Boot sets logging up anew for the next class's properties (Spring Framework 7 pauses a
// cached context, which does that too; Spring Framework 6, under Spring Boot 3.5, keeps it running)
@DirtiesContext
class DocumentedOutputTests {

    private static final Path CAPTURED = Path.of("..", "docs", "captured");

    @LocalServerPort
    int port;

    private final HttpClient http = HttpClient.newHttpClient();

    private String get(String path) throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path)).build(),
                HttpResponse.BodyHandlers.ofString());
        return response.body();
    }

    private static String documented(String name) throws Exception {
        return Files.readString(CAPTURED.resolve(name), StandardCharsets.UTF_8);
    }

    @Test
    void theDocumentedEndpointAndBurstResponsesHaveTheFieldsTheAppAnswers() throws Exception {
        HttpResponse<String> burst = http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/burst?events=1000&threads=2"))
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(fields(documented("burst-2.json"))).isEqualTo(fields(burst.body()));
        assertThat(fields(documented("endpoint.json"))).isEqualTo(fields(get("/actuator/lockfreelog")));
    }

    @Test
    void theDocumentedHealthHasTheFieldsOfTheAppsLockfreelogHealth() throws Exception {
        Object documented = JsonPath.read(documented("health.json"), "$.components.lockfreelog");
        Object live = JsonPath.read(get("/actuator/health"), "$.components.lockfreelog");
        assertThat(fields(documented, "lockfreelog")).isEqualTo(fields(live, "lockfreelog"));
    }

    @Test
    void theDocumentedPrometheusLinesNameTheMetersAndTagsTheAppExports() throws Exception {
        assertThat(meters(documented("prometheus.txt"))).isEqualTo(meters(get("/actuator/prometheus")));
    }

    /** Every field's path in a JSON document; an array's elements are told apart by their {@code name}, else merged. */
    static Set<String> fields(String json) {
        return fields(JsonPath.parse(json).json(), "$");
    }

    private static Set<String> fields(Object node, String path) {
        Set<String> paths = new TreeSet<>();
        collect(node, path, paths);
        return paths;
    }

    private static void collect(Object node, String path, Set<String> paths) {
        if (node instanceof Map<?, ?> map) {
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                String child = path + "." + entry.getKey();
                paths.add(child);
                collect(entry.getValue(), child, paths);
            }
        } else if (node instanceof List<?> list) {
            for (Object element : list) {
                String name = element instanceof Map<?, ?> map && map.get("name") instanceof String n ? n : "*";
                collect(element, path + "[" + name + "]", paths);
            }
        }
    }

    private static final Pattern SAMPLE = Pattern.compile("^(lockfreelog_[a-z_]+)\\{([^}]*)\\}");

    /** The lockfreelog meters of a Prometheus text, each with its tag names and its appender's value. */
    static Set<String> meters(String text) {
        Set<String> meters = new TreeSet<>();
        for (String line : text.lines().toList()) {
            Matcher sample = SAMPLE.matcher(line);
            if (sample.find()) {
                Set<String> tags = new TreeSet<>();
                String appender = "";
                for (String tag : sample.group(2).split(",")) {
                    String[] pair = tag.split("=", 2);
                    tags.add(pair[0]);
                    if (pair[0].equals("appender") || pair[0].equals("reason")) {
                        appender += pair[0] + "=" + pair[1] + " ";
                    }
                }
                meters.add(sample.group(1) + " " + tags + " " + appender.trim());
            }
        }
        return meters;
    }
}
