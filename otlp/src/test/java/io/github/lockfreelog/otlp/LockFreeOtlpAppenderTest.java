package io.github.lockfreelog.otlp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.core.status.Status;
import ch.qos.logback.core.util.Duration;
import ch.qos.logback.core.util.FileSize;
import com.google.protobuf.ByteString;
import io.github.lockfreelog.testsupport.TestLogback;
import io.opentelemetry.proto.logs.v1.SeverityNumber;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the collector receives, parsed with the official generated classes: every field of a record as the
 * appender's caller wrote it, the resource and scope, the uid; every record of four threads, in each thread's order;
 * and what bad settings say.
 */
class LockFreeOtlpAppenderTest {

    @TempDir
    Path dir;

    private final List<LockFreeOtlpAppender> started = new ArrayList<>();
    private TestCollector collector;

    @AfterEach
    void stop() {
        started.forEach(LockFreeOtlpAppender::stop);
        if (collector != null) {
            collector.close();
        }
    }

    static LockFreeOtlpAppender appender(LoggerContext context, String endpoint, Path journal,
            Consumer<LockFreeOtlpAppender> settings) {
        LockFreeOtlpAppender appender = new LockFreeOtlpAppender();
        appender.setContext(context);
        appender.setName("OTLP");
        appender.setEndpoint(endpoint);
        appender.setJournal(journal.toString());
        appender.setServiceName("orders");
        appender.setBufferSize(new FileSize(64 * 1024));
        appender.setBufferCount(3);
        appender.setFlushInterval(Duration.valueOf("20 milliseconds"));
        appender.setMaxBlockTime(Duration.valueOf("30 seconds"));
        settings.accept(appender);
        return appender;
    }

    LockFreeOtlpAppender started(LoggerContext context, Consumer<LockFreeOtlpAppender> settings) {
        LockFreeOtlpAppender appender = appender(context, collector.endpoint(), dir.resolve("otlp.journal"), settings);
        appender.start();
        assertThat(appender.isStarted()).as(TestLogback.statuses(context)).isTrue();
        started.add(appender);
        return appender;
    }

