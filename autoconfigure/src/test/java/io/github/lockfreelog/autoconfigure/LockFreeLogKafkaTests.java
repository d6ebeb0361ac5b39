package io.github.lockfreelog.autoconfigure;

import static io.github.lockfreelog.autoconfigure.LogbackTestSupport.runtime;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.lockfreelog.autoconfigure.actuate.LockFreeLogAppenders;
import io.github.lockfreelog.autoconfigure.actuate.LockFreeLogEndpoint.AppenderDescriptor;
import io.github.lockfreelog.autoconfigure.actuate.LockFreeLogEndpoint;
import io.github.lockfreelog.autoconfigure.actuate.LockFreeLogMetrics;
import io.github.lockfreelog.diagnostics.AppenderStatistics;
import io.github.lockfreelog.kafka.LockFreeKafkaAppender;
import io.github.lockfreelog.logback.LockFreeAppenderBase;
import io.github.lockfreelog.testsupport.kafka.CommittedReader;
import io.github.lockfreelog.testsupport.kafka.KafkaTestBroker;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The Kafka sink from Spring Boot: an application that has lockfreelog-kafka and sets only
 * {@code spring.kafka.bootstrap-servers} and {@code lockfreelog.kafka.topic} sends every line, from the first start-up
 * line on, to the topic, as a {@code read_committed} consumer reads it; a setting it cannot use is named and the
 * application starts without the sink.
 */
@ExtendWith(OutputCaptureExtension.class)
class LockFreeLogKafkaTests {

    private static final int THREADS = 2;

    /** A line of Spring Boot's log file pattern: date, level, pid, application, thread, logger, message. */
    private static final Pattern BOOT_LINE = Pattern.compile(
            "\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}\\S* +(TRACE|DEBUG|INFO|WARN|ERROR) \\d+ --- .*"
                    + " (\\S+) +: (.*)\\R", Pattern.DOTALL);

    @TempDir
    Path dir;

    @AfterEach
    void cleanUp() {
        LogbackTestSupport.cleanUp();
    }

