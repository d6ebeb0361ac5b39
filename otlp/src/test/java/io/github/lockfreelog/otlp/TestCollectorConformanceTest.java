package io.github.lockfreelog.otlp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.logs.Severity;
import io.opentelemetry.exporter.otlp.http.logs.OtlpHttpLogRecordExporter;
import io.opentelemetry.proto.logs.v1.SeverityNumber;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.logs.SdkLoggerProvider;
import io.opentelemetry.sdk.logs.export.SimpleLogRecordProcessor;
import io.opentelemetry.sdk.resources.Resource;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The tests' receiver checked against the OpenTelemetry SDK's own OTLP/HTTP log exporter, so that what the other
 * tests read from it is what a collector would read: the SDK's records parse into the same fields, gzipped or not, and
 * the SDK takes the receiver's 503 for what it is (a retryable answer: it tries again, and the record arrives once).
 */
class TestCollectorConformanceTest {

    private static SdkLoggerProvider provider(TestCollector collector, boolean gzip) {
        OtlpHttpLogRecordExporter exporter = OtlpHttpLogRecordExporter.builder()
                .setEndpoint(collector.endpoint() + "/v1/logs").setCompression(gzip ? "gzip" : "none").build();
        return SdkLoggerProvider.builder()
                .setResource(Resource.create(Attributes.of(AttributeKey.stringKey("service.name"), "sdk")))
                .addLogRecordProcessor(SimpleLogRecordProcessor.create(exporter)).build();
    }

    @Test
    void theSdksRecordsParseIntoTheirFieldsGzippedOrNot() throws Exception {
        try (TestCollector collector = TestCollector.start()) {
            for (boolean gzip : new boolean[] {false, true}) {
                try (SdkLoggerProvider provider = provider(collector, gzip)) {
                    Instant at = Instant.parse("2026-12-04T10:00:00.123456789Z");
                    provider.get("scope.a").logRecordBuilder().setTimestamp(at).setSeverity(Severity.WARN)
                            .setSeverityText("WARN").setBody("hello " + gzip)
                            .setAttribute(AttributeKey.stringKey("k"), "v").emit();
                    CompletableResultCode flushed = provider.forceFlush().join(10, TimeUnit.SECONDS);
                    assertThat(flushed.isSuccess()).isTrue();
                }
            }
            assertThat(collector.records).hasSize(2);
            for (int i = 0; i < 2; i++) {
                TestCollector.Received received = collector.records.get(i);
                assertThat(received.body()).isEqualTo("hello " + (i == 1));
                assertThat(received.scope()).isEqualTo("scope.a");
                assertThat(received.record().getSeverityNumber()).isEqualTo(SeverityNumber.SEVERITY_NUMBER_WARN);
                assertThat(received.record().getTimeUnixNano()).isEqualTo(
                        Instant.parse("2026-12-04T10:00:00.123456789Z").getEpochSecond() * 1_000_000_000L + 123456789);
                assertThat(received.attribute("k")).isEqualTo("v");
                assertThat(received.resource().getAttributesList()).anySatisfy(kv -> {
                    assertThat(kv.getKey()).isEqualTo("service.name");
                    assertThat(kv.getValue().getStringValue()).isEqualTo("sdk");
                });
            }
            assertThat(collector.requests).extracting(TestCollector.Request::contentEncoding).containsExactly(null,
                    "gzip");
            assertThat(collector.requests).extracting(TestCollector.Request::contentType)
                    .containsOnly("application/x-protobuf");
        }
    }

    @Test
    void theSdkRetriesTheReceiversRetryableAnswer() throws Exception {
        try (TestCollector collector = TestCollector.start();
                SdkLoggerProvider provider = provider(collector, false)) {
            collector.faults.add(TestCollector.Fault.retryAfter(503, "0"));
            provider.get("scope.b").logRecordBuilder().setBody("after a 503").emit();
            await().atMost(20, TimeUnit.SECONDS).until(() -> collector.records.size() == 1);
            assertThat(collector.requests).extracting(TestCollector.Request::status).containsExactly(503, 200);
            assertThat(collector.records.get(0).body()).isEqualTo("after a 503");
        }
    }
}
