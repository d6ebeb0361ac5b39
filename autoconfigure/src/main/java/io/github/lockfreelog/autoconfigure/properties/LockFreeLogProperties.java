package io.github.lockfreelog.autoconfigure.properties;

import io.github.lockfreelog.logback.LockFreeAppenderBase;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.NestedConfigurationProperty;

/**
 * The starter's settings: whether it is on, the loggers its appenders are attached to, the lock-free file's
 * ({@code lockfreelog.file.*}) and the lock-free console's ({@code lockfreelog.console.*}), and the Kafka and OTLP
 * sinks' ({@link LockFreeLogKafkaProperties}, {@link LockFreeLogOtlpProperties}), each with a full set of the engine's
 * settings of its own ({@link LockFreeLogEngineProperties}), with the same defaults (the appenders' own, {@link LockFreeAppenderBase}). What each
 * line looks like and how the file rolls are not here: they are Spring Boot's ({@code logging.pattern.file},
 * {@code logging.structured.format.file}, {@code logging.charset.file}, {@code logging.threshold.file},
 * {@code logging.logback.rollingpolicy.*}, and their {@code .console} pairs), read from the appender the starter
 * replaces or from the Logback context, so the file and the console look as they would without the starter.
 */
@ConfigurationProperties(prefix = LockFreeLogProperties.PREFIX)
public class LockFreeLogProperties {

    public static final String PREFIX = "lockfreelog";

    /** Whether to write the log file lock-free and expose the endpoint, metrics and health. */
    private boolean enabled = true;

    /** Loggers to attach the appenders to. */
    private List<String> loggers = new ArrayList<>(List.of("ROOT"));

    /** The lock-free log file, in place of Spring Boot's own FILE appender. */
    private final File file = new File();

    /** The lock-free console, in place of Spring Boot's own CONSOLE appender. */
    private final Console console = new Console();

    /** The Kafka sink: every event in a Kafka topic, exactly once (needs lockfreelog-kafka on the class path). */
    @NestedConfigurationProperty
    private final LockFreeLogKafkaProperties kafka = new LockFreeLogKafkaProperties();

    /** The OTLP sink: every event to an OpenTelemetry collector (needs lockfreelog-otlp on the class path). */
    @NestedConfigurationProperty
    private final LockFreeLogOtlpProperties otlp = new LockFreeLogOtlpProperties();

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public List<String> getLoggers() {
        return loggers;
    }

    public void setLoggers(List<String> loggers) {
        this.loggers = loggers;
    }

    public File getFile() {
        return file;
    }

    public Console getConsole() {
        return console;
    }

    public LockFreeLogKafkaProperties getKafka() {
        return kafka;
    }

    public LockFreeLogOtlpProperties getOtlp() {
        return otlp;
    }

    /**
     * The lock-free log file: Spring Boot's log file ({@code logging.file.name}, else {@code logging.file.path}), or,
     * where Spring Boot writes none, {@code lockfreelog.file.name}, written with the format and rolling Spring Boot's
     * file appender has or would have.
     */
    public static class File extends LockFreeLogEngineProperties {

        /** Log file to write when Spring Boot writes none (neither "logging.file.name" nor "logging.file.path" is set); when one is, this may only name the same file. When unset, Spring Boot's log file. */
        private String name;

        /** Journal file holding the memory-mapped buffers. When unset, the first free one of ".lockfreelog/<log file name>.journal", ".1.journal", ... beside the log file, so that several instances can share a log folder. */
        private String journal;

        public String getName() {
            return name;
        }

        public void setName(String name) {
            this.name = name;
        }

        @Override
        public String getJournal() {
            return journal;
        }

        public void setJournal(String journal) {
            this.journal = journal;
        }
    }

    /**
     * The lock-free console: standard output written through a journal of its own, in place of Spring Boot's
     * {@code CONSOLE} appender, with that appender's encoder (pattern, colours, {@code logging.structured.format.console}),
     * threshold ({@code logging.threshold.console}) and charset, and engine settings of its own.
     */
    public static class Console extends LockFreeLogEngineProperties {

        /** Whether to replace Spring Boot's CONSOLE appender with the lock-free console. */
        private boolean enabled;

        /** Journal of the console. When unset, the first free one of "<java.io.tmpdir>/.lockfreelog-<application>-uid-<uid>/LOCKFREE_CONSOLE.journal", ".1.journal", ..., the application being spring.application.name, else the main class. Put it on a volume that outlives what it must survive (a Kubernetes emptyDir outlives container restarts, not the pod). */
        private String journal;

        public boolean isEnabled() {
            return enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        @Override
        public String getJournal() {
            return journal;
        }

        public void setJournal(String journal) {
            this.journal = journal;
        }
    }
}
