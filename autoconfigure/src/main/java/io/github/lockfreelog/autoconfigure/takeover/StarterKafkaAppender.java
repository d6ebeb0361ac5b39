package io.github.lockfreelog.autoconfigure.takeover;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.encoder.Encoder;
import ch.qos.logback.core.status.Status;
import io.github.lockfreelog.autoconfigure.properties.InvalidLockFreeLogPropertyException;
import io.github.lockfreelog.autoconfigure.properties.LockFreeLogKafkaProperties;
import io.github.lockfreelog.autoconfigure.properties.StarterProperties;
import io.github.lockfreelog.engine.SettingProblem;
import io.github.lockfreelog.kafka.LockFreeKafkaAppender;
import io.github.lockfreelog.logback.LockFreeAppenderBase;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.springframework.boot.logging.logback.StructuredLogEncoder;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.util.StringUtils;

/**
 * The Kafka sink's part of a run ({@code lockfreelog.kafka.*}): a {@link LockFreeKafkaAppender} with Spring Boot's
 * connection ({@link KafkaConnection}), its encoder built as Spring Boot builds its own (a structured format, else a
 * pattern) and engine settings of its own. The one class of the starter that names a type of lockfreelog-kafka:
 * {@code LockFreeLogRuntime} calls it only after it found that module on the class path, and what it hands back is a
 * {@link LockFreeAppenderBase}.
 */
final class StarterKafkaAppender {

    /** Name of the starter's Kafka appender. */
    static final String NAME = "LOCKFREE_KAFKA";

    /** The class whose presence turns the Kafka sink on. */
    static final String APPENDER_CLASS = "io.github.lockfreelog.kafka.LockFreeKafkaAppender";

    /** Each setting of the appender's own check and the property it comes from. */
    private static final Map<String, String> PROPERTIES = Map.of("topic", AppenderSettings.KAFKA + "topic",
            "key", AppenderSettings.KAFKA + "key", "headers", AppenderSettings.KAFKA + "headers",
            "transactionalIdPrefix", AppenderSettings.KAFKA + "producer",
            "producerConfig", AppenderSettings.KAFKA + "producer",
            "transactionLinger", AppenderSettings.KAFKA + "transaction-linger",
            "positionTopicReplicationFactor", AppenderSettings.KAFKA + "position-topic-replication-factor");

    /** How the sink's messages name the settings: as this starter's properties. */
    private static final Map<String, String> SETTING_NAMES = Map.of("topic", AppenderSettings.KAFKA + "topic",
            "positionTopic", AppenderSettings.KAFKA + "position-topic",
            "transactionalIdPrefix", AppenderSettings.KAFKA + "transactional-id-prefix",
            "transactional", AppenderSettings.KAFKA + "transactional",
            "key", AppenderSettings.KAFKA + "key",
            "maxEventSize", AppenderSettings.KAFKA + "max-event-size",
            "positionTopicReplicationFactor", AppenderSettings.KAFKA + "position-topic-replication-factor",
            "producerConfig", "spring.kafka.producer.*, spring.kafka.properties.* or " + AppenderSettings.KAFKA + "producer.*",
            "security", "spring.kafka.security.*, spring.kafka.ssl.*");

    private StarterKafkaAppender() {
    }

    /** What the sink is made of: equal identities need no new appender, so a running one goes on. */
    static String identity(LoggerContext context, StarterProperties starter, ConfigurableEnvironment environment) {
        LockFreeLogKafkaProperties properties = starter.properties().getKafka();
        return String.join("|", String.valueOf(properties.getTopic()), String.valueOf(properties.getPositionTopic()),
                String.valueOf(properties.getTransactionalIdPrefix()), String.valueOf(properties.isTransactional()),
                String.valueOf(properties.getPositionTopicReplicationFactor()),
                String.valueOf(properties.getTransactionLinger()),
                String.valueOf(properties.getKey()),
                String.valueOf(properties.getHeaders()), format(context, properties),
                new TreeMap<>(KafkaConnection.producerConfigs(environment, properties.getProducer())).toString(),
                AppenderSettings.engineIdentity(properties), String.valueOf(application(environment)));
    }

