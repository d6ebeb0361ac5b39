package io.github.lockfreelog.bootpatterns;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.OutputStreamAppender;
import ch.qos.logback.core.encoder.Encoder;
import io.github.lockfreelog.logback.encoding.EncodingScratch;
import io.github.lockfreelog.logback.encoding.PatternEncoding;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntFunction;
import org.slf4j.LoggerFactory;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.ansi.AnsiOutput;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.logging.LoggingSystemProperty;
import org.springframework.context.ConfigurableApplicationContext;

/** Spring Boot's own CONSOLE and FILE encoders, as a start of a Spring Boot application builds them, and checks of the fast path against them. */
final class BootEncoders {

    private BootEncoders() {
    }

    static LoggerContext loggerContext() {
        return (LoggerContext) LoggerFactory.getILoggerFactory();
    }

    /**
     * As a new JVM would be: Spring Boot keeps ANSI's setting and the logging system properties (application name and
     * group, correlation pattern, structured formats, ...) in the JVM, where they outlive a run.
     */
    static void asInANewJvm() {
        AnsiOutput.setEnabled(AnsiOutput.Enabled.DETECT);
        for (LoggingSystemProperty property : LoggingSystemProperty.values()) {
            System.clearProperty(property.getEnvironmentVariableName());
        }
        System.clearProperty("FILE_LOG_STRUCTURED_FORMAT");
        System.clearProperty("CONSOLE_LOG_STRUCTURED_FORMAT");
    }

    /** Spring Boot's CONSOLE and FILE encoders after a start with {@code properties} (the lock-free appenders off). */
    static List<Encoder<ILoggingEvent>> of(Path dir, String... properties) {
        List<String> all = new ArrayList<>(List.of("spring.config.name=boot-encoders-tests", "lockfreelog.enabled=false",
                "logging.file.name=" + dir.resolve("app.log"), "spring.jmx.enabled=false"));
        all.addAll(List.of(properties));
        try (ConfigurableApplicationContext context = new SpringApplicationBuilder(Config.class)
                .web(WebApplicationType.NONE).properties(all.toArray(new String[0])).run()) {
            Logger root = loggerContext().getLogger(Logger.ROOT_LOGGER_NAME);
            List<Encoder<ILoggingEvent>> encoders = new ArrayList<>();
            for (String name : List.of("CONSOLE", "FILE")) {
                OutputStreamAppender<ILoggingEvent> appender = (OutputStreamAppender<ILoggingEvent>) root.getAppender(name);
                assertThat(appender).as("Spring Boot's %s appender", name).isNotNull();
                encoders.add(appender.getEncoder());
            }
            return encoders; // they stay started after the context closes
        }
    }

    /** Asserts that the fast path writes the encoder's bytes for each of {@code count} events. */
    static void assertSameBytes(Encoder<ILoggingEvent> encoder, PatternEncoding fast, int count, IntFunction<ILoggingEvent> events) {
        for (int i = 0; i < count; i++) {
            ILoggingEvent event = events.apply(i);
            byte[] expected = encoder.encode(event);
            EncodingScratch actual = fast.encode(event);
            assertThat(actual).as("event %d", i).isNotNull();
            assertThat(new String(actual.bytes, 0, actual.length, StandardCharsets.UTF_8)).as("event %d", i)
                    .isEqualTo(new String(expected, StandardCharsets.UTF_8));
            assertThat(Arrays.copyOf(actual.bytes, actual.length)).isEqualTo(expected);
            fast.release(actual);
        }
    }

    @SpringBootConfiguration
    static class Config {
    }
}
