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
import org.springframework.test.annotation.DirtiesContext;

/**
 * The burst into lockfreelog's console alone, as the sample's documentation runs it ({@code --logging.file.name=}):
 * no file, no appender of Spring Boot's left on the root logger.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
        properties = { "lockfreelog.console.enabled=true", "logging.file.name=", "logging.threshold.console=WARN" })
// closed after the class: Spring Boot sets logging up anew for the next class's properties (Spring Framework 7 pauses a
// cached context, which does that too; Spring Framework 6, under Spring Boot 3.5, keeps it running)
@DirtiesContext
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