    @Test
    void bootstrapServersAndATopicSendEveryLineOnceInOrderInSpringBootsFilePattern() throws Exception {
        String topic = KafkaTestBroker.newTopic("boot");
        int lines = 500;
        try (ConfigurableApplicationContext context = LogbackTestSupport.application(TestApplication.class,
                "spring.kafka.bootstrap-servers=" + KafkaTestBroker.bootstrap(), "lockfreelog.kafka.topic=" + topic)
                .run()) {
            LockFreeAppenderBase kafka = runtime().kafka();
            assertThat(kafka).isNotNull();
            assertThat(kafka.getName()).isEqualTo("LOCKFREE_KAFKA");
            assertThat(kafka.getStatistics().target()).isEqualTo("kafka");
            log(lines);
            LockFreeLogEndpoint endpoint = new LockFreeLogEndpoint(
                    new LockFreeLogAppenders(LogbackTestSupport.loggerContext(), runtime()));
            AppenderDescriptor described = endpoint.appender("LOCKFREE_KAFKA");
            assertThat(described.autoConfigured()).isTrue();
            assertThat(described.loggers()).containsExactly("ROOT");
            assertThat(described.statistics().target()).isEqualTo("kafka");
            assertThat(described.kafka()).containsOnlyKeys("connected", "oldestUndeliveredMillis", "eventsDelivered",
                    "transactionsCommitted", "transactionsAborted", "tooLarge", "refused", "commitsRetried");
            assertThat(described.kafka().get("refused")).as("nothing refused here").isEqualTo(java.util.Map.of());
            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            new LockFreeLogMetrics(new LockFreeLogAppenders(LogbackTestSupport.loggerContext(), runtime()))
                    .bindTo(registry);
            FunctionCounter delivered = registry.get("lockfreelog.kafka.events.delivered")
                    .tags("appender", "LOCKFREE_KAFKA", "target", "kafka").functionCounter();
            await().atMost(Duration.ofSeconds(30)).until(() -> delivered.count() >= THREADS * lines);
            assertThat(registry.get("lockfreelog.kafka.transactions").tags("outcome", "committed").functionCounter()
                    .count()).isPositive();
            assertThat(registry.get("lockfreelog.kafka.events.too.large").functionCounter().count()).isZero();
            Map<String, Object> details = endpoint.appender("LOCKFREE_KAFKA").kafka();
            assertThat((Long) details.get("eventsDelivered")).isGreaterThanOrEqualTo(THREADS * lines);
            assertThat(details.get("connected")).isEqualTo(true);
            assertThat(details.get("transactionsAborted")).isEqualTo(0L);
            assertThat(registry.get("lockfreelog.kafka.connected").gauge().value()).isEqualTo(1.0);
            assertThat(registry.get("lockfreelog.kafka.oldest.undelivered").timeGauge().value(TimeUnit.MILLISECONDS))
                    .isGreaterThanOrEqualTo(0.0);
        }
        LockFreeAppenderBase kafka = runtime().kafka();
        runtime().shutdown(); // what the JVM's shutdown does: drains the journal into the topic
        List<String> values = CommittedReader.values(KafkaTestBroker.bootstrap(), topic);

        Map<Integer, Integer> next = new HashMap<>();
        boolean sawStarting = false;
        for (String value : values) {
            Matcher m = BOOT_LINE.matcher(value);
            assertThat(m.matches()).as("one record, one line in Spring Boot's file pattern: %s", value).isTrue();
            assertThat(m.group(2)).as("no line of the Kafka client itself").doesNotStartWith("o.a.k");
            String message = m.group(3);
            sawStarting |= message.startsWith("Starting LockFreeLogKafkaTests.TestApplication")
                    || message.startsWith("Starting TestApplication");
            if (message.startsWith("K") && message.contains(" check=")) {
                int thread = Integer.parseInt(message.substring(1, message.indexOf(' ')));
                int expected = next.getOrDefault(thread, 0);
                assertThat(message).as("thread %d: once, in order", thread).isEqualTo(message(thread, expected));
                next.put(thread, expected + 1);
            }
        }
        assertThat(sawStarting).as("Spring Boot's start-up line, in the topic: %s", values.subList(0,
                Math.min(5, values.size()))).isTrue();
        for (int t = 0; t < THREADS; t++) {
            assertThat(next.get(t)).as("thread %d", t).isEqualTo(lines);
        }
        assertThat(kafka.getStatistics().dropped()).isZero();
        assertThat(kafka.getStatistics().eventsWritten()).isEqualTo(values.size());
    }

    @Test
    void aStructuredFormatMakesEachRecordOneJsonDocument() throws Exception {
        String topic = KafkaTestBroker.newTopic("ecs");
        try (ConfigurableApplicationContext context = LogbackTestSupport.application(TestApplication.class,
                "spring.kafka.bootstrap-servers=" + KafkaTestBroker.bootstrap(), "lockfreelog.kafka.topic=" + topic,
                "lockfreelog.kafka.structured-format=ecs", "spring.application.name=kafka-ecs").run()) {
            log(20);
        }
        runtime().shutdown();
        List<String> messages = new ArrayList<>();
        for (String value : CommittedReader.values(KafkaTestBroker.bootstrap(), topic)) {
            JsonNode node = JsonMapper.builder().build().readTree(value);
            assertThat(node.path("service").path("name").asString()).as(value).isEqualTo("kafka-ecs");
            String message = node.path("message").asString();
            if (message.contains(" check=")) {
                messages.add(message);
            }
        }
        assertThat(messages.stream().filter(m -> m.startsWith("K0 "))).containsExactlyElementsOf(
                java.util.stream.IntStream.range(0, 20).mapToObj(n -> message(0, n)).toList());
        assertThat(messages).hasSize(THREADS * 20);
    }

