package io.github.lockfreelog.kafka;

import ch.qos.logback.classic.spi.ILoggingEvent;
import io.github.lockfreelog.diagnostics.StatusReporter;
import io.github.lockfreelog.engine.EngineConfig;
import io.github.lockfreelog.engine.JournalEngine;
import io.github.lockfreelog.engine.SettingProblem;
import io.github.lockfreelog.files.FileIdentity;
import io.github.lockfreelog.journal.JournalSlots;
import io.github.lockfreelog.logback.EventEnvelope;
import io.github.lockfreelog.logback.LockFreeAppenderBase;
import io.github.lockfreelog.logback.LogbackStatusReporter;
import io.github.lockfreelog.records.RecordRecovery;
import io.github.lockfreelog.sink.LogTarget;
import io.github.lockfreelog.sink.RecordSink;
import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.ProducerConfig;

/**
 * A Logback appender that puts every event in a Kafka topic, exactly once as a {@code read_committed} consumer
 * sees it, whatever crashes: the caller's path is the file appender's (encode, reserve with one atomic operation,
 * copy into its own memory-mapped journal, return: no lock, no system call, no producer call), and the drainer
 * thread delivers the journal's events in transactions that also commit the journal's position
 * ({@link KafkaRecordSink}). One record per event: the value is the encoded event, the key none, a constant, an
 * MDC value or the thread's name, and headers {@code level} and {@code logger} when asked for. With
 * {@code <transactional>false</transactional>} the producer is only idempotent: at least once, no position topic.
 *
 * <pre>{@code
 * <appender name="KAFKA" class="io.github.lockfreelog.kafka.LockFreeKafkaAppender">
 *   <topic>logs</topic>
 *   <producerConfig>bootstrap.servers=localhost:9092</producerConfig>
 *   <key>mdc:traceId</key>
 *   <headers>level,logger</headers>
 *   <encoder><pattern>%d %5p [%t] %c - %m%n</pattern></encoder>
 * </appender>
 * }</pre>
 *
 * <p>Events of the Kafka client's own loggers ({@code org.apache.kafka.*}) are not sent (the producer would log
 * into itself): give them another appender. The journal, unset, is
 * {@code <java.io.tmpdir>/.lockfreelog-<application>-uid-<uid>/<appender name>.journal} (then
 * {@code <appender name>.1.journal} ... for other instances), as for the console appender.
 */
public class LockFreeKafkaAppender extends LockFreeAppenderBase {

    /** Header names given with {@link #setHeaders headers}. */
    public static final String LEVEL_HEADER = "level";
    public static final String LOGGER_HEADER = "logger";
    private static final String KAFKA_LOGGERS = "org.apache.kafka.";

    private String topic;
    private String positionTopic;
    private String transactionalIdPrefix;
    private boolean transactional = true;
    private String key = "none";
    private String headers;
    private String application;
    private final Map<String, Object> producerConfig = new LinkedHashMap<>();
    private final Map<String, String> positionTopicConfig = new LinkedHashMap<>();
    private short positionTopicReplicationFactor;
    private long transactionLinger = DEFAULT_TRANSACTION_LINGER_MS;
    private SettingNames settingNames = SettingNames.LOGBACK;
    private final KafkaCounters counters = new KafkaCounters();
    /** The sinks open now: the drainer's, and those recovering other slots' journals; closed by a stop that timed out. */
    private final Set<SlotSink> openSinks = SlotSinks.openSet();

    /** How long after one transaction began the next begins, unless the journal holds a full one: 50 ms. */
    static final long DEFAULT_TRANSACTION_LINGER_MS = 50;
    @Override
    public List<SettingProblem> checkSettings() {
        List<SettingProblem> problems = new ArrayList<>();
        if (topic == null || topic.isBlank()) {
            problems.add(new SettingProblem("topic", topic, "the name of the topic events go to"));
        }
        ProducerChecks.checkBootstrap(producerConfig, problems);
        if (KeyAndHeaders.parseKey(key) == null) {
            problems.add(new SettingProblem("key", key, "none, thread, constant:<value> or mdc:<name>"));
        }
        if (KeyAndHeaders.parseHeaders(headers) == null) {
            problems.add(new SettingProblem("headers", headers, "a comma-separated list of level and logger"));
        }
        ProducerChecks.checkGiven(producerConfig, problems);
        if (transactionLinger < 0) {
            problems.add(new SettingProblem("transactionLinger", String.valueOf(transactionLinger),
                    "milliseconds from 0 up, e.g. 50"));
        }
        if (positionTopicReplicationFactor < -1) {
            problems.add(new SettingProblem("positionTopicReplicationFactor", String.valueOf(positionTopicReplicationFactor),
                    "-1 (the brokers' default.replication.factor), or a number of brokers from 1 up; unset: as many"
                            + " brokers as there are, up to 3"));
        }
        ProducerChecks.checkEventSize(producerConfig, getMaxEventSize(),
                getMaxEventSize() == null ? 0 : getMaxEventSize().getSize(), problems);
        addSharedProblems(problems);
        return problems;
    }

