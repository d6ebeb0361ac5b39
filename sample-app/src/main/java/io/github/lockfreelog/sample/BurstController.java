package io.github.lockfreelog.sample;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import io.github.lockfreelog.autoconfigure.actuate.LockFreeLogAppenders;
import io.github.lockfreelog.diagnostics.AppenderStatistics;
import io.github.lockfreelog.logback.LockFreeAppenderBase;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/**
 * {@code POST /burst?events=N&threads=T}: logs N events from T threads at once and reports the time until the last
 * call returned, the appenders the lines went to ({@code rootAppenders}) and what lockfreelog's appenders counted.
 * It works with the starter switched off too ({@code --lockfreelog.enabled=false}), so that Spring Boot's own
 * {@code CONSOLE} and {@code FILE} appenders can be timed the same way.
 */
@RestController
public class BurstController {

    static final int MAX_EVENTS = 10_000_000;
    static final int MAX_THREADS = 256;

    private static final Logger log = LoggerFactory.getLogger("sample.burst");

    /** lockfreelog's appenders; absent when the starter is switched off ({@code lockfreelog.enabled=false}). */
    private final ObjectProvider<LockFreeLogAppenders> appenders;

    public BurstController(ObjectProvider<LockFreeLogAppenders> appenders) {
        this.appenders = appenders;
    }

    @PostMapping("/burst")
    public Map<String, Object> burst(@RequestParam(defaultValue = "10000") int events,
            @RequestParam(defaultValue = "4") int threads) throws InterruptedException {
        if (events < 1 || events > MAX_EVENTS) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "events must be from 1 to " + MAX_EVENTS);
        }
        if (threads < 1 || threads > MAX_THREADS) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "threads must be from 1 to " + MAX_THREADS);
        }
        Map<String, AppenderStatistics> before = snapshot();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int first = (int) ((long) events * t / threads);
            int last = (int) ((long) events * (t + 1) / threads);
            int thread = t;
            Thread worker = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException ex) {
                    Thread.currentThread().interrupt();
                    return;
                }
                for (int i = first; i < last; i++) {
                    log.info("burst event {} from thread {} of {}", i, thread, threads);
                }
            }, "burst-" + t);
            worker.start();
            workers.add(worker);
        }
        long startedAt = System.nanoTime();
        start.countDown();
        for (Thread worker : workers) {
            worker.join();
        }
        long elapsedNanos = System.nanoTime() - startedAt;
        Map<String, AppenderStatistics> after = snapshot();

        Map<String, Object> result = new LinkedHashMap<>();
        result.put("events", events);
        result.put("threads", threads);
        result.put("elapsedMillis", elapsedNanos / 1_000_000.0);
        result.put("eventsPerSecond", Math.round(events / (elapsedNanos / 1e9)));
        result.put("rootAppenders", rootAppenders());
        Map<String, Object> perAppender = new LinkedHashMap<>();
        after.forEach((name, now) -> {
            AppenderStatistics was = before.get(name);
            Map<String, Object> delta = new LinkedHashMap<>();
            delta.put("appended", now.appended() - (was == null ? 0 : was.appended()));
            delta.put("dropped", now.dropped() - (was == null ? 0 : was.dropped()));
            delta.put("truncated", now.truncated() - (was == null ? 0 : was.truncated()));
            delta.put("swaps", now.swaps() - (was == null ? 0 : was.swaps()));
            delta.put("waits", now.waits() - (was == null ? 0 : was.waits()));
            delta.put("inFlight", now.inFlight());
            perAppender.put(name, delta);
        });
        result.put("appenders", perAppender);
        return result;
    }

    private Map<String, AppenderStatistics> snapshot() {
        Map<String, AppenderStatistics> result = new LinkedHashMap<>();
        LockFreeLogAppenders lockFree = appenders.getIfAvailable();
        if (lockFree != null) {
            for (LockFreeAppenderBase appender : lockFree.all()) {
                result.put(appender.getName(), appender.getStatistics());
            }
        }
        return result;
    }

    /** The appenders of the root logger, as {@code NAME (Class)}: which of Boot's and lockfreelog's took the lines. */
    private static List<String> rootAppenders() {
        List<String> names = new ArrayList<>();
        if (LoggerFactory.getILoggerFactory() instanceof LoggerContext context) {
            Iterator<Appender<ILoggingEvent>> it = context.getLogger(Logger.ROOT_LOGGER_NAME).iteratorForAppenders();
            it.forEachRemaining(appender -> names.add(appender.getName() + " (" + appender.getClass().getSimpleName() + ")"));
        }
        return names;
    }
}