    @Test
    void transactionalFalseSendsEveryLineWithoutTransactions() throws Exception {
        String topic = KafkaTestBroker.newTopic("off");
        try (ConfigurableApplicationContext context = LogbackTestSupport.application(TestApplication.class,
                "spring.kafka.bootstrap-servers=" + KafkaTestBroker.bootstrap(), "lockfreelog.kafka.topic=" + topic,
                "lockfreelog.kafka.transactional=false", "lockfreelog.kafka.transaction-linger=10ms",
                "lockfreelog.kafka.position-topic-replication-factor=-1").run()) {
            assertThat(runtime().kafka()).isInstanceOfSatisfying(LockFreeKafkaAppender.class, kafka -> {
                assertThat(kafka.isTransactional()).isFalse();
                assertThat(kafka.getTransactionLinger()).isEqualTo(10);
                assertThat(kafka.getPositionTopicReplicationFactor()).isEqualTo((short) -1);
            });
            log(20);
        }
        LockFreeKafkaAppender kafka = (LockFreeKafkaAppender) runtime().kafka();
        runtime().shutdown();
        List<String> messages = CommittedReader.values(KafkaTestBroker.bootstrap(), topic).stream().filter(v -> v.contains(" check="))
                .map(v -> v.substring(v.indexOf(": K") + 2).strip()).toList();
        for (int t = 0; t < THREADS; t++) {
            int thread = t;
            assertThat(messages.stream().filter(m -> m.startsWith("K" + thread + " ")))
                    .as("thread %d: once each, in order", thread).containsExactlyElementsOf(
                            java.util.stream.IntStream.range(0, 20).mapToObj(n -> message(thread, n)).toList());
        }
        assertThat(kafka.getKafkaCounters().transactionsCommitted()).isZero();
        assertThat(kafka.getKafkaCounters().eventsDelivered()).isGreaterThanOrEqualTo(THREADS * 20);
    }

    @Test
    void enabledWithoutATopicIsNamedAndTheApplicationStartsWithoutTheSink(CapturedOutput output) {
        try (ConfigurableApplicationContext context = LogbackTestSupport.application(TestApplication.class,
                "lockfreelog.kafka.enabled=true").run()) {
            assertThat(context.isRunning()).isTrue();
            assertThat(runtime().kafka()).isNull();
        }
        assertThat(output.getAll()).contains("lockfreelog: the log is not sent to Kafka: lockfreelog.kafka.topic is not set: expected")
                .contains("the name of the topic every event goes to");
    }

    @Test
    void aBadKeyIsNamedAndTheApplicationStartsWithoutTheSink(CapturedOutput output) {
        try (ConfigurableApplicationContext context = LogbackTestSupport.application(TestApplication.class,
                "lockfreelog.kafka.topic=somewhere", "lockfreelog.kafka.key=partition").run()) {
            assertThat(context.isRunning()).isTrue();
            assertThat(runtime().kafka()).isNull();
        }
        assertThat(output.getAll()).contains("lockfreelog.kafka.key=\"partition\" (")
                .contains("none, thread, constant:<value> or mdc:<name>");
    }

    @Test
    void anEngineSettingOutOfRangeIsNamedUnderTheKafkaPrefix(CapturedOutput output) {
        try (ConfigurableApplicationContext context = LogbackTestSupport.application(TestApplication.class,
                "lockfreelog.kafka.topic=somewhere", "lockfreelog.kafka.buffer-size=3KB").run()) {
            assertThat(context.isRunning()).isTrue();
            assertThat(runtime().kafka()).isNull();
        }
        assertThat(output.getAll()).contains("the log is not sent to Kafka: lockfreelog.kafka.buffer-size=\"3KB\"");
    }

    @Test
    void aProducerSettingThatIsNotANumberIsNamedAndTheApplicationStartsWithoutTheSink(CapturedOutput output) {
        try (ConfigurableApplicationContext context = LogbackTestSupport.application(TestApplication.class,
                "lockfreelog.kafka.topic=somewhere", "lockfreelog.kafka.producer.max.block.ms=10s").run()) {
            assertThat(context.isRunning()).isTrue();
            assertThat(runtime().kafka()).isNull();
        }
        assertThat(output.getAll()).contains("the log is not sent to Kafka: lockfreelog.kafka.producer")
                .contains("max.block.ms=10s").contains("max.block.ms as a whole number of milliseconds")
                .doesNotContain("spring.kafka.bootstrap-servers");
    }