    @Test
    void everyFieldOfARecordArrivesAsTheCallerWroteIt() throws Exception {
        collector = TestCollector.start();
        LoggerContext context = TestLogback.newContext();
        LockFreeOtlpAppender appender = started(context, a -> a.addResourceAttribute("deployment.environment=test"));
        Logger logger = TestLogback.logger(context, "com.example.Orders", appender);
        Instant before = Instant.now();
        context.getMDCAdapter().setContextMap(Map.of("traceId", "0af7651916cd43dd8448eb211c80319c", "spanId", "b7ad6b7169203331",
                "order", "42"));
        try {
            logger.atWarn().addKeyValue("amount", 12L).addKeyValue("paid", true).addKeyValue("ratio", 0.5)
                    .addKeyValue("who", "ann").log("order {} failed: é ☃ 😀", 42);
        } finally {
            context.getMDCAdapter().clear();
        }
        IllegalStateException thrown = new IllegalStateException("out of stock");
        TestLogback.logger(context, "com.example.Stock", appender).error("cannot reserve", thrown);
        await().atMost(20, TimeUnit.SECONDS).until(() -> collector.records.size() == 2);

        TestCollector.Received first = collector.records.get(0);
        assertThat(first.scope()).isEqualTo("com.example.Orders");
        assertThat(first.resource().getAttributesList()).extracting(kv -> kv.getKey() + "=" + kv.getValue()
                .getStringValue()).containsExactly("service.name=orders", "deployment.environment=test");
        assertThat(first.body()).isEqualTo("order 42 failed: é ☃ 😀");
        assertThat(first.record().getSeverityNumber()).isEqualTo(SeverityNumber.SEVERITY_NUMBER_WARN);
        assertThat(first.record().getSeverityText()).isEqualTo("WARN");
        long time = first.record().getTimeUnixNano();
        assertThat(time).isBetween(before.toEpochMilli() * 1_000_000L, System.currentTimeMillis() * 1_000_000L);
        assertThat(first.record().getObservedTimeUnixNano()).as("observed as Logback made it, on the caller's thread")
                .isEqualTo(time);
        assertThat(first.record().getTraceId()).isEqualTo(ByteString.fromHex("0af7651916cd43dd8448eb211c80319c"));
        assertThat(first.record().getSpanId()).isEqualTo(ByteString.fromHex("b7ad6b7169203331"));
        assertThat(first.attribute("thread.name")).isEqualTo(Thread.currentThread().getName());
        assertThat(first.attribute("thread.id")).isEqualTo(Long.toString(Thread.currentThread().getId()));
        assertThat(first.attribute("order")).isEqualTo("42");
        assertThat(first.attribute("traceId")).as("the ids have fields of their own").isNull();
        assertThat(first.record().getAttributesList()).filteredOn(kv -> kv.getKey().equals("amount")).singleElement()
                .satisfies(kv -> assertThat(kv.getValue().getIntValue()).isEqualTo(12L));
        assertThat(first.record().getAttributesList()).filteredOn(kv -> kv.getKey().equals("paid")).singleElement()
                .satisfies(kv -> assertThat(kv.getValue().getBoolValue()).isTrue());
        assertThat(first.record().getAttributesList()).filteredOn(kv -> kv.getKey().equals("ratio")).singleElement()
                .satisfies(kv -> assertThat(kv.getValue().getDoubleValue()).isEqualTo(0.5));
        assertThat(first.attribute("who")).isEqualTo("ann");
        assertThat(first.uid()).matches("[0-9a-f]{16}-\\d+-\\d+");

        TestCollector.Received second = collector.records.get(1);
        assertThat(second.scope()).isEqualTo("com.example.Stock");
        assertThat(second.body()).as("the exception is in attributes, not the body").isEqualTo("cannot reserve");
        assertThat(second.record().getSeverityNumber()).isEqualTo(SeverityNumber.SEVERITY_NUMBER_ERROR);
        assertThat(second.attribute("exception.type")).isEqualTo(IllegalStateException.class.getName());
        assertThat(second.attribute("exception.message")).isEqualTo("out of stock");
        assertThat(second.attribute("exception.stacktrace")).startsWith(IllegalStateException.class.getName()
                + ": out of stock").contains("everyFieldOfARecordArrivesAsTheCallerWroteIt");
        assertThat(second.record().getTraceId()).isEmpty();
        assertThat(second.uid()).isNotEqualTo(first.uid());

        TestCollector.Request request = collector.requests.get(collector.requests.size() - 1);
        assertThat(request.contentType()).isEqualTo("application/x-protobuf");
        assertThat(request.contentEncoding()).isNull();
        assertThat(appender.getOtlpCounters().recordsAcknowledged()).isEqualTo(2);
        assertThat(appender.getStatistics().target()).isEqualTo("otlp");
    }

    /** The scope and thread attributes a thread keeps encoded follow each change of logger and of the thread's name. */
    @Test
    void eachRecordHasItsOwnLoggerAndThreadNameWhenTheyChangeFromEventToEvent() throws Exception {
        collector = TestCollector.start();
        LoggerContext context = TestLogback.newContext();
        LockFreeOtlpAppender appender = started(context, a -> { });
        Thread current = Thread.currentThread();
        String name = current.getName();
        try {
            TestLogback.logger(context, "a.A", appender).info("1");
            TestLogback.logger(context, "b.B", appender).info("2");
            current.setName("renamed-é");
            TestLogback.logger(context, "a.A", appender).info("3");
        } finally {
            current.setName(name);
        }
        TestLogback.logger(context, "a.A", appender).info("4");
        await().atMost(20, TimeUnit.SECONDS).until(() -> collector.records.size() == 4);
        assertThat(collector.records).extracting(r -> r.body() + " " + r.scope() + " " + r.attribute("thread.name"))
                .containsExactly("1 a.A " + name, "2 b.B " + name, "3 a.A renamed-é", "4 a.A " + name);
        assertThat(collector.records).allSatisfy(r -> assertThat(r.attribute("thread.id"))
                .isEqualTo(Long.toString(current.getId())));
    }