    /**
     * A started Kafka appender for this run's settings.
     *
     * @throws InvalidLockFreeLogPropertyException when a setting is not allowed, or the appender cannot start
     */
    static LockFreeAppenderBase start(LoggerContext context, StarterProperties starter,
            ConfigurableEnvironment environment) {
        LockFreeLogKafkaProperties properties = starter.properties().getKafka();
        if (!StringUtils.hasText(properties.getTopic())) {
            throw InvalidLockFreeLogPropertyException.of(environment, AppenderSettings.KAFKA + "topic", null,
                    "the name of the topic every event goes to (lockfreelog.kafka.enabled=true asks for one);"
                            + " or lockfreelog.kafka.enabled=false");
        }
        Map<String, Object> producer = KafkaConnection.producerConfigs(environment, properties.getProducer());
        LockFreeKafkaAppender created = new LockFreeKafkaAppender();
        created.setContext(context);
        created.setName(NAME);
        created.setKeepEngineOnStop(true);
        created.setTopic(properties.getTopic().trim());
        created.setPositionTopic(properties.getPositionTopic());
        created.setTransactionalIdPrefix(properties.getTransactionalIdPrefix());
        created.setTransactional(properties.isTransactional());
        if (properties.getPositionTopicReplicationFactor() != null) {
            created.setPositionTopicReplicationFactor(properties.getPositionTopicReplicationFactor());
        }
        if (properties.getTransactionLinger() != null) {
            created.setTransactionLinger(properties.getTransactionLinger().toMillis());
        }
        if (properties.getKey() != null) {
            created.setKey(properties.getKey());
        }
        created.setHeaders(properties.getHeaders());
        created.setProducerProperties(producer);
        created.setSettingNames(SETTING_NAMES);
        String application = application(environment);
        if (application != null) {
            created.setApplication(application);
        }
        AppenderSettings.applyEngine(created, properties);
        created.setEncoder(encoder(context, properties, environment));
        List<SettingProblem> problems = created.checkSettings();
        if (!problems.isEmpty()) {
            SettingProblem first = problems.get(0);
            String property = PROPERTIES.getOrDefault(first.setting(),
                    AppenderSettings.propertyOf(first, AppenderSettings.KAFKA, AppenderSettings.KAFKA + "topic"));
            throw InvalidLockFreeLogPropertyException.of(environment, property, first.value(),
                    AppenderSettings.inPropertyNames(first.allowed(), AppenderSettings.KAFKA));
        }
        long startedAt = System.currentTimeMillis();
        created.start();
        if (!created.isStarted()) {
            String errors = String.join("; ", context.getStatusManager().getCopyOfStatusList().stream()
                    .filter(s -> s.getLevel() == Status.ERROR && s.getTimestamp() >= startedAt)
                    .map(Status::getMessage).toList());
            boolean journal = StringUtils.hasText(properties.getJournal()) && errors.contains(properties.getJournal());
            throw InvalidLockFreeLogPropertyException.of(environment,
                    journal ? AppenderSettings.KAFKA + "journal" : "spring.kafka.bootstrap-servers",
                    journal ? properties.getJournal() : producer.get("bootstrap.servers"),
                    (journal ? "a journal this application can create, lock and write"
                            : "a Kafka cluster this application can reach, with the topic "
                                    + properties.getTopic().trim()) + ": " + errors);
        }
        return created;
    }

    private static String application(ConfigurableEnvironment environment) {
        String application = environment.getProperty("spring.application.name");
        return StringUtils.hasText(application) ? application.trim() : null;
    }

    /** What the encoder is made of: the structured format's name, else the pattern. */
    private static String format(LoggerContext context, LockFreeLogKafkaProperties properties) {
        if (StringUtils.hasText(properties.getStructuredFormat())) {
            return "structured:" + properties.getStructuredFormat().trim();
        }
        return "pattern:" + pattern(context, properties);
    }

    private static String pattern(LoggerContext context, LockFreeLogKafkaProperties properties) {
        return StringUtils.hasText(properties.getPattern()) ? properties.getPattern()
                : LogFileWriters.bootFilePattern(context);
    }

    /**
     * Each record's value, in UTF-8: Spring Boot's structured format {@code lockfreelog.kafka.structured-format}, else
     * the pattern {@code lockfreelog.kafka.pattern}, else Spring Boot's log file pattern; built as Spring Boot builds
     * its own file appender's encoder.
     */
    private static Encoder<ILoggingEvent> encoder(LoggerContext context, LockFreeLogKafkaProperties properties,
            ConfigurableEnvironment environment) {
        if (StringUtils.hasText(properties.getStructuredFormat())) {
            StructuredLogEncoder encoder = new StructuredLogEncoder();
            encoder.setContext(context);
            encoder.setFormat(properties.getStructuredFormat().trim());
            encoder.setCharset(StandardCharsets.UTF_8);
            try {
                encoder.start();
            } catch (RuntimeException ex) {
                throw InvalidLockFreeLogPropertyException.of(environment, AppenderSettings.KAFKA + "structured-format",
                        properties.getStructuredFormat(), "ecs, gelf, logstash, or the fully-qualified name of a"
                                + " StructuredLogFormatter class (" + ex.getMessage() + ")");
            }
            return encoder;
        }
        String pattern = pattern(context, properties);
        String property = StringUtils.hasText(properties.getPattern()) ? AppenderSettings.KAFKA + "pattern"
                : "logging.pattern.file";
        if (!StringUtils.hasText(pattern)) {
            throw InvalidLockFreeLogPropertyException.of(environment, AppenderSettings.KAFKA + "pattern", null,
                    "a Logback pattern: the Logback configuration defines no FILE_LOG_PATTERN to default to");
        }
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(context);
        encoder.setPattern(pattern);
        encoder.setCharset(StandardCharsets.UTF_8);
        long startedAt = System.currentTimeMillis();
        encoder.start();
        List<String> errors = context.getStatusManager().getCopyOfStatusList().stream()
                .filter(s -> s.getLevel() == Status.ERROR && s.getTimestamp() >= startedAt)
                .map(Status::getMessage).toList();
        if (!encoder.isStarted() || !errors.isEmpty()) {
            throw InvalidLockFreeLogPropertyException.of(environment, property, pattern,
                    "a valid Logback pattern (" + String.join("; ", errors) + ")");
        }
        return encoder;
    }
}