    @Override
    protected JournalEngine startEngine(String suffix) {
        Path journalFile;
        try {
            journalFile = isJournalSet() ? FileIdentity.canonical(Paths.get(getJournal().trim()))
                    : journalInTmp(applicationName(application), ".journal");
        } catch (RuntimeException e) {
            addError("Cannot use the journal " + getJournal() + suffix + ": " + e);
            return null;
        }
        journalFile = claimJournal(journalFile, isJournalSet(), suffix);
        if (journalFile == null) {
            return null;
        }
        int slots = isJournalSet() ? 1 : JournalSlots.DEFAULT_SLOTS;
        String topicName = topic.trim();
        String positions = positionTopic == null || positionTopic.isBlank() ? topicName + ".positions" : positionTopic.trim();
        String prefix = transactionalIdPrefix == null || transactionalIdPrefix.isBlank() || !transactional
                ? SlotSinks.defaultPrefix(fileNamePart(applicationName(application)), name, journalFile)
                : transactionalIdPrefix.trim();
        if (!transactional) {
            warnUnusedWithoutTransactions(suffix);
        }
        EngineConfig.Builder builder = engineConfig().logFile(Paths.get(topicName)).journalFile(journalFile)
                .journalSlots(slots).target(LogTarget.KAFKA);
        EngineConfig config = builder.build();
        int maxRequestEvent = ProducerChecks.maxRequestEvent(producerConfig);
        if (getMaxEventSize() == null && config.effectiveMaxEventSize() > maxRequestEvent) {
            // reconciled: an event the producer could never send is cut to fit (and counted truncated) at append
            config = builder.maxEventSize(Math.max(EngineConfig.MIN_MAX_EVENT_SIZE, maxRequestEvent)).build();
        }
        StatusReporter status = new LogbackStatusReporter(this, suffix);
        Map<String, Object> clientConfig = new HashMap<>(producerConfig);
        clientConfig.putIfAbsent(ProducerConfig.MAX_BLOCK_MS_CONFIG, "10000");
        long lingerNanos = TimeUnit.MILLISECONDS.toNanos(transactionLinger);
        int deliveryBytes = RecordRecovery.batchBytes(config.bufferSize());
        RecordSink.Factory sinks = new SlotSinks(transactional, slot -> new SlotSettings(topicName,
                transactional ? positions : null, SlotSinks.slotId(prefix, slot), clientConfig,
                positionTopicReplicationFactor, positionTopicConfig, lingerNanos, deliveryBytes, settingNames, counters,
                status), openSinks);
        try {
            return JournalEngine.startRecords(config, status, sinks);
        } catch (IOException | RuntimeException e) {
            releaseClaims();
            addError("Could not start" + suffix + " with journal " + journalFile + " and topic " + topicName + ": " + e, e);
            return null;
        }
    }

    /** With transactions off, one WARN naming the transactional settings that were given and are not used. */
    private void warnUnusedWithoutTransactions(String suffix) {
        List<String> unused = new ArrayList<>();
        if (positionTopic != null && !positionTopic.isBlank()) {
            unused.add("positionTopic=" + positionTopic.trim());
        }
        if (transactionalIdPrefix != null && !transactionalIdPrefix.isBlank()) {
            unused.add("transactionalIdPrefix=" + transactionalIdPrefix.trim());
        }
        if (!unused.isEmpty()) {
            addWarn(String.join(" and ", unused) + " not used" + suffix + ": transactional=false (an idempotent"
                    + " producer, at least once) has no position topic and no transactional ids; remove them, or set"
                    + " transactional=true");
        }
    }

    /**
     * After the engine stopped: a stop that timed out leaves the sinks that were recovering other slots' journals
     * open (the engine closes only its own); their producers are closed now, without waiting. What they had not
     * committed is the next start's to recover.
     */
    @Override
    protected void engineStopped() {
        SlotSinks.closeAll(openSinks);
    }

    @Override
    protected void append(ILoggingEvent event) {
        String logger = event.getLoggerName();
        if (logger != null && logger.startsWith(KAFKA_LOGGERS)) {
            return; // the producer's own logging: sending it would have the producer log into itself
        }
        super.append(event);
    }

    /** Made at each start, from {@link #key} and {@link #headers} (checked by then): see {@link RecordEnvelope.Writer}. */
    @Override
    protected EventEnvelope envelope() {
        return KeyAndHeaders.writer(key, headers);
    }

