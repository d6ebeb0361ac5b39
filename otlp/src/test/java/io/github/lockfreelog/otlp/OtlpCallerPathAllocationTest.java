package io.github.lockfreelog.otlp;

import static io.github.lockfreelog.testsupport.TestLogback.newContext;
import static io.github.lockfreelog.testsupport.TestLogback.statuses;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.LoggingEvent;
import io.github.lockfreelog.logback.LockFreeFileAppender;
import io.github.lockfreelog.testsupport.Allocations;
import io.github.lockfreelog.testsupport.TestLogback;
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
        file.setEncoder(TestLogback.encoder(context, LockFreeOtlpAppender.DEFAULT_PATTERN + "%n"));
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
            Allocations.allocatedBy(() -> file.doAppend(event), WARM_UP);
            Allocations.allocatedBy(() -> otlp.doAppend(event), WARM_UP);
            fileBytes = Allocations.allocatedBy(() -> file.doAppend(event), CALLS);
            otlpBytes = Allocations.allocatedBy(() -> otlp.doAppend(event), CALLS);
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
}
