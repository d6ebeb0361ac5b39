package io.github.lockfreelog.benchmarks.boot;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import io.github.lockfreelog.diagnostics.AppenderStatistics;
import io.github.lockfreelog.logback.LockFreeAppenderBase;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The application of the {@code boot-app} mode, run in a JVM of its own by {@link BootAppRunner}: a
 * {@code SpringApplication} with auto-configuration (lockfreelog's starter among it, switched on or off by the
 * runner's arguments), so the logging stack is the one Spring Boot and the starter build. It logs bursts as
 * the sample application's {@code POST /burst} does ({@code events} lines from {@code threads} threads started
 * together, {@value #MESSAGE}), warm-up bursts first, and writes the time from the start of each measured burst
 * until its last call returned to the result file, one {@code burst=N nanos=T} line each, then lockfreelog's
 * counters when it ran. Between bursts it waits until lockfreelog has drained what it accepted, so that each
 * burst starts from an idle appender. The JVM exits through Boot's shutdown hook, which stops Logback (and
 * so drains and stops lockfreelog).
 *
 * <p>Settings, as system properties: {@value #RESULT} (the result file), {@value #EVENTS}, {@value #THREADS},
 * {@value #WARMUP_BURSTS}, {@value #BURSTS}; Spring Boot's and the starter's properties come as the
 * application's arguments ({@code --logging.file.name=...}).
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class BootApp {

    static final String RESULT = "lockfreelog.bench.bootApp.result";
    static final String EVENTS = "lockfreelog.bench.bootApp.events";
    static final String THREADS = "lockfreelog.bench.bootApp.threads";
    static final String WARMUP_BURSTS = "lockfreelog.bench.bootApp.warmupBursts";
    static final String BURSTS = "lockfreelog.bench.bootApp.bursts";

    /** What every burst line says, as the sample application's burst: its start is what the line check looks for. */
    static final String MESSAGE = "burst event {} from thread {} of {}";

    /** The text every burst line holds and no other line does. */
    static final String MARKER = "burst event ";

    /** How long to wait for lockfreelog to drain a burst before the next. */
    static final long DRAIN_TIMEOUT_SECONDS = 60;

    private static final Logger log = LoggerFactory.getLogger("sample.burst");

    public static void main(String[] args) throws Exception {
        Path result = Paths.get(System.getProperty(RESULT));
        int events = Integer.getInteger(EVENTS, 300_000);
        int threads = Integer.getInteger(THREADS, 4);
        int warmups = Integer.getInteger(WARMUP_BURSTS, 1);
        int bursts = Integer.getInteger(BURSTS, 4);
        ConfigurableApplicationContext application = new SpringApplicationBuilder(BootApp.class)
                .web(WebApplicationType.NONE).run(args);
        List<String> lines = new ArrayList<>();
        lines.add("appenders=" + appenders());
        for (int burst = 1 - warmups; burst <= bursts; burst++) {
            awaitDrained();
            long nanos = burst(events, threads);
            if (burst >= 1) {
                lines.add("burst=" + burst + " nanos=" + nanos);
            }
        }
        awaitDrained();
        for (LockFreeAppenderBase appender : lockFree()) {
            AppenderStatistics s = appender.getStatistics();
            lines.add(String.format(Locale.ROOT, "lockfreelog=%s appended=%d written=%d dropped=%d waits=%d waitMaxNanos=%d",
                    appender.getName(), s.appended(), s.eventsWritten(), s.dropped(), s.waits(), s.waitMaxNanos()));
        }
        lines.add("expected=" + (long) events * (warmups + bursts));
        Files.write(result, lines, StandardCharsets.UTF_8);
        application.close();
        System.exit(0); // Boot's shutdown hook stops Logback: every appender flushes, lockfreelog drains
    }

    /** One burst: {@code events} lines from {@code threads} threads started at once; nanoseconds until the last returned. */
    static long burst(int events, int threads) throws InterruptedException {
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int first = (int) ((long) events * t / threads);
            int last = (int) ((long) events * (t + 1) / threads);
            int thread = t;
            Thread worker = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                for (int i = first; i < last; i++) {
                    log.info(MESSAGE, i, thread, threads);
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
        return System.nanoTime() - startedAt;
    }

    /** Waits until every lockfreelog appender has written what it accepted; returns at once without one. */
    private static void awaitDrained() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(DRAIN_TIMEOUT_SECONDS);
        for (LockFreeAppenderBase appender : lockFree()) {
            while (appender.getStatistics().eventsWritten() + appender.getStatistics().dropped()
                    < appender.getStatistics().appended() && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
        }
        Thread.sleep(200); // the drainer parks, the page cache settles
    }

    private static List<LockFreeAppenderBase> lockFree() {
        List<LockFreeAppenderBase> result = new ArrayList<>();
        for (Appender<ILoggingEvent> appender : rootAppenders()) {
            if (appender instanceof LockFreeAppenderBase lockFree) {
                result.add(lockFree);
            }
        }
        return result;
    }

    /** The root logger's appenders, as {@code NAME:Class} (what Boot and the starter attached). */
    private static String appenders() {
        List<String> names = new ArrayList<>();
        for (Appender<ILoggingEvent> appender : rootAppenders()) {
            names.add(appender.getName() + ":" + appender.getClass().getSimpleName());
        }
        return String.join(",", names);
    }

    private static List<Appender<ILoggingEvent>> rootAppenders() {
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        List<Appender<ILoggingEvent>> result = new ArrayList<>();
        Iterator<Appender<ILoggingEvent>> it = context.getLogger(Logger.ROOT_LOGGER_NAME).iteratorForAppenders();
        it.forEachRemaining(result::add);
        return result;
    }

    /** Reads a result file: the measured bursts' nanoseconds, in order. */
    static List<Long> burstNanos(List<String> lines) {
        return lines.stream().filter(l -> l.startsWith("burst=")).map(l -> Long.parseLong(l.substring(l.indexOf("nanos=") + 6)))
                .toList();
    }

    /** The value of {@code key=} in a result file's lines, or null. */
    static String value(List<String> lines, String key) {
        return lines.stream().filter(l -> l.startsWith(key + "=")).map(l -> l.substring(key.length() + 1)).findFirst()
                .orElse(null);
    }
}
