package io.github.lockfreelog.autoconfigure.logging;

import io.github.lockfreelog.autoconfigure.takeover.StarterAppenderFactory;
import io.github.lockfreelog.logback.LockFreeAppenderBase;
import io.github.lockfreelog.logback.LockFreeConsoleAppender;
import io.github.lockfreelog.logback.LockFreeFileAppender;

/**
 * What those who show the starter's own appender (the endpoint, metrics and health) may ask of it: the appender the
 * starter runs now, or why it runs none. {@link LockFreeLogRuntime} implements it; a lambda that gives only a reason
 * stands for a starter that runs no appender.
 */
@FunctionalInterface
public interface StarterAppender {

    /** Name of the file appender the starter attaches. */
    String NAME = StarterAppenderFactory.NAME;

    /** Why the starter runs no appender, or {@code null} when it runs one. */
    String absence();

    /** The file appender the starter runs now, or {@code null}. */
    default LockFreeFileAppender appender() {
        return null;
    }

    /** The console appender the starter runs now ({@code lockfreelog.console.enabled}), or {@code null}. */
    default LockFreeConsoleAppender console() {
        return null;
    }

    /**
     * The Kafka appender the starter runs now ({@code lockfreelog.kafka.*}, a
     * {@code io.github.lockfreelog.kafka.LockFreeKafkaAppender}), or {@code null}.
     */
    default LockFreeAppenderBase kafka() {
        return null;
    }

    /**
     * The OTLP appender the starter runs now (Spring Boot's OTLP logging endpoint, a
     * {@code io.github.lockfreelog.otlp.LockFreeOtlpAppender}), or {@code null}.
     */
    default LockFreeAppenderBase otlp() {
        return null;
    }
}