    /**
     * The Kafka module knows no Spring Boot names: the starter passes them, so a refusal names the property to
     * change, not the {@code logback.xml} element.
     */
    @Test
    void aTopicThatDoesNotExistIsNamedByItsProperty() {
        String topic = "absent-" + java.util.UUID.randomUUID().toString().substring(0, 8);
        try (ConfigurableApplicationContext context = LogbackTestSupport.application(TestApplication.class,
                "spring.kafka.bootstrap-servers=" + KafkaTestBroker.bootstrap(), "lockfreelog.kafka.topic=" + topic,
                "lockfreelog.kafka.journal=" + dir.resolve("absent.journal")).run()) {
            LoggerFactory.getLogger("kafka.test").info("waits");
            await().atMost(Duration.ofSeconds(30)).until(() -> runtime().kafka().getStatistics().lastError() != null);
            assertThat(runtime().kafka().getStatistics().lastError()).contains(topic + " does not exist")
                    .contains("lockfreelog.kafka.topic").doesNotContain("<topic>");
        }
    }

    @Test
    void anUnreachableClusterLeavesTheApplicationRunningWithEventsWaitingInTheJournal() {
        try (ConfigurableApplicationContext context = LogbackTestSupport.application(TestApplication.class,
                "spring.kafka.bootstrap-servers=localhost:1", "lockfreelog.kafka.topic=nowhere",
                "lockfreelog.kafka.journal=" + dir.resolve("kafka.journal"),
                "lockfreelog.kafka.producer.max.block.ms=500",
                // the sink's admin client waits for its calls when it closes, up to these (default 60s, 30s)
                "lockfreelog.kafka.producer.default.api.timeout.ms=1000",
                "lockfreelog.kafka.producer.request.timeout.ms=1000").run()) {
            assertThat(context.isRunning()).isTrue();
            LoggerFactory.getLogger("kafka.test").info("waits");
            AppenderStatistics statistics = runtime().kafka().getStatistics();
            assertThat(statistics.started()).isTrue();
            assertThat(statistics.target()).isEqualTo("kafka");
            assertThat(statistics.journal()).isEqualTo(dir.resolve("kafka.journal").toString());
            assertThat(statistics.appended()).isPositive();
            assertThat(statistics.eventsWritten()).isZero();
            assertThat(statistics.dropped()).isZero();
            await().atMost(Duration.ofSeconds(20)).until(() -> runtime().kafka().getStatistics().lastError() != null);
            AppenderStatistics failing = runtime().kafka().getStatistics();
            assertThat(failing.failingSinceEpochMillis()).as("health shows it DOWN").isPositive();
            assertThat(failing.lastError()).as("what a user sees at /actuator/lockfreelog").contains("nowhere");
            AppenderDescriptor described = new LockFreeLogEndpoint(new LockFreeLogAppenders(
                    LogbackTestSupport.loggerContext(), runtime())).appender("LOCKFREE_KAFKA");
            assertThat(described.kafka().get("connected")).isEqualTo(false);
            assertThat(described.kafka().get("transactionsAborted")).as("no transaction began").isEqualTo(0L);
            assertThat(described.statistics().inFlight()).as("the events waiting").isPositive();
        }
    }

    @Test
    void withoutATopicOrEnabledThereIsNoSink(CapturedOutput output) {
        try (ConfigurableApplicationContext context = LogbackTestSupport.application(TestApplication.class,
                "spring.kafka.bootstrap-servers=localhost:1").run()) {
            assertThat(runtime().kafka()).isNull();
        }
        assertThat(output.getAll()).doesNotContain("lockfreelog.kafka").doesNotContain("not sent to Kafka");
    }

    private static void log(int lines) throws InterruptedException {
        Logger log = LoggerFactory.getLogger("kafka.test");
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            int id = t;
            threads.add(new Thread(() -> {
                for (int n = 0; n < lines; n++) {
                    log.info(message(id, n));
                }
            }, "writer-" + t));
        }
        threads.forEach(Thread::start);
        for (Thread thread : threads) {
            thread.join();
        }
    }

    static String message(int thread, int n) {
        return "K" + thread + " " + n + " check=" + (n * 31 + thread);
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class TestApplication {
    }
}