    /**
     * An event appended on another thread than the one that made it (an {@code AsyncAppender}'s worker): its own thread's
     * name, no {@code thread.id} (the worker's is not the event's), observed when appended; the worker's own events,
     * before and after, keep the worker's attributes.
     */
    @Test
    void anEventAppendedByAnotherThreadKeepsItsThreadsNameAndIsObservedWhenAppended() throws Exception {
        collector = TestCollector.start();
        LoggerContext context = TestLogback.newContext();
        LockFreeOtlpAppender appender = started(context, a -> { });
        Logger logger = TestLogback.logger(context, "handed.Over", appender);
        LoggingEvent handed = new LoggingEvent(Logger.class.getName(), logger, Level.INFO, "made here", null, null);
        handed.getThreadName(); // as an AsyncAppender's prepareForDeferredProcessing keeps it
        long made = handed.getInstant().getEpochSecond() * 1_000_000_000L + handed.getInstant().getNano();
        Thread.sleep(50);
        Thread worker = new Thread(() -> {
            logger.info("the worker's own 1");
            appender.doAppend(handed);
            logger.info("the worker's own 2");
        }, "worker-é");
        worker.start();
        worker.join();
        await().atMost(20, TimeUnit.SECONDS).until(() -> collector.records.size() == 3);

        assertThat(collector.records).extracting(TestCollector.Received::body)
                .containsExactly("the worker's own 1", "made here", "the worker's own 2");
        TestCollector.Received received = collector.records.get(1);
        assertThat(received.scope()).isEqualTo("handed.Over");
        assertThat(received.attribute("thread.name")).isEqualTo(Thread.currentThread().getName());
        assertThat(received.attribute("thread.id")).isNull();
        assertThat(received.record().getTimeUnixNano()).isEqualTo(made);
        assertThat(received.record().getObservedTimeUnixNano()).as("observed when the worker appended it")
                .isGreaterThanOrEqualTo(made + 40_000_000L);
        for (TestCollector.Received own : List.of(collector.records.get(0), collector.records.get(2))) {
            assertThat(own.attribute("thread.name")).isEqualTo("worker-é");
            assertThat(own.attribute("thread.id")).isEqualTo(Long.toString(worker.getId()));
            assertThat(own.record().getObservedTimeUnixNano()).isEqualTo(own.record().getTimeUnixNano());
        }
    }

    @Test
    void fourThreadsRecordsAllArriveOnceEachInItsThreadsOrderGzippedWithTheirHeaders() throws Exception {
        collector = TestCollector.start();
        LoggerContext context = TestLogback.newContext();
        LockFreeOtlpAppender appender = started(context, a -> {
            a.setCompression("gzip");
            a.addHeader("Authorization=Bearer s3cret");
        });
        int threads = 4;
        int events = 5_000;
        List<Thread> callers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int thread = t;
            Logger logger = TestLogback.logger(context, "caller.t" + t % 2, appender); // two scopes, interleaved
            callers.add(new Thread(() -> {
                for (int i = 0; i < events; i++) {
                    logger.info("t{} e{} {}", thread, i, "x".repeat(i % 50));
                }
            }, "caller-" + t));
        }
        callers.forEach(Thread::start);
        for (Thread caller : callers) {
            caller.join();
        }
        awaitRecords(context, appender, threads * events);
        appender.stop();

