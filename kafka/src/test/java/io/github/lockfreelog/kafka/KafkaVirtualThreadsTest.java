package io.github.lockfreelog.kafka;

import static io.github.lockfreelog.kafka.LockFreeKafkaAppenderTest.logger;
import static io.github.lockfreelog.testsupport.TestLogback.newContext;
import static io.github.lockfreelog.testsupport.TestLogback.statuses;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import io.github.lockfreelog.testsupport.kafka.CommittedReader;
import io.github.lockfreelog.testsupport.kafka.KafkaTestBroker;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.MDC;

/**
 * Virtual threads write their records' frames into scratches lent from a pool, many at once: each record keeps its
 * own key (an MDC value) and headers, each task's events arrive once and in order (Java 21 and later).
 */
class KafkaVirtualThreadsTest {

    private static final int TASKS = 400;
    private static final int EVENTS = 25;

    @TempDir
    Path dir;

    @Test
    void manyVirtualThreadsEachRecordWithItsOwnKeyOnceInOrder() throws Exception {
        ExecutorService executor = virtualThreadPerTask();
        assumeTrue(executor != null, "virtual threads need Java 21");
        String topic = KafkaTestBroker.newTopic("virtual");
        LoggerContext context = newContext();
        LockFreeKafkaAppender appender = LockFreeKafkaAppenderTest.appender(context, topic, dir.resolve("virtual.journal"));
        appender.setKey("mdc:task");
        appender.setHeaders("level,logger");
        appender.start();
        assertThat(appender.isStarted()).as(statuses(context)).isTrue();
        Logger logger = logger(context, appender);
        List<Future<?>> tasks = new ArrayList<>();
        try {
            for (int t = 0; t < TASKS; t++) {
                final int task = t;
                tasks.add(executor.submit(() -> {
                    MDC.put("task", "task-\u00e9-" + task);
                    try {
                        for (int i = 0; i < EVENTS; i++) {
                            logger.warn(Events.event(task, i));
                            if (i % 5 == 0) {
                                Thread.yield(); // another virtual thread may run on this carrier meanwhile
                            }
                        }
                    } finally {
                        MDC.remove("task");
                    }
                }));
            }
            for (Future<?> task : tasks) {
                task.get();
            }
        } finally {
            executor.shutdown();
        }
        appender.stop();

        List<ConsumerRecord<byte[], byte[]>> records = CommittedReader.toHighWatermark(KafkaTestBroker.bootstrap(), topic);
        List<String> all = new ArrayList<>();
        for (int t = 0; t < TASKS; t++) {
            for (int i = 0; i < EVENTS; i++) {
                all.add(Events.event(t, i));
            }
        }
        List<String> values = records.stream().map(CommittedReader::value).toList();
        assertThat(values).as(statuses(context)).hasSize(TASKS * EVENTS);
        Events.assertExactlyOnceInOrder(values, all);
        for (ConsumerRecord<byte[], byte[]> record : records) {
            String value = CommittedReader.value(record);
            assertThat(new String(record.key(), StandardCharsets.UTF_8)).as(value)
                    .isEqualTo("task-\u00e9-" + Events.thread(value));
            assertThat(new String(record.headers().lastHeader("level").value(), StandardCharsets.UTF_8)).isEqualTo("WARN");
            assertThat(new String(record.headers().lastHeader("logger").value(), StandardCharsets.UTF_8))
                    .isEqualTo("test");
        }
        assertThat(appender.getStatistics().dropped()).isZero();
    }

    /** A new virtual thread per task, or {@code null} on a Java without them. */
    private static ExecutorService virtualThreadPerTask() {
        try {
            return (ExecutorService) Executors.class.getMethod("newVirtualThreadPerTaskExecutor").invoke(null);
        } catch (ReflectiveOperationException e) {
            return null;
        }
    }
}
