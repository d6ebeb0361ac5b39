package io.github.lockfreelog.otlp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.core.util.Duration;
import ch.qos.logback.core.util.FileSize;
import io.github.lockfreelog.testsupport.TestLogback;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A collector that goes down under load and comes back: four threads log all along; nothing is dropped, no caller
 * fails, and once the collector is back every event is there, each thread's in order on first arrival, every copy
 * with its first copy's uid, the repeats no more than the requests cut by the outage held. The outage lasts 2 s in
 * the build; {@code -Dlockfreelog.otlp.outageSeconds=10} runs the 10 s.
 */
class OtlpOutageTest {

    private static final int THREADS = 4;

    @TempDir
    Path dir;

    /** Both collectors, for their records; only the second is still up at the end. */
    private final List<TestCollector> collectors = new ArrayList<>();
    private LockFreeOtlpAppender appender;

    @AfterEach
    void stop() {
        if (appender != null) {
            appender.stop();
        }
        if (collectors.size() > 1) {
            collectors.get(1).close();
        }
    }

    @Test
    void aCollectorDownUnderLoadLosesNothingAndGetsEveryEventInOrderWhenItIsBack() throws Exception {
        long outageMillis = Long.getLong("lockfreelog.otlp.outageSeconds", 2) * 1000;
        TestCollector first = TestCollector.start();
        collectors.add(first);
        int port = first.port();
        LoggerContext context = TestLogback.newContext();
        appender = LockFreeOtlpAppenderTest.appender(context, first.endpoint(), dir.resolve("otlp.journal"), a -> {
            a.setBufferSize(new FileSize(4 * 1024 * 1024)); // room for the outage: 4 x 4 MB, some 120 bytes an event
            a.setBufferCount(4);
            a.setMaxBlockTime(Duration.valueOf("60 seconds"));
        });
        appender.start();
        assertThat(appender.isStarted()).as(TestLogback.statuses(context)).isTrue();
        Logger logger = TestLogback.logger(context, "outage", appender);
        AtomicBoolean running = new AtomicBoolean(true);
        int[] logged = new int[THREADS];
        long[] slowestCallNanos = new long[THREADS];
        List<Thread> callers = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            int id = t;
            Thread caller = new Thread(() -> {
                int n = 0;
                while (running.get()) {
                    for (int i = 0; i < 2; i++) { // about 2 events a millisecond per thread
                        long before = System.nanoTime();
                        logger.info("t" + id + " e" + n++);
                        slowestCallNanos[id] = Math.max(slowestCallNanos[id], System.nanoTime() - before);
                    }
                    LockSupport.parkNanos(1_000_000);
                }
                logged[id] = n;
            }, "outage-caller-" + t);
            caller.start();
            callers.add(caller);
        }
        Thread.sleep(500);
        try {
            first.close(); // down, requests in flight cut
        } catch (AssertionError cutAnswer) {
            // an answer the close cut short: checked below with any later one
        }
        Thread.sleep(outageMillis);
        TestCollector second = TestCollector.start(port);
        collectors.add(second);
        Thread.sleep(500);
        running.set(false);
        for (Thread caller : callers) {
            caller.join();
        }
        long total = 0;
        for (int n : logged) {
            total += n;
        }
        long expected = total;
        await().atMost(60, TimeUnit.SECONDS).until(() -> firstArrivals().size() == expected);

        assertThat(first.failures).as("the first collector failed only at answers its close cut short")
                .allMatch(failure -> failure instanceof java.io.IOException);
        assertThat(appender.getStatistics().dropped()).as("nothing dropped through the outage").isZero();
        assertThat(appender.getOtlpCounters().requestsRetried()).as("requests tried again while it was down").isPositive();
        Map<Integer, Integer> next = new HashMap<>();
        for (String body : firstArrivals()) {
            int thread = Integer.parseInt(body.substring(1, body.indexOf(' ')));
            int number = Integer.parseInt(body.substring(body.indexOf(" e") + 2));
            assertThat(number).as("thread %d's next event on first arrival", thread).isEqualTo(next.getOrDefault(thread, 0));
            next.put(thread, number + 1);
        }
        for (int t = 0; t < THREADS; t++) {
            assertThat(next.get(t)).as("thread %d's events", t).isEqualTo(logged[t]);
        }
        int all = first.records.size() + second.records.size();
        int largestRequest = 0;
        for (TestCollector collector : collectors) {
            for (TestCollector.Request request : collector.requests) {
                largestRequest = Math.max(largestRequest, request.records());
            }
        }
        assertThat((long) all - expected).as("repeats: at most the requests the outage cut (%d records the largest)",
                largestRequest).isLessThanOrEqualTo(2L * largestRequest);
        System.out.printf("otlp outage of %d ms under load: %d events, %d received (%d repeats), %d retried requests,"
                + " slowest call %d us%n", outageMillis, expected, all, all - expected,
                appender.getOtlpCounters().requestsRetried(), java.util.Arrays.stream(slowestCallNanos).max().orElse(0)
                / 1000);
    }

    /** The bodies of both collectors in order of first arrival; every copy of one carries its first copy's uid. */
    private List<String> firstArrivals() {
        Map<String, String> uids = new HashMap<>();
        List<String> first = new ArrayList<>();
        for (TestCollector collector : collectors) {
            for (TestCollector.Received received : collector.records) {
                String before = uids.putIfAbsent(received.body(), received.uid());
                assertThat(before == null || before.equals(received.uid())).as("copies of %s carry one uid",
                        received.body()).isTrue();
                if (before == null) {
                    first.add(received.body());
                }
            }
        }
        return first;
    }
}