        assertThat(collector.records).hasSize(threads * events);
        Map<Integer, Integer> next = new HashMap<>();
        Set<String> uids = new HashSet<>();
        for (TestCollector.Received received : collector.records) {
            String body = received.body();
            int thread = Integer.parseInt(body.substring(1, body.indexOf(' ')));
            int number = Integer.parseInt(body.substring(body.indexOf(" e") + 2, body.indexOf(' ', body.indexOf(" e") + 1)));
            assertThat(number).as("thread %d's next event", thread).isEqualTo(next.getOrDefault(thread, 0));
            next.put(thread, number + 1);
            assertThat(body).isEqualTo("t" + thread + " e" + number + " " + "x".repeat(number % 50));
            assertThat(received.scope()).isEqualTo("caller.t" + thread % 2);
            assertThat(received.attribute("thread.name")).isEqualTo("caller-" + thread);
            assertThat(uids.add(received.uid())).as("uid %s once", received.uid()).isTrue();
        }
        assertThat(collector.requests).allSatisfy(r -> {
            assertThat(r.contentEncoding()).isEqualTo("gzip");
            assertThat(r.headers().get("Authorization")).containsExactly("Bearer s3cret");
        });
        assertThat(appender.getStatistics().dropped()).isZero();
        assertThat(appender.getOtlpCounters().recordsAcknowledged()).isEqualTo(threads * events);
    }

    /** Waits for {@code count} records at the receiver; on a timeout, says what the appender and the receiver saw. */
    private void awaitRecords(LoggerContext context, LockFreeOtlpAppender appender, int count) {
        try {
            await().atMost(60, TimeUnit.SECONDS).until(() -> collector.records.size() >= count);
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            throw new AssertionError(collector.records.size() + " of " + count + " records; requests "
                    + collector.requests.stream().map(r -> r.status() + ":" + r.records()).toList() + "; receiver failures "
                    + collector.failures + "; " + appender.getStatistics() + "; statuses:\n"
                    + TestLogback.statuses(context), e);
        }
    }

    @Test
    void aLogbackXmlDeclaresItWithItsSettings() throws Exception {
        collector = TestCollector.start();
        LoggerContext context = TestLogback.newContext();
        String xml = "<configuration>"
                + "<appender name='OTLP' class='io.github.lockfreelog.otlp.LockFreeOtlpAppender'>"
                + "<endpoint>" + collector.endpoint() + "</endpoint>"
                + "<journal>" + dir.resolve("xml.journal") + "</journal>"
                + "<serviceName>billing</serviceName>"
                + "<resourceAttribute>deployment.environment=xml</resourceAttribute>"
                + "<header>X-Tenant=acme</header>"
                + "<compression>gzip</compression>"
                + "<timeout>5 seconds</timeout>"
                + "</appender>"
                + "<root level='INFO'><appender-ref ref='OTLP'/></root></configuration>";
        ch.qos.logback.classic.joran.JoranConfigurator configurator = new ch.qos.logback.classic.joran.JoranConfigurator();
        configurator.setContext(context);
        configurator.doConfigure(new java.io.ByteArrayInputStream(xml.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        LockFreeOtlpAppender appender = (LockFreeOtlpAppender) context.getLogger(Logger.ROOT_LOGGER_NAME)
                .getAppender("OTLP");
        assertThat(appender).as(TestLogback.statuses(context)).isNotNull();
        started.add(appender);
        assertThat(appender.isStarted()).as(TestLogback.statuses(context)).isTrue();
        context.getLogger("from.xml").info("declared in logback.xml");
        await().atMost(20, TimeUnit.SECONDS).until(() -> collector.bodies().contains("declared in logback.xml"));
        TestCollector.Received received = collector.records.get(collector.records.size() - 1);
        assertThat(received.resource().getAttributesList()).extracting(kv -> kv.getKey() + "=" + kv.getValue()
                .getStringValue()).containsExactly("service.name=billing", "deployment.environment=xml");
        TestCollector.Request request = collector.requests.get(collector.requests.size() - 1);
        assertThat(request.contentEncoding()).isEqualTo("gzip");
        assertThat(request.headers().get("X-tenant")).containsExactly("acme");
    }

    @Test
    void badSettingsAreNamedWithWhatIsAllowedAndTheAppenderDoesNotStart() {
        LoggerContext context = TestLogback.newContext();
        LockFreeOtlpAppender appender = appender(context, "localhost:4318", dir.resolve("bad.journal"), a -> {
            a.setCompression("zstd");
            a.setTimeout(Duration.valueOf("0 seconds"));
        });
        appender.start();
        assertThat(appender.isStarted()).isFalse();
        assertThat(TestLogback.statusMessages(context, Status.ERROR)).anySatisfy(m -> assertThat(m)
                .contains("endpoint", "localhost:4318", "http", "OTLP")).anySatisfy(m -> assertThat(m)
                .contains("compression", "zstd", "none or gzip")).anySatisfy(m -> assertThat(m)
                .contains("timeout", "positive duration"));
    }

    @Test
    void theEndpointGetsItsLogsPathOnce() {
        assertThat(LockFreeOtlpAppender.logsUri("http://localhost:4318")).hasToString("http://localhost:4318/v1/logs");
        assertThat(LockFreeOtlpAppender.logsUri("http://localhost:4318/")).hasToString("http://localhost:4318/v1/logs");
        assertThat(LockFreeOtlpAppender.logsUri("https://c.example/otlp/v1/logs"))
                .hasToString("https://c.example/otlp/v1/logs");
        assertThat(LockFreeOtlpAppender.logsUri("grpc://localhost:4317")).isNull();
    }
}
