package io.github.lockfreelog.autoconfigure;

import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import io.github.lockfreelog.autoconfigure.actuate.LockFreeLogAppenders;
import io.github.lockfreelog.autoconfigure.logging.LockFreeLogRuntime;
import io.github.lockfreelog.logback.LockFreeAppenderBase;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.LoggerFactory;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.logging.LoggingSystemProperty;

/**
 * Small helpers shared by the tests of full {@code SpringApplication} runs: the run itself, what is attached where,
 * the starter's runtime, and what the log file holds.
 */
final class LogbackTestSupport {

    private LogbackTestSupport() {
    }

    static LoggerContext loggerContext() {
        return (LoggerContext) LoggerFactory.getILoggerFactory();
    }

    static Logger root() {
        return loggerContext().getLogger(Logger.ROOT_LOGGER_NAME);
    }

    /**
     * A run of {@code application} without a web server, with small, quickly drained buffers; the test adds its own
     * properties (the log file, for one).
     */
    static SpringApplicationBuilder application(Class<?> application, String... properties) {
        return new SpringApplicationBuilder(application).main(application).web(WebApplicationType.NONE)
                .properties("lockfreelog.file.buffer-size=64KB", "lockfreelog.file.buffer-count=2",
                        "lockfreelog.file.flush-interval=20ms", "lockfreelog.console.buffer-size=64KB",
                        "lockfreelog.console.buffer-count=2", "lockfreelog.console.flush-interval=20ms",
                        "spring.jmx.enabled=false")
                .properties(properties);
    }

    /** Every lock-free appender attached to any logger, each instance once (as the endpoint finds them). */
    static List<LockFreeAppenderBase> lockFreeAppenders() {
        return LockFreeLogAppenders.find(loggerContext());
    }

    /** The starter's runtime, kept in the Logback context by the runs; {@code null} before any run. */
    static LockFreeLogRuntime runtime() {
        return (LockFreeLogRuntime) loggerContext().getObject(LockFreeLogRuntime.KEY);
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

    /**
     * Removes what a test left, as the end of a JVM would: the starter's runtime (its engine ended, as at JVM
     * shutdown, and taken out of the Logback context, so that the next test's run starts with a new one), any
     * appender the test attached by hand, status messages.
     */
    static void cleanUp() {
        LockFreeLogRuntime runtime = runtime();
        if (runtime != null) {
            runtime.shutdown();
            loggerContext().removeObject(LockFreeLogRuntime.KEY);
        }
        for (LockFreeAppenderBase appender : lockFreeAppenders()) {
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
