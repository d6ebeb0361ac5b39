package io.github.lockfreelog.otlp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.core.status.Status;
import ch.qos.logback.core.util.Duration;
import io.github.lockfreelog.testsupport.TestLogback;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The collector's faults, one by one, against the promise: a collector down at start holds nothing up and is said
 * once; 503 with {@code Retry-After}, 429 and a slow answer are retried until acknowledged, every event there, in
 * order, a repeat only of the batch in flight and with the same {@code log.record.uid}; a partial success and a 400
 * are counted as rejected and said once, and the events after them go on.
 */
class OtlpFaultsTest {

    @TempDir
    Path dir;

    private LoggerContext context;
    private LockFreeOtlpAppender appender;
    private TestCollector collector;

    @AfterEach
    void stop() {
        if (appender != null) {
            appender.stop();
        }
        if (collector != null) {
            collector.close();
        }
    }

    private Logger start(String endpoint, Consumer<LockFreeOtlpAppender> settings) {
        context = TestLogback.newContext();
        appender = LockFreeOtlpAppenderTest.appender(context, endpoint, dir.resolve("otlp.journal"), settings);
        appender.start();
        assertThat(appender.isStarted()).as(TestLogback.statuses(context)).isTrue();
        return TestLogback.logger(context, "faults", appender);
    }

    /** Starts the appender on the running collector once its probe at start was answered (faults come after it). */
    private Logger startAnswered(Consumer<LockFreeOtlpAppender> settings) {
        Logger logger = start(collector.endpoint(), settings);
        await().atMost(20, TimeUnit.SECONDS).until(() -> collector.requests.size() == 1);
        return logger;
    }

    private static List<String> log(Logger logger, int from, int to) {
        List<String> logged = new ArrayList<>();
        for (int i = from; i < to; i++) {
            String event = "e" + i + " " + "y".repeat(i % 30);
            logger.info(event);
            logged.add(event);
        }
        return logged;
    }

    /** Every copy of a record has its first copy's uid; returns the bodies in order of first arrival. */
    private List<String> firstArrivals() {
        Map<String, String> uids = new HashMap<>();
        LinkedHashSet<String> first = new LinkedHashSet<>();
        for (TestCollector.Received received : collector.records) {
            String before = uids.putIfAbsent(received.body(), received.uid());
            assertThat(before == null || before.equals(received.uid())).as("copies of %s carry one uid: %s and %s",
                    received.body(), before, received.uid()).isTrue();
            first.add(received.body());
        }
        return new ArrayList<>(first);
    }

    @Test
    void aCollectorDownAtStartHoldsNothingUpIsSaidOnceAndGetsEverythingInOrderWhenItComes() throws Exception {
        int port = TestCollector.freePort();
        Logger logger = start("http://127.0.0.1:" + port, a -> { });
        List<String> logged = log(logger, 0, 300);
        await().atMost(20, TimeUnit.SECONDS).until(() -> TestLogback.statusMessages(context, Status.WARN).stream()
                .anyMatch(m -> m.contains("cannot take events yet")));
        logged.addAll(log(logger, 300, 600));
        assertThat(appender.getStatistics().dropped()).isZero();
        collector = TestCollector.start(port);
        await().atMost(30, TimeUnit.SECONDS).until(() -> collector.records.size() >= logged.size());
        assertThat(collector.bodies()).containsExactlyElementsOf(logged);
        assertThat(TestLogback.statusMessages(context, Status.WARN)).filteredOn(m -> m.contains("cannot take events"))
                .hasSize(1);
        assertThat(TestLogback.statusMessages(context, Status.INFO)).anyMatch(m -> m.contains("takes events again"));
        assertThat(appender.getOtlpCounters().connected()).isTrue();
    }

    @Test
    void a503WithRetryAfterIsTriedAgainNoSoonerThanItSaysAndEveryEventArrivesOnce() throws Exception {
        collector = TestCollector.start();
        Logger logger = startAnswered(a -> { });
        collector.faults.add(TestCollector.Fault.retryAfter(503, "2"));
        List<String> logged = log(logger, 0, 50);
        await().atMost(30, TimeUnit.SECONDS).until(() -> collector.records.size() >= logged.size());
        assertThat(collector.bodies()).containsExactlyElementsOf(logged);
        TestCollector.Request refused = collector.requests.get(1);
        TestCollector.Request retry = collector.requests.get(2);
        assertThat(refused.status()).isEqualTo(503);
        assertThat(retry.status()).isEqualTo(200);
        assertThat(TimeUnit.NANOSECONDS.toMillis(retry.nanos() - refused.nanos())).as("Retry-After: 2")
                .isGreaterThanOrEqualTo(1900);
        assertThat(appender.getOtlpCounters().requestsRetried()).isEqualTo(1);
        assertThat(appender.getOtlpCounters().lastError()).contains("503", "try later");
    }

