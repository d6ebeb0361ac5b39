package io.github.lockfreelog.otlp;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** How the sink reads the test receiver's answers, as a collector gives them: status, partial success, message, Retry-After. */
class AnswerTest {

    private static Answer post(TestCollector collector) throws Exception {
        HttpResponse<byte[]> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create(collector.endpoint() + "/v1/logs")).header("Content-Type", "application/x-protobuf")
                .POST(HttpRequest.BodyPublishers.ofByteArray(new byte[0])).build(), HttpResponse.BodyHandlers.ofByteArray());
        return Answer.of(response);
    }

    @Test
    void aPartialSuccessGivesItsRejectedCountAndMessage() throws Exception {
        try (TestCollector collector = TestCollector.start()) {
            collector.faults.add(TestCollector.Fault.partial(2, "attribute too long"));
            Answer answer = post(collector);
            assertThat(answer.status()).isEqualTo(200);
            assertThat(answer.rejected()).isEqualTo(2);
            assertThat(answer.message()).isEqualTo("attribute too long");
            assertThat(post(collector).rejected()).isZero();
        }
    }

    @Test
    void anErrorGivesTheStatusMessageAndRetryAfter() throws Exception {
        try (TestCollector collector = TestCollector.start()) {
            collector.faults.add(TestCollector.Fault.retryAfter(503, "7"));
            Answer answer = post(collector);
            assertThat(answer.status()).isEqualTo(503);
            assertThat(answer.message()).isEqualTo("try later");
            assertThat(answer.retryAfterNanos()).isEqualTo(TimeUnit.SECONDS.toNanos(7));
        }
    }

    @Test
    void retryAfterIsSecondsOrADateAndNothingElse() {
        assertThat(Answer.retryAfterNanos("3")).isEqualTo(TimeUnit.SECONDS.toNanos(3));
        assertThat(Answer.retryAfterNanos("Wed, 21 Oct 2015 07:28:00 GMT")).as("a date past").isZero();
        assertThat(Answer.retryAfterNanos("soon")).isEqualTo(-1);
        assertThat(Answer.retryAfterNanos("100000")).as("at most five minutes").isEqualTo(TimeUnit.MINUTES.toNanos(5));
    }
}