    @Override
    protected LogTarget target() {
        return LogTarget.KAFKA;
    }

    @Override
    protected String targetName() {
        return String.valueOf(topic);
    }

    /** What this appender's Kafka sinks did: transactions, events delivered, events too large. */
    public KafkaCounters getKafkaCounters() {
        return counters;
    }

    // ---- settings ---------------------------------------------------------------------------

    public String getTopic() {
        return topic;
    }

    /** The topic every event goes to (required; it must exist). */
    public void setTopic(String topic) {
        this.topic = topic;
    }

    public String getPositionTopic() {
        return positionTopic;
    }

    /**
     * The compacted topic where each journal slot's position is committed with its events; unset,
     * {@code <topic>.positions} (created, compacted, when missing).
     */
    public void setPositionTopic(String positionTopic) {
        this.positionTopic = positionTopic;
    }

    public String getTransactionalIdPrefix() {
        return transactionalIdPrefix;
    }

    /**
     * Prefix of the transactional ids, one per journal slot ({@code <prefix>-<slot>}): the same across restarts of
     * an instance (so that a restart fences the process it replaces), distinct between instances; unset,
     * {@code lockfreelog-<host name>-<appender name>}.
     */
    public void setTransactionalIdPrefix(String transactionalIdPrefix) {
        this.transactionalIdPrefix = transactionalIdPrefix;
    }

    public boolean isTransactional() {
        return transactional;
    }

    /**
     * Whether each batch is a Kafka transaction that also commits the journal's position (the default: exactly once
     * for {@code read_committed} consumers); {@code false}: an idempotent producer only, at least once (the events
     * that may come twice: docs/kafka.md, "Transactions off").
     */
    public void setTransactional(boolean transactional) {
        this.transactional = transactional;
    }

    public String getKey() {
        return key;
    }

    /** Each record's key: {@code none} (the default), {@code thread}, {@code constant:<value>} or {@code mdc:<name>}. */
    public void setKey(String key) {
        this.key = key;
    }

    public String getHeaders() {
        return headers;
    }

    /** Headers each record carries: a comma-separated list of {@code level} and {@code logger}; unset, none. */
    public void setHeaders(String headers) {
        this.headers = headers;
    }

    public String getApplication() {
        return application;
    }

    /** Names the default journal's folder; unset, the Logback context's name, else the main class or jar. */
    public void setApplication(String application) {
        this.application = application;
    }

    public long getTransactionLinger() {
        return transactionLinger;
    }

    /**
     * How long, in milliseconds, after one transaction began the next begins, unless the journal holds a full one
     * (the producer's {@code batch.size}); 0: at once. Unset, 50: at most 20 transactions a second per journal slot
     * under light load, each event waiting at most that much longer.
     */
    public void setTransactionLinger(long transactionLinger) {
        this.transactionLinger = transactionLinger;
    }

    public short getPositionTopicReplicationFactor() {
        return positionTopicReplicationFactor;
    }

    /**
     * The replication factor of the position topic when the sink creates it; -1 for the brokers'
     * {@code default.replication.factor}; unset, as many brokers as there are, up to 3 (then with
     * {@code min.insync.replicas} 2).
     */
    public void setPositionTopicReplicationFactor(short positionTopicReplicationFactor) {
        this.positionTopicReplicationFactor = positionTopicReplicationFactor;
    }

    /** One setting of the position topic when the sink creates it, as {@code name=value} (may be given many times). */
    public void addPositionTopicConfig(String nameValue) {
        putNameValue("positionTopicConfig", nameValue, positionTopicConfig);
    }

    /**
     * How the owner of this appender names its settings in messages ({@code topic}, {@code positionTopic},
     * {@code transactionalIdPrefix}, {@code transactional}, {@code key}, {@code maxEventSize},
     * {@code positionTopicReplicationFactor}, and {@code producerConfig} and {@code security} for where producer and
     * security settings are set); unnamed ones as {@code logback.xml} spells them ({@code <topic>}).
     */
    public void setSettingNames(Map<String, String> names) {
        this.settingNames = new SettingNames(names);
    }

    /** One producer setting as {@code name=value} ({@code <producerConfig>} may be given many times). */
    public void addProducerConfig(String nameValue) {
        putNameValue("producerConfig", nameValue, producerConfig);
    }

    /** Producer settings, as Kafka names them (bootstrap.servers among them); before start. */
    public void setProducerProperties(Map<String, ?> properties) {
        producerConfig.putAll(properties);
    }

    /** The producer settings given so far. */
    public Map<String, Object> getProducerProperties() {
        return Map.copyOf(producerConfig);
    }
}
