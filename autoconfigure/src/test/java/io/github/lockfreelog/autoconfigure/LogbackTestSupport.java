package io.github.lockfreelog.autoconfigure;

import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import io.github.lockfreelog.logback.LockFreeFileAppender;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import org.slf4j.LoggerFactory;
import org.springframework.boot.logging.LoggingSystemProperty;

/** Small helpers shared by the tests: what is attached where, and what the log file holds. */
final class LogbackTestSupport {

    private LogbackTestSupport() {
    }

    static LoggerContext loggerContext() {
        return (LoggerContext) LoggerFactory.getILoggerFactory();
    }

    static Logger root() {
        return loggerContext().getLogger(Logger.ROOT_LOGGER_NAME);
    }

    /** Every lock-free appender attached to any logger, each instance once. */
    static List<LockFreeFileAppender> lockFreeAppenders() {
        Set<LockFreeFileAppender> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        List<LockFreeFileAppender> result = new ArrayList<>();
        for (Logger logger : loggerContext().getLoggerList()) {
            for (Iterator<Appender<ILoggingEvent>> it = logger.iteratorForAppenders(); it.hasNext();) {
                if (it.next() instanceof LockFreeFileAppender appender && seen.add(appender)) {
                    result.add(appender);
                }
            }
        }
        return result;
    }

    static List<Appender<ILoggingEvent>> appenders(Logger logger) {
        List<Appender<ILoggingEvent>> result = new ArrayList<>();
        logger.iteratorForAppenders().forEachRemaining(result::add);
        return result;
    }

    static String read(Path file) {
        return read(file, StandardCharsets.UTF_8);
    }

    static String read(Path file, Charset charset) {
        try {
            return Files.exists(file) ? Files.readString(file, charset) : "";
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    /** Waits until the file holds {@code text} (the drainer writes every flush interval). */
    static String awaitContent(Path file, String text) {
        return awaitContent(file, StandardCharsets.UTF_8, text);
    }

    static String awaitContent(Path file, Charset charset, String text) {
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(25))
                .until(() -> read(file, charset).contains(text));
        return read(file, charset);
    }

    /** Removes what a test left: the starter's appender, any appender the test attached by hand, status messages. */
    static void cleanUp() {
        io.github.lockfreelog.autoconfigure.logging.LockFreeLogRuntime.get().close();
        for (LockFreeFileAppender appender : lockFreeAppenders()) {
            for (Logger logger : loggerContext().getLoggerList()) {
                logger.detachAppender(appender);
            }
            appender.stop();
        }
        // Spring Boot writes its logging variables (LOG_LEVEL_PATTERN, FILE_LOG_THRESHOLD, ...) as system properties,
        // only where none is set yet, and into the logger context: clear both so that one test's logging.* values do
        // not shape the next test's lines.
        for (LoggingSystemProperty property : LoggingSystemProperty.values()) {
            System.clearProperty(property.getEnvironmentVariableName());
            loggerContext().putProperty(property.getEnvironmentVariableName(), null);
        }
        // Error statuses left by one test (a bad pattern, a failing disk) would make Spring Boot's
        // next logging initialisation with logging.config report a configuration error.
        loggerContext().getStatusManager().clear();
    }
}
