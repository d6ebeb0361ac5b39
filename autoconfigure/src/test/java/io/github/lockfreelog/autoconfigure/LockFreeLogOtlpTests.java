package io.github.lockfreelog.autoconfigure;

import static io.github.lockfreelog.autoconfigure.LogbackTestSupport.runtime;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.lockfreelog.autoconfigure.actuate.LockFreeLogAppenders;
import io.github.lockfreelog.autoconfigure.actuate.LockFreeLogEndpoint;
import io.github.lockfreelog.autoconfigure.actuate.LockFreeLogEndpoint.AppenderDescriptor;
import io.github.lockfreelog.autoconfigure.actuate.LockFreeLogHealth;
import io.github.lockfreelog.autoconfigure.actuate.LockFreeLogMetrics;
import io.github.lockfreelog.logback.LockFreeAppenderBase;
import io.github.lockfreelog.otlp.TestCollector;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The OTLP sink from Spring Boot: an application that has lockfreelog-otlp and sets only Spring Boot's own OTLP logging
 * endpoint sends every line, from the first start-up line on, to the collector, with the headers and compression of
 * the same property group and the application's name as {@code service.name}; {@code lockfreelog.otlp.enabled=false}
 * turns it off; a setting it cannot use is named and the application starts without the sink.
 */
@ExtendWith(OutputCaptureExtension.class)
class LockFreeLogOtlpTests {

    @TempDir
    Path dir;

    private TestCollector collector;

    @AfterEach
    void cleanUp() {
        LogbackTestSupport.cleanUp();
        if (collector != null) {
            collector.close();
        }
    }

    private String journal() {
        return "lockfreelog.otlp.journal=" + dir.resolve("otlp.journal");
    }

    @Test
    void springBootsOtlpLoggingEndpointSendsEveryLineFromTheFirstStartUpLine() throws Exception {
        collector = TestCollector.start();
        try (ConfigurableApplicationContext context = LogbackTestSupport.application(TestApplication.class,
                "management.opentelemetry.logging.export.otlp.endpoint=" + collector.endpoint() + "/v1/logs",
                "management.opentelemetry.logging.export.otlp.headers.authorization=Bearer t0ken",
                "management.opentelemetry.logging.export.otlp.compression=gzip",
                "management.opentelemetry.resource-attributes.deployment.environment=test",
                "spring.application.name=orders", journal()).run()) {
            LockFreeAppenderBase otlp = runtime().otlp();
            assertThat(otlp).isNotNull();
            assertThat(otlp.getName()).isEqualTo("LOCKFREE_OTLP");
            assertThat(otlp.getStatistics().target()).isEqualTo("otlp");
            LoggerFactory.getLogger("com.example.Orders").info("after the start");
            AppenderDescriptor described = new LockFreeLogEndpoint(
                    new LockFreeLogAppenders(LogbackTestSupport.loggerContext(), runtime())).appender("LOCKFREE_OTLP");
            assertThat(described.autoConfigured()).isTrue();
            assertThat(described.statistics().target()).isEqualTo("otlp");
            assertThat(described.kafka()).isNull();
            assertThat(described.otlp()).containsOnlyKeys("connected", "oldestUnacknowledgedMillis", "requestsSent",
                    "requestsRetried", "requestsRejected", "recordsAcknowledged", "recordsRejected", "bytesSent",
                    "lastCollectorError");
            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            new LockFreeLogMetrics(new LockFreeLogAppenders(LogbackTestSupport.loggerContext(), runtime()))
                    .bindTo(registry);
            await().atMost(20, TimeUnit.SECONDS).until(() -> collector.bodies().contains("after the start"));
            FunctionCounter acknowledged = registry.get("lockfreelog.otlp.records")
                    .tags("appender", "LOCKFREE_OTLP", "target", "otlp", "outcome", "acknowledged").functionCounter();
            await().atMost(20, TimeUnit.SECONDS).until(() -> acknowledged.count() >= collector.records.size());
            assertThat(registry.get("lockfreelog.otlp.connected").gauge().value()).isEqualTo(1);
            assertThat(registry.get("lockfreelog.otlp.requests").tags("outcome", "retried").functionCounter().count())
                    .isZero();
            AppenderDescriptor after = new LockFreeLogEndpoint(
                    new LockFreeLogAppenders(LogbackTestSupport.loggerContext(), runtime())).appender("LOCKFREE_OTLP");
            assertThat((Long) after.otlp().get("recordsAcknowledged")).isEqualTo((long) collector.records.size());
            assertThat((Long) after.otlp().get("bytesSent")).isPositive();
            Map<String, Object> health = otlpHealth();
            assertThat(health).containsOnlyKeys("connected", "recordsUnacknowledged", "bytesUnacknowledged",
                    "oldestUnacknowledgedMillis", "requestsSent", "requestsRetried", "requestsRejected",
                    "lastCollectorError");
            assertThat(health.get("connected")).isEqualTo(true);
            assertThat((Long) health.get("requestsSent")).isPositive();
        }
        List<String> bodies = collector.bodies();
        assertThat(bodies.get(0)).as("the first start-up line, before any OpenTelemetry SDK could exist")
                .startsWith("Starting LockFreeLogOtlpTests.TestApplication");
        TestCollector.Received first = collector.records.get(0);
        assertThat(first.resource().getAttributesList()).extracting(kv -> kv.getKey() + "=" + kv.getValue()
                .getStringValue()).containsExactly("service.name=orders", "deployment.environment=test");
        assertThat(collector.requests).allSatisfy(request -> {
            assertThat(request.contentEncoding()).isEqualTo("gzip");
            assertThat(request.headers().get("Authorization")).containsExactly("Bearer t0ken");
        });
    }

