package io.github.lockfreelog.otlp;

import static io.github.lockfreelog.testing.TestAppenders.newContext;
import static io.github.lockfreelog.testing.TestAppenders.statuses;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.core.Appender;
import io.github.lockfreelog.logback.LockFreeFileAppender;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The OTLP appender's caller path (encoding the whole {@code LogRecord}: times, severity, body, thread, MDC, trace and
 * span ids, then the journal) allocates no more than the file appender's with the same body pattern: nothing of its
 * own. No collector is needed: the appender starts on a port where nothing listens, and the events gather in its
 * journal.
 */
class OtlpCallerPathAllocationTest {

    private static final int WARM_UP = 20_000;
    private static final int CALLS = 20_000;

    @TempDir
    Path dir;

    @Test
    void theCallersPathAllocatesNoMoreThanTheFileAppendersWithTheSameBody() throws Exception {
        assumeTrue(ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean,
                "no allocation counter here");
        LoggerContext context = newContext();
        LoggingEvent event = new LoggingEvent(getClass().getName(), context.getLogger("com.example.orders.Shipping"),
                Level.INFO, "order 4711 shipped to the warehouse in Zürich", null, null);
        // a HashMap, as Logback's MDC adapter gives each event
        event.setMDCPropertyMap(new HashMap<>(Map.of("order", "o-4711-\u00e9\uD83D\uDE00", "traceId",
                "0af7651916cd43dd8448eb211c80319c", "spanId", "b7ad6b7169203331")));
        event.getFormattedMessage();
        event.getThreadName();

        LockFreeFileAppender file = new LockFreeFileAppender();
        file.setContext(context);
        file.setName("FILE");
        file.setFile(dir.resolve("same-pattern.log").toString());
        file.setEncoder(encoder(context, LockFreeOtlpAppender.DEFAULT_PATTERN + "%n"));
        file.start();
        assertThat(file.isStarted()).as(statuses(context)).isTrue();

        LockFreeOtlpAppender otlp = new LockFreeOtlpAppender();
        otlp.setContext(context);
        otlp.setName("OTLP");
        otlp.setEndpoint("http://127.0.0.1:" + TestCollector.freePort());
        otlp.setJournal(dir.resolve("allocation.journal").toString());
        otlp.setStopTimeout(ch.qos.logback.core.util.Duration.buildByMilliseconds(1_000));
        otlp.start();
        assertThat(otlp.isStarted()).as(statuses(context)).isTrue();

        long fileBytes;
        long otlpBytes;
        try {
            allocatedBy(file, event, WARM_UP);
            allocatedBy(otlp, event, WARM_UP);
            fileBytes = allocatedBy(file, event, CALLS);
            otlpBytes = allocatedBy(otlp, event, CALLS);
            assertThat(otlp.getStatistics().appended()).isEqualTo(WARM_UP + CALLS);
            assertThat(otlp.getStatistics().dropped()).as("every event kept in the journal").isZero();
        } finally {
            otlp.stop();
            file.stop();
        }
        System.out.printf("bytes allocated by %d calls: file appender %d (%.2f a call), OTLP appender %d (%.2f a call)%n",
                CALLS, fileBytes, (double) fileBytes / CALLS, otlpBytes, (double) otlpBytes / CALLS);
        // the thread's allocation counter reports some noise (the JIT, a LongAdder cell): 16 KiB over all calls, less
        // than one byte a call; one object per event would be at least 16 bytes a call
        assertThat(otlpBytes).as("bytes the OTLP appender allocated in %d calls, the file appender %d", CALLS, fileBytes)
                .isLessThan(fileBytes + 16 * 1024);
    }

    private static long allocatedBy(Appender<ILoggingEvent> appender, LoggingEvent event, int calls) {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long id = Thread.currentThread().getId();
        long before = threads.getThreadAllocatedBytes(id);
        for (int i = 0; i < calls; i++) {
            appender.doAppend(event);
        }
        return threads.getThreadAllocatedBytes(id) - before;
    }

    private static PatternLayoutEncoder encoder(LoggerContext context, String pattern) {
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(context);
        encoder.setPattern(pattern);
        encoder.start();
        return encoder;
    }
}
