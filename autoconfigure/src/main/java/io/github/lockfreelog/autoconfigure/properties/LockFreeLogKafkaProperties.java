package io.github.lockfreelog.autoconfigure.properties;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The Kafka sink ({@code io.github.lockfreelog.kafka.LockFreeKafkaAppender} of lockfreelog-kafka): every event the
 * loggers ({@code lockfreelog.loggers}) pass goes to a topic through a journal of its own, delivered in
 * transactions; the connection is Spring Boot's ({@code spring.kafka.*}), with {@code producer} over it.
 */
public class LockFreeLogKafkaProperties extends LockFreeLogEngineProperties {

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