    /** The health details of the OTLP appender. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> otlpHealth() {
        LockFreeLogHealth.Check check = new LockFreeLogHealth(
                new LockFreeLogAppenders(LogbackTestSupport.loggerContext(), runtime())).check();
        Map<String, Object> appender = (Map<String, Object>) ((Map<String, Object>) check.details().get("appenders"))
                .get("LOCKFREE_OTLP");
        assertThat(appender.get("target")).isEqualTo("otlp");
        return (Map<String, Object>) appender.get("otlp");
    }

    @Test
    void aCollectorThatDoesNotAnswerShowsInHealthWithWhatWaits() throws Exception {
        int port = TestCollector.freePort();
        try (ConfigurableApplicationContext context = LogbackTestSupport.application(TestApplication.class,
                "management.opentelemetry.logging.export.otlp.endpoint=http://127.0.0.1:" + port + "/v1/logs",
                journal()).run()) {
            LoggerFactory.getLogger("x").info("waits in the journal");
            await().atMost(20, TimeUnit.SECONDS).until(() -> otlpHealth().get("lastCollectorError") != null);
            Map<String, Object> health = otlpHealth();
            assertThat(health.get("connected")).isEqualTo(false);
            assertThat((Long) health.get("recordsUnacknowledged")).isPositive();
            assertThat((Long) health.get("bytesUnacknowledged")).isPositive();
            LockFreeLogHealth.Check check = new LockFreeLogHealth(
                    new LockFreeLogAppenders(LogbackTestSupport.loggerContext(), runtime())).check();
            assertThat(check.state()).as("a drainer that cannot deliver, as for a full disk")
                    .isEqualTo(LockFreeLogHealth.State.DOWN);
            assertThat(check.details().toString()).contains("events wait in the journal");
            collector = TestCollector.start(port); // back: the stop delivers what waits instead of timing out
        }
    }

    @Test
    void springBoot35sPropertyTurnsItOnToo() throws Exception {
        collector = TestCollector.start();
        try (ConfigurableApplicationContext context = LogbackTestSupport.application(TestApplication.class,
                "management.otlp.logging.endpoint=" + collector.endpoint() + "/v1/logs", journal()).run()) {
            assertThat(runtime().otlp()).isNotNull();
            LoggerFactory.getLogger("x").info("on 3.5's name");
            await().atMost(20, TimeUnit.SECONDS).until(() -> collector.bodies().contains("on 3.5's name"));
        }
    }

    @Test
    void enabledFalseTurnsItOff() throws Exception {
        collector = TestCollector.start();
        try (ConfigurableApplicationContext context = LogbackTestSupport.application(TestApplication.class,
                "management.opentelemetry.logging.export.otlp.endpoint=" + collector.endpoint() + "/v1/logs",
                "lockfreelog.otlp.enabled=false", journal()).run()) {
            assertThat(runtime().otlp()).isNull();
        }
        assertThat(collector.requests).isEmpty();
    }

    @Test
    void aTransportItDoesNotSpeakIsNamedAndTheApplicationStartsWithoutTheSink(CapturedOutput output) {
        try (ConfigurableApplicationContext context = LogbackTestSupport.application(TestApplication.class,
                "management.opentelemetry.logging.export.otlp.endpoint=http://127.0.0.1:4317",
                "management.opentelemetry.logging.export.otlp.transport=grpc", journal()).run()) {
            assertThat(runtime().otlp()).isNull();
        }
        assertThat(output.getAll()).contains("lockfreelog: the log is not sent to the OTLP endpoint:"
                + " management.opentelemetry.logging.export.otlp.transport=\"grpc\"", "expected http");
    }

    @Test
    void oneInfoSaysThatTheOpenTelemetryAppenderExportsToo(CapturedOutput output) throws Exception {
        collector = TestCollector.start();
        try (ConfigurableApplicationContext context = LogbackTestSupport.application(TestApplication.class,
                "logging.config=classpath:logback-with-opentelemetry-appender.xml",
                "management.opentelemetry.logging.export.otlp.endpoint=" + collector.endpoint(), journal()).run()) {
            assertThat(runtime().otlp()).isNotNull();
        }
        assertThat(output.getAll().lines().filter(line -> line.contains("the OpenTelemetry Logback appender")))
                .singleElement().satisfies(line -> assertThat(line).contains("INFO", "'OTEL'", "ROOT",
                        "both export the log", "lockfreelog.otlp.enabled=false"));
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class TestApplication {
    }
}
