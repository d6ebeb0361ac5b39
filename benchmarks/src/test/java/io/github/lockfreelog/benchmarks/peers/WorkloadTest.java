package io.github.lockfreelog.benchmarks.peers;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.PatternLayout;
import ch.qos.logback.classic.spi.LoggingEvent;
import java.nio.charset.StandardCharsets;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.impl.Log4jLogEvent;
import org.apache.logging.log4j.message.SimpleMessage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class WorkloadTest {

    @ParameterizedTest
    @ValueSource(ints = {128, 150, 1024, 4096})
    void messageShouldMakeLogbackAndLog4j2WriteTheSameLineOfTheAskedLength(int lineSize) {
        String message = Workload.message(lineSize);
        long now = System.currentTimeMillis();

        String logback = logbackLine(message, now);
        String log4j2 = log4j2Line(message, now);

        assertThat(logback.getBytes(StandardCharsets.UTF_8)).hasSize(lineSize);
        assertThat(log4j2).isEqualTo(logback);
        assertThat(logback).contains(" INFO 12345 --- [app-worker-01] com.example.orders.OrderService          : ")
                .endsWith("\n");
    }

    @Test
    void messageShouldBeOneCharacterWhenTheLineCannotBeThatShort() {
        assertThat(Workload.prefixLength()).isGreaterThan(64);
        assertThat(Workload.message(64)).hasSize(1);
    }

    @Test
    void threadNameShouldHaveTheSameWidthUpTo99Threads() {
        assertThat(Workload.threadName(0)).isEqualTo("app-worker-01");
        assertThat(Workload.threadName(63)).hasSameSizeAs(Workload.threadName(0));
    }

    private static String logbackLine(String message, long timestamp) {
        LoggerContext context = new LoggerContext();
        PatternLayout layout = new PatternLayout();
        layout.setContext(context);
        layout.setPattern(Workload.LOGBACK_PATTERN);
        layout.start();
        LoggingEvent event = new LoggingEvent(WorkloadTest.class.getName(), context.getLogger(Workload.LOGGER_NAME),
                ch.qos.logback.classic.Level.INFO, message, null, null);
        event.setTimeStamp(timestamp);
        event.setThreadName(Workload.threadName(0));
        return layout.doLayout(event);
    }

    private static String log4j2Line(String message, long timestamp) {
        org.apache.logging.log4j.core.layout.PatternLayout layout = org.apache.logging.log4j.core.layout.PatternLayout
                .newBuilder().withPattern(Workload.LOG4J2_PATTERN).withCharset(StandardCharsets.UTF_8).build();
        Log4jLogEvent event = Log4jLogEvent.newBuilder().setLoggerName(Workload.LOGGER_NAME).setLevel(Level.INFO)
                .setMessage(new SimpleMessage(message)).setTimeMillis(timestamp).setThreadName(Workload.threadName(0))
                .build();
        return layout.toSerializable(event);
    }
}
