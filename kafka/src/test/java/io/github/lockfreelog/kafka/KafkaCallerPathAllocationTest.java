package io.github.lockfreelog.kafka;

import static io.github.lockfreelog.testsupport.TestLogback.newContext;
import static io.github.lockfreelog.testsupport.TestLogback.statuses;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.LoggingEvent;
import io.github.lockfreelog.logback.LockFreeFileAppender;
import io.github.lockfreelog.testsupport.Allocations;
import io.github.lockfreelog.testsupport.TestLogback;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Kafka appender's caller path (filters, encoding, the record's envelope, the journal) allocates no more than the
 * file appender's with the same pattern: nothing of its own. No broker is needed: the appender starts on a bootstrap
 * server where nothing listens, and the events gather in its journal.
 */
class KafkaCallerPathAllocationTest {

    private static final String PATTERN = "%d %5p [%t] %c - %m%n";
    private static final int WARM_UP = 20_000;
    private static final int CALLS = 20_000;

    @TempDir
    Path dir;

    @Test
    void theCallersPathAllocatesNoMoreThanTheFileAppendersWithAnMdcKeyAndLevelAndLoggerHeaders() throws Exception {
        LoggerContext context = newContext();
        LoggingEvent event = new LoggingEvent(getClass().getName(), context.getLogger("com.example.orders.Shipping"),
                Level.INFO, "order 4711 shipped to the warehouse in Zürich", null, null);
        event.setMDCPropertyMap(Map.of("order", "o-4711-\u00e9\uD83D\uDE00"));
        event.getFormattedMessage();
        event.getThreadName();

        LockFreeFileAppender file = new LockFreeFileAppender();
        file.setContext(context);
        file.setName("FILE");
        file.setFile(dir.resolve("same-pattern.log").toString());
        file.setEncoder(TestLogback.encoder(context, PATTERN));
        file.start();
        assertThat(file.isStarted()).as(statuses(context)).isTrue();

        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort(); // closed again at once: nothing listens there
        }
        LockFreeKafkaAppender kafka = new LockFreeKafkaAppender();
        kafka.setContext(context);
        kafka.setName("KAFKA");
        kafka.setTopic("allocation");
        kafka.setJournal(dir.resolve("allocation.journal").toString());
        kafka.setProducerProperties(Map.of("bootstrap.servers", "127.0.0.1:" + closedPort, "max.block.ms", "1000"));
        kafka.setKey("mdc:order");
        kafka.setHeaders("level,logger");
        kafka.setStopTimeout(ch.qos.logback.core.util.Duration.buildByMilliseconds(1_000));
        kafka.setEncoder(TestLogback.encoder(context, PATTERN));
        kafka.start();
        assertThat(kafka.isStarted()).as(statuses(context)).isTrue();

        long fileBytes;
        long kafkaBytes;
        try {
            // warm up both (the JIT, this thread's parts), then measure each
            Allocations.allocatedBy(() -> file.doAppend(event), WARM_UP);
            Allocations.allocatedBy(() -> kafka.doAppend(event), WARM_UP);
            fileBytes = Allocations.allocatedBy(() -> file.doAppend(event), CALLS);
            kafkaBytes = Allocations.allocatedBy(() -> kafka.doAppend(event), CALLS);
            assertThat(kafka.getStatistics().appended()).isEqualTo(WARM_UP + CALLS);
            assertThat(kafka.getStatistics().dropped()).as("every event kept in the journal").isZero();
            assertThat(file.getStatistics().dropped()).isZero();
        } finally {
            kafka.stop();
            file.stop();
        }
        System.out.printf("bytes allocated by %d calls: file appender %d (%.2f a call), Kafka appender %d (%.2f a call)%n",
                CALLS, fileBytes, (double) fileBytes / CALLS, kafkaBytes, (double) kafkaBytes / CALLS);
        // the thread's allocation counter reports some noise (the JIT, a LongAdder cell): 16 KiB over all calls, less
        // than one byte a call; one object per event would be at least 16 bytes a call
        assertThat(kafkaBytes).as("bytes the Kafka appender allocated in %d calls, the file appender %d", CALLS, fileBytes)
                .isLessThan(fileBytes + 16 * 1024);
    }
}
