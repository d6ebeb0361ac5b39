package io.github.lockfreelog.sample;

import static org.assertj.core.api.Assertions.assertThat;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * The burst into lockfreelog's console alone, as the sample's documentation runs it ({@code --logging.file.name=}):
 * no file, no appender of Spring Boot's left on the root logger.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
        properties = { "lockfreelog.console.enabled=true", "logging.file.name=", "logging.threshold.console=WARN" })
class LockFreeConsoleOnlyBurstTests {

    @LocalServerPort
    int port;

    @Test
    void burstShouldGoToLockfreelogsConsoleAloneWhenBootWritesNoFile() throws Exception {
        HttpResponse<String> burst = HttpClient.newHttpClient().send(HttpRequest
                .newBuilder(URI.create("http://localhost:" + port + "/burst?events=400&threads=4"))
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());

        assertThat(burst.statusCode()).as(burst.body()).isEqualTo(200);
        DocumentContext result = JsonPath.parse(burst.body());
        assertThat(result.read("$.rootAppenders", List.class)).containsExactly("LOCKFREE_CONSOLE (LockFreeConsoleAppender)");
        assertThat(result.read("$.appenders.LOCKFREE_CONSOLE.appended", Integer.class))
                .as("the threshold (WARN) filters the INFO burst before the appender counts it").isZero();
    }
}