    @Test
    void a429WithoutRetryAfterBacksOffAndEveryEventArrivesOnce() throws Exception {
        collector = TestCollector.start();
        Logger logger = startAnswered(a -> { });
        collector.faults.add(TestCollector.Fault.status(429, "slow down"));
        collector.faults.add(TestCollector.Fault.status(429, "slow down"));
        List<String> logged = log(logger, 0, 50);
        await().atMost(30, TimeUnit.SECONDS).until(() -> collector.records.size() >= logged.size());
        assertThat(collector.bodies()).containsExactlyElementsOf(logged);
        assertThat(collector.requests).extracting(TestCollector.Request::status).startsWith(200, 429, 429, 200);
        long first = collector.requests.get(2).nanos() - collector.requests.get(1).nanos();
        long second = collector.requests.get(3).nanos() - collector.requests.get(2).nanos();
        assertThat(TimeUnit.NANOSECONDS.toMillis(first)).as("first back-off, 1 s less its jitter").isGreaterThanOrEqualTo(790);
        assertThat(TimeUnit.NANOSECONDS.toMillis(second)).as("second back-off, 2 s less its jitter").isGreaterThanOrEqualTo(1590);
        assertThat(appender.getOtlpCounters().requestsRetried()).isEqualTo(2);
    }

    @Test
    void aPartialSuccessCountsTheRejectedRecordsAndSaysWhyOnce() throws Exception {
        collector = TestCollector.start();
        Logger logger = startAnswered(a -> { });
        collector.faults.add(TestCollector.Fault.partial(2, "attribute too long"));
        collector.faults.add(TestCollector.Fault.partial(1, "attribute too long"));
        List<String> logged = log(logger, 0, 10);
        await().atMost(20, TimeUnit.SECONDS).until(() -> collector.records.size() >= 10);
        logged.addAll(log(logger, 10, 20));
        await().atMost(20, TimeUnit.SECONDS).until(() -> collector.records.size() >= 20);
        long first = Math.min(2, collector.requests.get(1).records());
        long second = Math.min(1, collector.requests.get(2).records());
        OtlpCounters counters = appender.getOtlpCounters();
        assertThat(counters.recordsRejected()).isEqualTo(first + second);
        assertThat(counters.recordsAcknowledged()).isEqualTo(20 - first - second);
        assertThat(TestLogback.statusMessages(context, Status.ERROR)).filteredOn(m -> m.contains("partial success"))
                .singleElement().satisfies(m -> assertThat(m).contains("attribute too long", "rejected " + first));
        assertThat(collector.bodies()).as("the collector kept them all: it says which it rejected")
                .containsExactlyElementsOf(logged);
    }

    @Test
    void a400SetsTheBatchAsideCountedAndSaidOnceAndTheNextEventsGoOn() throws Exception {
        collector = TestCollector.start();
        Logger logger = startAnswered(a -> { });
        collector.faults.add(TestCollector.Fault.status(400, "bad data"));
        collector.faults.add(TestCollector.Fault.status(400, "bad data again"));
        List<String> logged = log(logger, 0, 5);
        await().atMost(20, TimeUnit.SECONDS).until(() -> appender.getOtlpCounters().requestsRejected() >= 1);
        logged.addAll(log(logger, 5, 8));
        await().atMost(20, TimeUnit.SECONDS).until(() -> appender.getOtlpCounters().requestsRejected() == 2);
        logged.addAll(log(logger, 8, 20));
        int rejected = collector.requests.stream().filter(r -> r.status() == 400)
                .mapToInt(TestCollector.Request::records).sum();
        await().atMost(20, TimeUnit.SECONDS).until(() -> collector.records.size() >= 20 - rejected);
        assertThat(collector.bodies()).as("all but the first %d, set aside", rejected)
                .containsExactlyElementsOf(logged.subList(rejected, 20));
        OtlpCounters counters = appender.getOtlpCounters();
        assertThat(counters.recordsRejected()).isEqualTo(rejected);
        assertThat(counters.recordsAcknowledged()).isEqualTo(20 - rejected);
        assertThat(counters.requestsRetried()).as("a 400 is not tried again").isZero();
        assertThat(TestLogback.statusMessages(context, Status.ERROR)).filteredOn(m -> m.contains("HTTP 400"))
                .singleElement().satisfies(m -> assertThat(m).contains("bad data", "set aside", "rejected"));
    }

    @Test
    void aSlowAnswerIsTriedAgainAfterTheTimeoutAndItsRepeatsCarryTheSameUids() throws Exception {
        collector = TestCollector.start();
        Logger logger = startAnswered(a -> a.setTimeout(Duration.valueOf("500 milliseconds")));
        collector.faults.add(TestCollector.Fault.slow(1500));
        List<String> logged = log(logger, 0, 40);
        // the slow request's records are kept when its late answer goes out, whenever the retry came
        await().atMost(30, TimeUnit.SECONDS).until(() -> collector.requests.size() >= 3
                && collector.records.size() >= logged.size() + collector.requests.get(1).records());
        assertThat(firstArrivals()).containsExactlyElementsOf(logged);
        TestCollector.Request slow = collector.requests.get(1);
        TestCollector.Request retry = collector.requests.get(2);
        assertThat(retry.records()).as("the retry resends the batch in flight, whole").isGreaterThanOrEqualTo(
                slow.records());
        assertThat(collector.records.size() - logged.size()).as("repeats: the slow batch's records, no more")
                .isEqualTo(slow.records());
        assertThat(appender.getOtlpCounters().requestsRetried()).isEqualTo(1);
        assertThat(appender.getOtlpCounters().lastError()).contains("HttpTimeoutException");
    }
}
