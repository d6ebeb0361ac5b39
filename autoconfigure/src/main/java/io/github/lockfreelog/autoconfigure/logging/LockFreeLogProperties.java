package io.github.lockfreelog.autoconfigure.logging;

import io.github.lockfreelog.engine.Backpressure;
import io.github.lockfreelog.logback.LockFreeAppenderBase;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.logging.LogLevel;
import org.springframework.util.unit.DataSize;

/**
 * The starter's settings: whether it is on, the loggers its appenders are attached to, the lock-free file's
 * ({@code lockfreelog.file.*}) and the lock-free console's ({@code lockfreelog.console.*}), each with a full set of the
 * engine's settings of its own, with the same defaults (the appenders' own, {@link LockFreeAppenderBase}). What each
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
    private final Kafka kafka = new Kafka();

    /** The OTLP sink: every event to an OpenTelemetry collector (needs lockfreelog-otlp on the class path). */
    @org.springframework.boot.context.properties.NestedConfigurationProperty
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

    public Kafka getKafka() {
        return kafka;
    }

    public LockFreeLogOtlpProperties getOtlp() {
        return otlp;
    }

    /**
     * The engine's settings, which the file and the console each have: its journal, buffers and what a logging thread
     * does when they are full. The defaults are the appenders' own ({@link LockFreeAppenderBase#DEFAULT_BUFFER_SIZE}
     * and the rest), written here as literals so that the configuration processor puts them in the metadata; a test
     * compares the two.
     */
    public abstract static class Engine {

        /** Size of each buffer of the journal: a multiple of 4KB from 64KB to 512MB. */
        private DataSize bufferSize = DataSize.ofMegabytes(8);

        /** Number of buffers in the journal, from 2 to 16. */
        private int bufferCount = 3;

        /** What a logging thread does when the next buffer has not been drained yet. */
        private Backpressure backpressure = Backpressure.BLOCK;

        /** Longest time a logging thread waits for a drained buffer under BLOCK before the event is dropped. */
        private Duration maxBlockTime = Duration.ofSeconds(1);

        /** Largest encoded event kept whole; longer events are cut and counted as truncated. At most half the buffer size. When unset, a quarter of the buffer size. */
        private DataSize maxEventSize;

        /** Longest time a logged line waits to be written while no buffer fills. */
        private Duration flushInterval = Duration.ofMillis(200);

        /** Under DROP, only events below this level are dropped; events at or above it wait as under BLOCK (FATAL is Logback's ERROR). When unset, every event may be dropped. */
        private LogLevel dropBelowLevel;

        public DataSize getBufferSize() {
            return bufferSize;
        }

        public void setBufferSize(DataSize bufferSize) {
            this.bufferSize = bufferSize;
        }

        public int getBufferCount() {
            return bufferCount;
        }

        public void setBufferCount(int bufferCount) {
            this.bufferCount = bufferCount;
        }

        public Backpressure getBackpressure() {
            return backpressure;
        }

        public void setBackpressure(Backpressure backpressure) {
            this.backpressure = backpressure;
        }

        public Duration getMaxBlockTime() {
            return maxBlockTime;
        }

        public void setMaxBlockTime(Duration maxBlockTime) {
            this.maxBlockTime = maxBlockTime;
        }

        public DataSize getMaxEventSize() {
            return maxEventSize;
        }

        public void setMaxEventSize(DataSize maxEventSize) {
            this.maxEventSize = maxEventSize;
        }

        public Duration getFlushInterval() {
            return flushInterval;
        }

        public void setFlushInterval(Duration flushInterval) {
            this.flushInterval = flushInterval;
        }

        public LogLevel getDropBelowLevel() {
            return dropBelowLevel;
        }

        public void setDropBelowLevel(LogLevel dropBelowLevel) {
            this.dropBelowLevel = dropBelowLevel;
        }

        /** The journal file holding the memory-mapped buffers, or {@code null} for the default one. */
        public abstract String getJournal();
    }

    /**
     * The lock-free log file: Spring Boot's log file ({@code logging.file.name}, else {@code logging.file.path}), or,
     * where Spring Boot writes none, {@code lockfreelog.file.name}, written with the format and rolling Spring Boot's
     * file appender has or would have.
     */
    public static class File extends Engine {

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
    public static class Console extends Engine {

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

    /**
     * The Kafka sink ({@code io.github.lockfreelog.kafka.LockFreeKafkaAppender} of lockfreelog-kafka): every event the
     * loggers ({@code lockfreelog.loggers}) pass goes to a topic through a journal of its own, delivered in
     * transactions; the connection is Spring Boot's ({@code spring.kafka.*}), with {@code producer} over it.
     */
    public static class Kafka extends Engine {

        /** Whether to send the log to Kafka. When unset, it is sent when "lockfreelog.kafka.topic" is set and lockfreelog-kafka is on the class path. */
        private Boolean enabled;

        /** Topic every event goes to; it must exist. */
        private String topic;

        /** Compacted topic where each journal slot's position is committed with its events. When unset, "<topic>.positions", created when missing. */
        private String positionTopic;

        /** Replication factor of the position topic when the sink creates it; -1 for the brokers' default.replication.factor. When unset, as many brokers as there are, up to 3 (then with min.insync.replicas 2). */
        private Short positionTopicReplicationFactor;

        /** How long after one transaction began the next begins, unless the journal holds a full one; 0 for at once. When unset, 50ms. */
        private Duration transactionLinger;

        /** Prefix of the transactional ids, one per journal slot: the same across restarts of an instance, distinct between instances. When unset, "lockfreelog-<host name>-LOCKFREE_KAFKA". */
        private String transactionalIdPrefix;

        /** Whether each batch is a Kafka transaction that also commits the journal's position: exactly once for read_committed consumers. false: an idempotent producer only, at least once, no position topic. */
        private boolean transactional = true;

        /** Each record's key: none, thread, constant:<value> or mdc:<name>. When unset, none. */
        private String key;

        /** Headers each record carries: a comma-separated list of level and logger. When unset, none. */
        private String headers;

        /** Spring Boot's structured format of each record's value: ecs, gelf, logstash, or the fully-qualified name of a StructuredLogFormatter class. When unset, the value is the line "lockfreelog.kafka.pattern" gives. */
        private String structuredFormat;

        /** Logback pattern of each record's value when no structured format is set. When unset, Spring Boot's log file pattern (its console pattern without colours). */
        private String pattern;

        /** Producer configs, as Kafka names them, over those Spring Boot's "spring.kafka.*" properties give. */
        private Map<String, String> producer = new LinkedHashMap<>();

        /** Journal of the Kafka sink. When unset, the first free one of "<java.io.tmpdir>/.lockfreelog-<application>-uid-<uid>/LOCKFREE_KAFKA.journal", ".1.journal", ..., as for the console. */
        private String journal;

        public Boolean getEnabled() {
            return enabled;
        }

        public void setEnabled(Boolean enabled) {
            this.enabled = enabled;
        }

        public String getTopic() {
            return topic;
        }

        public void setTopic(String topic) {
            this.topic = topic;
        }

        public String getPositionTopic() {
            return positionTopic;
        }

        public void setPositionTopic(String positionTopic) {
            this.positionTopic = positionTopic;
        }

        public Short getPositionTopicReplicationFactor() {
            return positionTopicReplicationFactor;
        }

        public void setPositionTopicReplicationFactor(Short positionTopicReplicationFactor) {
            this.positionTopicReplicationFactor = positionTopicReplicationFactor;
        }

        public Duration getTransactionLinger() {
            return transactionLinger;
        }

        public void setTransactionLinger(Duration transactionLinger) {
            this.transactionLinger = transactionLinger;
        }

        public String getTransactionalIdPrefix() {
            return transactionalIdPrefix;
        }

        public void setTransactionalIdPrefix(String transactionalIdPrefix) {
            this.transactionalIdPrefix = transactionalIdPrefix;
        }

        public boolean isTransactional() {
            return transactional;
        }

        public void setTransactional(boolean transactional) {
            this.transactional = transactional;
        }

        public String getKey() {
            return key;
        }

        public void setKey(String key) {
            this.key = key;
        }

        public String getHeaders() {
            return headers;
        }

        public void setHeaders(String headers) {
            this.headers = headers;
        }

        public String getStructuredFormat() {
            return structuredFormat;
        }

        public void setStructuredFormat(String structuredFormat) {
            this.structuredFormat = structuredFormat;
        }

        public String getPattern() {
            return pattern;
        }

        public void setPattern(String pattern) {
            this.pattern = pattern;
        }

        public Map<String, String> getProducer() {
            return producer;
        }

        public void setProducer(Map<String, String> producer) {
            this.producer = producer;
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
