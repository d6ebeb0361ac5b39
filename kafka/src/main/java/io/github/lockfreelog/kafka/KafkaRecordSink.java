package io.github.lockfreelog.kafka;

import io.github.lockfreelog.diagnostics.CrashPoint;
import io.github.lockfreelog.diagnostics.StatusReporter;
import io.github.lockfreelog.sink.JournalPosition;
import io.github.lockfreelog.sink.RecordBatch;
import io.github.lockfreelog.sink.RecordSink;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.CreateTopicsOptions;
import org.apache.kafka.clients.admin.DescribeConfigsOptions;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.TransactionalIdAuthorizationException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.errors.UnsupportedVersionException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The record sink of one journal slot: a transactional producer whose {@code transactional.id} belongs to the
 * slot, delivering each batch of events as one transaction that also writes the journal's position to the
 * compacted position topic, keyed by that id (Kafka Connect's exactly-once sources commit their offsets the same
 * way, KIP-618). {@link #committed} first makes a new producer whose {@code initTransactions()} fences the one
 * before it (this process's own after a failure, or a process's that died) and completes or aborts its open
 * transaction, then reads the position topic with {@code read_committed} up to its high watermark, so no
 * transaction still open can hide a position written after it.
 *
 * <p>With transactions off ({@link #idempotent}) the producer is only idempotent and there is no position topic:
 * {@link #committed} answers {@code null} (the journal's drain record alone says how far the sink is), and
 * {@link #deliver} returns once the broker acknowledged every record of the batch. A batch acknowledged just before
 * a crash, or partly written before a failure, is delivered again whole, by a new producer that the broker does not
 * deduplicate against the old one: at least once (docs/kafka.md, "Transactions off").
 *
 * <p>An event the broker refuses as too large ({@code max.request.size}, the topic's {@code max.message.bytes})
 * is left out, counted as the engine's drop {@code too-large} once the rest is delivered (and in
 * {@link KafkaCounters#tooLarge}, recovered events too); an ERROR names the setting. A transaction is delivered
 * again without it; without transactions the other records of the batch are written already. Every other failure
 * discards the producer and throws an {@link IOException} (never a {@code KafkaException}: recovery would take
 * that for a damaged journal); the drainer retries.
 */
final class KafkaRecordSink implements RecordSink {

    /** Crash point: half the records of a transaction sent, the transaction open. */
    static final String MID_RECORD_SEND = "mid-record-send";
    /** Crash point: every record and the position sent, before the commit (transactions off: before the acks). */
    static final String BEFORE_RECORD_COMMIT = "before-record-commit";

    private static final byte POSITION_VERSION = 1;
    /** The producer's {@code batch.size} unless given: 256 KB (Kafka's own default is 16 KB). */
    static final int DEFAULT_BATCH_SIZE = 256 * 1024;
    /** Where a refused principal's settings are, in a refusal's ERROR. */
    private static final String SECURITY_SETTINGS = "the producer's security settings (sasl.*, ssl.*, security.protocol;"
            + " Spring Boot: spring.kafka.security.*, spring.kafka.ssl.*)";
    private static final String PRODUCER_SETTINGS = "<producerConfig> in logback.xml; Spring Boot: spring.kafka.producer.*,"
            + " spring.kafka.properties.* or lockfreelog.kafka.producer.*";
    /** Kafka's own {@code batch.size} default, for a topic whose {@code max.message.bytes} could not be read. */
    static final int KAFKA_BATCH_SIZE = 16 * 1024;

    private final String topic;
    /** Whether each batch is a transaction with its position (exactly once); else only idempotent (at least once). */
    private final boolean transactional;
    /** The position topic; {@code null} when not {@link #transactional}. */
    private final String positionTopic;
    /** The slot's transactional id, or (transactions off) the producer's {@code client.id}. */
    private final String transactionalId;
    /**
     * The position topic's settings when the sink creates it: compacted, and short for its reader, which reads it
     * from the start at each start (and after a failed delivery). A busy sink commits a transaction, so a position
     * record and a commit marker, many times a second: compaction only cleans closed segments (Kafka's default
     * closes one at 1 GiB or after 7 days) and keeps markers {@code delete.retention.ms} (1 day) after that, so the
     * topic would grow by gigabytes a day. An hourly segment and markers kept one hour bound it to about an hour or
     * two of commits.
     */
    static final Map<String, String> POSITION_TOPIC_CONFIG = Map.of(
            TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT,
            TopicConfig.SEGMENT_MS_CONFIG, String.valueOf(TimeUnit.HOURS.toMillis(1)),
            TopicConfig.DELETE_RETENTION_MS_CONFIG, String.valueOf(TimeUnit.HOURS.toMillis(1)));

    private final byte[] positionKey;
    private final Map<String, Object> clientConfig;
    private final StatusReporter status;
    private final KafkaCounters counters;
    private final long maxBlockMillis;
    /** The producer of the slot; {@code null} until the next {@link #committed} or {@link #deliver} makes one. */
    private volatile Producer<byte[], byte[]> producer;
    private volatile boolean closed;
    private boolean topicsChecked;
    /**
     * A transaction whose commit failed without an answer (a timeout, a broker lost meanwhile): committed or not,
     * the next {@link #committed} says; its counts wait here until then. {@code null} when there is none.
     */
    private Unanswered unanswered;
    /** The producer's {@code batch.size}, set once by {@link #checkTopics} from the topic's limit ({@link #batchSize(int)}). */
    private int batchSize;

    /** The counts of a transaction whose commit had no answer: its batch's end, its events, its events too large. */
    private record Unanswered(JournalPosition end, int events, int tooLarge) {
    }

    private KafkaRecordSink(String topic, boolean transactional, String positionTopic, String transactionalId,
            Map<String, Object> clientConfig, KafkaCounters counters, StatusReporter status) {
        this.topic = topic;
        this.transactional = transactional;
        this.positionTopic = positionTopic;
        this.transactionalId = transactionalId;
        this.positionKey = transactionalId.getBytes(StandardCharsets.UTF_8);
        this.clientConfig = Map.copyOf(clientConfig);
        this.counters = counters;
        this.status = status;
        Object maxBlock = clientConfig.get(ProducerConfig.MAX_BLOCK_MS_CONFIG);
        this.maxBlockMillis = maxBlock == null ? 60_000 : Long.parseLong(maxBlock.toString());
    }

    /** The exactly-once sink of one slot: each batch a transaction of {@code transactionalId}, with its position. */
    static KafkaRecordSink transactional(String topic, String positionTopic, String transactionalId,
            Map<String, Object> clientConfig, KafkaCounters counters, StatusReporter status) {
        return new KafkaRecordSink(topic, true, positionTopic, transactionalId, clientConfig, counters, status);
    }

    /**
     * The at-least-once sink of one slot: an idempotent producer (its {@code client.id}, unless given, is
     * {@code clientId}), no transactions, no position topic.
     */
    static KafkaRecordSink idempotent(String topic, String clientId, Map<String, Object> clientConfig,
            KafkaCounters counters, StatusReporter status) {
        return new KafkaRecordSink(topic, false, null, clientId, clientConfig, counters, status);
    }

    String transactionalId() {
        return transactionalId;
    }

    /**
     * Transactional: the position committed in the position topic, after fencing. Transactions off: {@code null}
     * (nothing but the journal records how far the topic holds it), once the topic is known to exist.
     */
    @Override
    public JournalPosition committed(long journalId) throws IOException {
        try {
            openProducer();
            JournalPosition position = transactional ? readPosition(journalId) : null;
            counters.reached();
            Unanswered last = unanswered;
            if (last != null && last.end().journalId() == journalId) { // the commit that had no answer: now it has one
                unanswered = null;
                if (position != null && position.covers(last.end().termCount(), last.end().offset())) {
                    counters.committed(last.events());
                    counters.tooLarge(last.tooLarge());
                    counters.settled(); // delivered after all: the drainer records it and does not try it again
                } else {
                    counters.aborted();
                }
            }
            return position;
        } catch (KafkaException | IllegalStateException e) {
            discardProducer();
            throw failure(transactional ? "reading the position of transactional.id " + transactionalId + " from "
                    + positionTopic : "reaching topic " + topic, e);
        } catch (IOException e) {
            counters.failed();
            throw e;
        }
    }

    /**
     * Transactional: sends the batch and its position in one transaction and commits it; a transaction with events
     * too large is aborted and sent again without them. Transactions off: sends the batch and waits until each
     * record is acknowledged ({@code flush}, then each send's outcome); records too large are left out, any other
     * failure fails the delivery (the drainer delivers the whole batch again).
     */
    @Override
    public void deliver(RecordBatch batch) throws IOException {
        Set<Integer> leftOut = new java.util.HashSet<>();
        int tooLargeCount = 0;
        counters.delivering();
        for (;;) {
            Producer<byte[], byte[]> current;
            Outcomes sent = new Outcomes(transactional, batch.count());
            boolean begun = false;
            boolean committing = false;
            try {
                current = openProducer();
                if (transactional) {
                    current.beginTransaction();
                    begun = true;
                }
                send(current, batch, leftOut, sent);
                if (transactional) {
                    current.send(new ProducerRecord<>(positionTopic, positionKey, position(batch.end())));
                    CrashPoint.reached(BEFORE_RECORD_COMMIT);
                    committing = true;
                    current.commitTransaction();
                    counters.committed(batch.count() - leftOut.size());
                } else {
                    CrashPoint.reached(BEFORE_RECORD_COMMIT);
                    current.flush(); // every send completed: acknowledged, or failed for good (delivery.timeout.ms)
                    sent.throwIfFailed();
                    List<Integer> tooLarge = sent.tooLarge(leftOut);
                    if (!tooLarge.isEmpty()) {
                        leftOut.addAll(tooLarge);
                        tooLargeCount += tooLarge.size();
                        reportTooLarge(batch, tooLarge, sent);
                    }
                    counters.delivered(batch.count() - leftOut.size());
                }
                counters.tooLarge(tooLargeCount);
                counters.settled();
                return;
            } catch (KafkaException | IllegalStateException e) {
                if (begun) { // a transaction that had begun: aborted here (abort() counts it), or by the next fence
                    List<Integer> tooLarge = sent.tooLarge(leftOut);
                    if (!tooLarge.isEmpty() && abort()) {
                        leftOut.addAll(tooLarge);
                        tooLargeCount += tooLarge.size();
                        reportTooLarge(batch, tooLarge, sent);
                        continue;
                    }
                    if (committing && !(e instanceof ProducerFencedException)) {
                        unanswered = new Unanswered(batch.end(), batch.count() - leftOut.size(), tooLargeCount);
                    } else {
                        counters.aborted();
                    }
                }
                // transactional: whether it committed is for the next committed() to say, after fencing it;
                // else what it wrote stays written, and the batch goes again whole from a new producer
                discardProducer();
                throw failure("delivering " + batch.count() + " events to topic " + topic, e);
            } catch (IOException e) {
                counters.failed(); // no producer to be had (the topics' check failed)
                throw e;
            }
        }
    }

    /**
     * Sends each event of {@code batch} not {@code leftOut} (a frame that is no record is added to it), each send's
     * outcome to {@code sent}. Stops at the first failure known that is not about size: the delivery fails then
     * (and a producer that cannot reach the broker would otherwise wait {@code max.block.ms} for each record).
     */
    private void send(Producer<byte[], byte[]> current, RecordBatch batch, Set<Integer> leftOut, Outcomes sent) {
        int half = batch.count() / 2;
        for (int i = 0; i < batch.count(); i++) {
            if (i == half) {
                CrashPoint.reached(MID_RECORD_SEND);
            }
            if (leftOut.contains(i)) {
                continue;
            }
            ProducerRecord<byte[], byte[]> record = record(batch.event(i));
            if (record == null) {
                leftOut.add(i);
                continue;
            }
            final int index = i;
            current.send(record, (metadata, e) -> {
                if (e != null) {
                    sent.failed(index, e);
                }
            });
            sent.throwIfFailed();
        }
    }

    /** Counts the events left out as the engine's drops (reason too-large, once the batch is delivered) and says so. */
    private void reportTooLarge(RecordBatch batch, List<Integer> tooLarge, Outcomes sent) {
        batch.dropTooLarge(tooLarge.size());
        status.error(tooLarge.size() + " events refused by Kafka as too large for topic " + topic + " ("
                + sent.refusal(tooLarge.get(0)) + "): left out and counted (too-large); raise the"
                + " producer's max.request.size and the topic's max.message.bytes, or lower maxEventSize (Spring Boot:"
                + " lockfreelog.kafka.max-event-size)", null);
    }

    /**
     * What the sends of one attempt came to: the events refused as too large, by index, and the first failure that
     * is not about size. Written by the producer's callbacks (its I/O thread, or the caller's for a record refused
     * before it is sent); read once the sends completed ({@code flush}, {@code commitTransaction}) or failed, and
     * {@link #failed} as they go.
     *
     * <p>A transactional producer that refuses a record goes into an abortable error, and its I/O thread then
     * completes every record of the transaction not yet sent with that same exception, the refused record's own
     * instance, after the refused record's callback: only its first receiver is too large, the others are discarded
     * with the transaction and go again in the next one. (Taken for too large, they were left out: the events before
     * a large one went missing.) The broker's refusals may share one instance too (Kafka's exception for an error
     * without a message): a second record refused in the same transaction is then taken for discarded, sent again,
     * and found in the next attempt. Without transactions the producer discards nothing: each receiver is refused.
     */
    private static final class Outcomes {
        private final boolean transactional;
        private final Exception[] tooLarge;
        /** The too-large exceptions received, by identity: a second receiver of one is discarded, not refused. */
        private final Set<Exception> refusals = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        private volatile Exception failed;

        Outcomes(boolean transactional, int count) {
            this.transactional = transactional;
            tooLarge = new Exception[count];
        }

        synchronized void failed(int index, Exception e) {
            if (e instanceof RecordTooLargeException) {
                if (refusals.add(e) || !transactional) {
                    tooLarge[index] = e;
                } // else: discarded with the transaction that the refusal of an earlier record aborts
            } else if (failed == null) {
                failed = e;
            }
        }

        /** Throws the first failure not about size, if there is one. */
        void throwIfFailed() {
            Exception first = failed;
            if (first != null) {
                throw first instanceof KafkaException kafka ? kafka : new KafkaException(first);
            }
        }

        /** The events refused as too large, but those already left out. */
        synchronized List<Integer> tooLarge(Set<Integer> leftOut) {
            List<Integer> refused = new ArrayList<>();
            for (int i = 0; i < tooLarge.length; i++) {
                if (tooLarge[i] != null && !leftOut.contains(i)) {
                    refused.add(i);
                }
            }
            return refused;
        }

        /** Why the event at {@code index} was refused as too large. */
        synchronized String refusal(int index) {
            return tooLarge[index].getMessage();
        }
    }

    /** The record of one frame; {@code null} (reported) for a frame that is not an envelope. */
    private ProducerRecord<byte[], byte[]> record(ByteBuffer frame) {
        RecordEnvelope.Unwrapped unwrapped;
        try {
            unwrapped = RecordEnvelope.unwrap(frame);
        } catch (IllegalArgumentException e) {
            status.warn("left out a journal frame that is not a record (" + e.getMessage() + ")", null);
            return null;
        }
        return new ProducerRecord<>(topic, null, unwrapped.key(), unwrapped.value(), unwrapped.headers());
    }

    /** Aborts the open transaction; whether that worked (else the producer is discarded). */
    private boolean abort() {
        Producer<byte[], byte[]> current = producer;
        if (current == null) {
            return false; // closed meanwhile
        }
        try {
            current.abortTransaction();
            counters.aborted();
            return true;
        } catch (KafkaException | IllegalStateException e) {
            discardProducer();
            return false;
        }
    }

    /** The producer, made (and, transactional, fenced in: {@code initTransactions}) if there is none. */
    private Producer<byte[], byte[]> openProducer() throws IOException {
        if (closed) {
            throw new IOException("the Kafka sink of topic " + topic + " is closed");
        }
        Producer<byte[], byte[]> current = producer;
        if (current != null) {
            return current;
        }
        if (!topicsChecked) {
            checkTopics();
            topicsChecked = true;
        }
        Map<String, Object> config = new HashMap<>(clientConfig);
        if (transactional) {
            config.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        }
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.putIfAbsent(ProducerConfig.CLIENT_ID_CONFIG, transactionalId);
        config.put(ProducerConfig.BATCH_SIZE_CONFIG, batchSize);
        config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        current = new KafkaProducer<>(config);
        try {
            if (transactional) {
                current.initTransactions(); // fences every earlier producer of this id, settling its open transaction
            }
        } catch (KafkaException e) {
            current.close(Duration.ZERO);
            throw e;
        }
        producer = current;
        if (closed) { // close() ran while initTransactions waited: it could not reach this producer
            discardProducer();
            throw new IOException("the Kafka sink of topic " + topic + " is closed");
        }
        return current;
    }

    /**
     * The producer's {@code batch.size}: the one given, else {@link #DEFAULT_BATCH_SIZE} (the drainer hands the
     * producer a whole batch at once: Kafka's 16 KB cut it into many small requests, each costing the client and the
     * broker more than its records; docs/kafka.md, "Settings"); either at most the topic's {@code max.message.bytes}.
     * A batch of many records that the broker refuses as too large is split by the producer into batches of
     * {@code batch.size}: were that above the topic's limit, it would send the same batch again, for ever, and
     * nothing would go out. When the limit could not be read ({@code limit} 0: no DescribeConfigs right), Kafka's
     * own 16 KB. Worked out once, at the topics' check: a WARN about a given size is said once, not at each new producer.
     */
    private int batchSize(int limit) {
        Object given = clientConfig.get(ProducerConfig.BATCH_SIZE_CONFIG);
        if (given == null) {
            return limit > 0 ? Math.min(DEFAULT_BATCH_SIZE, limit) : KAFKA_BATCH_SIZE;
        }
        int size = Integer.parseInt(given.toString().trim());
        if (limit > 0 && size > limit) {
            status.warn("the producer's batch.size (" + size + ") is above the max.message.bytes of topic " + topic
                    + " (" + limit + "): the broker would refuse full batches, and Kafka's producer split them into"
                    + " batches of the same size, for ever; batch.size " + limit + " is used", null);
            return limit;
        }
        return size;
    }

    /** Closes the producer, so that the next call makes one that fences it. */
    private void discardProducer() {
        Producer<byte[], byte[]> current = producer;
        producer = null;
        if (current != null) {
            try {
                current.close(Duration.ZERO);
            } catch (KafkaException e) {
                // already failed; nothing more to do with it
            }
        }
    }

    /** Fails unless the topic exists; creates the position topic (transactional), compacted, if it does not exist. */
    private void checkTopics() throws IOException {
        // each call bounded by max.block.ms, and the client closed without waiting: with the broker out of reach
        // a call left pending would hold the close (and the drainer) for default.api.timeout.ms
        Admin admin = Admin.create(filtered(AdminClientConfig.configNames()));
        int timeoutMs = (int) Math.min(Integer.MAX_VALUE, maxBlockMillis);
        try {
            // both asked at once: one round trip, not two, before the drainer can deliver (the start-up of a busy
            // application logs into the journal meanwhile)
            ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
            ConfigResource positions = transactional ? new ConfigResource(ConfigResource.Type.TOPIC, positionTopic) : null;
            Map<ConfigResource, KafkaFuture<Config>> configs = admin.describeConfigs(
                    transactional ? List.of(resource, positions) : List.of(resource),
                    new DescribeConfigsOptions().timeoutMs(timeoutMs)).values();
            try {
                admin.describeTopics(List.of(topic), new DescribeTopicsOptions().timeoutMs(timeoutMs)).allTopicNames()
                        .get(maxBlockMillis, TimeUnit.MILLISECONDS);
            } catch (java.util.concurrent.ExecutionException e) {
                if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                    throw new RecordSink.RefusedException("the topic " + topic + " does not exist: create it, or set"
                            + " <topic> (Spring Boot: lockfreelog.kafka.topic)"
                            + " to one that does", e.getCause());
                }
                if (e.getCause() instanceof AuthorizationException denied) {
                    throw failure("describing topic " + topic, denied);
                }
                throw new IOException("could not describe topic " + topic + ": " + e.getCause(), e.getCause());
            }
            batchSize = batchSize(maxMessageBytes(configs.get(resource)));
            if (!transactional) {
                return; // no position topic
            }
            try {
                admin.createTopics(List.of(new NewTopic(positionTopic, java.util.Optional.of(1), java.util.Optional.empty())
                        .configs(POSITION_TOPIC_CONFIG)),
                        new CreateTopicsOptions().timeoutMs(timeoutMs)).all().get(maxBlockMillis, TimeUnit.MILLISECONDS);
            } catch (java.util.concurrent.ExecutionException e) {
                if (e.getCause() instanceof TopicExistsException) {
                    warnUnlessCompacted(configs.get(positions));
                } else {
                    String message = "could not create the position topic " + positionTopic + " (" + e.getCause()
                            + "): create it with cleanup.policy=compact, or set <positionTopic> (Spring Boot:"
                            + " lockfreelog.kafka.position-topic) to one that exists";
                    // refused (no right to create topics, a policy): an ERROR; a broker that did not answer: an outage
                    throw e.getCause() instanceof RetriableException ? new IOException(message, e.getCause())
                            : new RecordSink.RefusedException(message, e.getCause());
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while checking topic " + topic, e);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new IOException("Kafka did not answer within max.block.ms (" + maxBlockMillis + " ms) about topic "
                    + topic, e);
        } finally {
            admin.close(Duration.ZERO);
        }
    }

    /**
     * The topic's {@code max.message.bytes} (its own, or the broker's {@code message.max.bytes}); 0 when it cannot
     * be read: a client without the DescribeConfigs right may still write.
     */
    private int maxMessageBytes(KafkaFuture<Config> configs) throws InterruptedException {
        try {
            Config config = configs.get(maxBlockMillis, TimeUnit.MILLISECONDS);
            ConfigEntry entry = config == null ? null : config.get(TopicConfig.MAX_MESSAGE_BYTES_CONFIG);
            return entry == null || entry.value() == null ? 0 : Integer.parseInt(entry.value());
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException
                | NumberFormatException e) {
            status.info("could not read the max.message.bytes of topic " + topic + " (" + e
                    + "): the producer's batch.size, unless given, is Kafka's own " + KAFKA_BATCH_SIZE);
            return 0;
        }
    }

    /**
     * One WARN when the position topic, made by someone else, is not compacted: its retention would delete the
     * position of a journal that delivered nothing for longer, and a crash after that journal's next commit, before
     * the journal recorded it, would send that batch again. Nothing is said when its settings cannot be read.
     */
    private void warnUnlessCompacted(KafkaFuture<Config> configs) throws InterruptedException {
        try {
            ConfigEntry policy = configs.get(maxBlockMillis, TimeUnit.MILLISECONDS)
                    .get(TopicConfig.CLEANUP_POLICY_CONFIG);
            if (policy != null && policy.value() != null && !policy.value().contains(TopicConfig.CLEANUP_POLICY_COMPACT)) {
                status.warn("the position topic " + positionTopic + " has cleanup.policy=" + policy.value() + ": its"
                        + " retention deletes the position of a journal that delivered nothing for longer, and a crash"
                        + " right after that journal's next commit would send that batch again; set"
                        + " cleanup.policy=compact on it", null);
            }
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            // no right to describe it, or no answer: the sink works with it as it is
        }
    }

    /**
     * The last position committed for journal {@code journalId}, under this slot's key or any other: read with
     * {@code read_committed} up to the high watermark taken now (after the fence), so that every transaction open
     * then is settled before the answer. Under any key, because the journal may have been delivered under another
     * transactional id before (the default id holds the host name, which a container restarted on the same volume
     * changes): its positions are the journal's, whoever committed them, and they only grow. A journal made before
     * journals had ids (id 0) is looked up under this slot's key alone. The read has no overall deadline, so that a
     * long position topic is read to its end; it fails once it has not moved for {@code max.block.ms}.
     */
    private JournalPosition readPosition(long journalId) throws IOException {
        Map<String, Object> config = filtered(ConsumerConfig.configNames());
        config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        // every blocking call bounded by max.block.ms (position() after a seek, say, would wait default.api.timeout.ms,
        // 60 s, for a broker that went away meanwhile, and hold the drainer past a stop's stopTimeout)
        config.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) Math.min(Integer.MAX_VALUE, maxBlockMillis));
        config.remove(ConsumerConfig.GROUP_ID_CONFIG);
        Map<TopicPartition, Long> highWatermarks;
        Map<String, Object> uncommitted = new HashMap<>(config);
        uncommitted.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_uncommitted");
        List<TopicPartition> partitions = new ArrayList<>();
        KafkaConsumer<byte[], byte[]> peek = new KafkaConsumer<>(uncommitted);
        try {
            for (PartitionInfo info : peek.partitionsFor(positionTopic, Duration.ofMillis(maxBlockMillis))) {
                partitions.add(new TopicPartition(info.topic(), info.partition()));
            }
            highWatermarks = peek.endOffsets(partitions, Duration.ofMillis(maxBlockMillis));
        } finally {
            closeNow(peek);
        }
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        JournalPosition last = null;
        KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config);
        try {
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            long stillNanos = TimeUnit.MILLISECONDS.toNanos(Math.max(maxBlockMillis, 1000));
            long movedAt = System.nanoTime();
            for (long at = -1, now; (now = readTo(consumer, partitions, highWatermarks)) >= 0; at = now) {
                if (now != at) {
                    movedAt = System.nanoTime(); // aborted transactions' records move the position, and poll none
                } else if (System.nanoTime() - movedAt > stillNanos) {
                    throw new IOException("the position topic " + positionTopic + " could not be read to offset "
                            + highWatermarks + ": it did not move for max.block.ms (" + maxBlockMillis + " ms), a"
                            + " transaction of another producer stays open (Kafka aborts one left by a process that"
                            + " died after transaction.timeout.ms)");
                }
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(100))) {
                    JournalPosition read = journalId == 0 && !Arrays.equals(record.key(), positionKey) ? null
                            : positionOf(record.value(), journalId);
                    if (read != null && (last == null || !last.covers(read.termCount(), read.offset()))) {
                        last = read;
                    }
                }
            }
        } finally {
            closeNow(consumer);
        }
        return last;
    }

    /** The position a position record's value holds, if it is of journal {@code journalId}; else {@code null}. */
    static JournalPosition positionOf(byte[] value, long journalId) {
        if (value == null || value.length < 25 || value[0] != POSITION_VERSION) {
            return null;
        }
        ByteBuffer buffer = ByteBuffer.wrap(value);
        buffer.get();
        long id = buffer.getLong();
        long term = buffer.getLong();
        long offset = buffer.getLong();
        return id == journalId ? new JournalPosition(id, term, offset) : null;
    }


    /**
     * Closes a consumer without waiting: it belongs to no group and has nothing to commit, and its close would
     * otherwise wait up to 30 s for a broker that went away.
     */
    @SuppressWarnings("deprecation") // close(Duration): the one close with a timeout that Kafka 3.9 and 4.x both have
    private static void closeNow(KafkaConsumer<byte[], byte[]> consumer) {
        try {
            consumer.close(Duration.ZERO);
        } catch (KafkaException e) {
            // nothing of it is needed any more
        }
    }

    /**
     * How far the consumer has read, as the sum of its positions in {@code partitions}; -1 once it has read each to
     * its offset in {@code ends}.
     */
    private static long readTo(KafkaConsumer<byte[], byte[]> consumer, List<TopicPartition> partitions,
            Map<TopicPartition, Long> ends) {
        long sum = 0;
        boolean reached = true;
        for (TopicPartition partition : partitions) {
            long position = consumer.position(partition);
            reached &= position >= ends.getOrDefault(partition, 0L);
            sum += position;
        }
        return reached ? -1 : sum;
    }

    /** The position record's value: version, journal id, term, offset. */
    static byte[] position(JournalPosition position) {
        return ByteBuffer.allocate(25).put(POSITION_VERSION).putLong(position.journalId())
                .putLong(position.termCount()).putLong(position.offset()).array();
    }

    /**
     * The client settings a consumer or an admin client knows, from the producer's: not {@code client.id} (the
     * producer's own) nor {@code interceptor.classes} (a consumer would load the producer's interceptors as its own,
     * and fail to start).
     */
    private Map<String, Object> filtered(Set<String> known) {
        Map<String, Object> config = new HashMap<>();
        clientConfig.forEach((key, value) -> {
            if (known.contains(key) && !key.equals(ProducerConfig.CLIENT_ID_CONFIG)
                    && !key.equals(ProducerConfig.INTERCEPTOR_CLASSES_CONFIG)) {
                config.put(key, value);
            }
        });
        return config;
    }

    /**
     * The failure of {@code what}, saying what to change where Kafka refuses the sink for want of a grant or a
     * setting ({@link RecordSink.RefusedException}: an ERROR, not an outage's WARN).
     */
    private IOException failure(String what, Exception e) {
        counters.failed();
        String message = what + " failed: " + e;
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof ProducerFencedException) {
                return new IOException(message + ": another producer took transactional.id " + transactionalId
                        + " (give each instance its own transactionalIdPrefix; Spring Boot:"
                        + " lockfreelog.kafka.transactional-id-prefix)", e);
            }
            if (cause instanceof TransactionalIdAuthorizationException) {
                return new RecordSink.RefusedException(message + ": the client's principal may not use transactional.id "
                        + transactionalId + "; grant it WRITE and DESCRIBE on that id (this appender's ids all begin"
                        + " with its transactionalIdPrefix, lockfreelog.kafka.transactional-id-prefix), or set"
                        + " transactional=false (lockfreelog.kafka.transactional=false: at least once, no transactions)", e);
            }
            if (cause instanceof TopicAuthorizationException) {
                return new RecordSink.RefusedException(message + ": the client's principal is refused topic " + topic
                        + (transactional ? " or its position topic " + positionTopic : "") + "; grant it DESCRIBE and"
                        + " WRITE there, or set " + SECURITY_SETTINGS, e);
            }
            if (cause instanceof ConfigException) {
                return new RecordSink.RefusedException(message + ": Kafka's client refuses its settings (" + cause.getMessage()
                        + "); change the setting it names (" + PRODUCER_SETTINGS + ")", e);
            }
            if (cause instanceof UnsupportedVersionException && transactional) {
                return new RecordSink.RefusedException(message + ": the broker does not support what the sink needs ("
                        + cause.getMessage() + "); a broker without transactions takes transactional=false"
                        + " (lockfreelog.kafka.transactional=false: at least once, no transactions)", e);
            }
            if (cause instanceof AuthorizationException) {
                return new RecordSink.RefusedException(message + ": Kafka refuses the client's principal (" + cause.getMessage()
                        + "); grant it what the message names, or set " + SECURITY_SETTINGS, e);
            }
        }
        return new IOException(message, e);
    }

    @Override
    public void close(long timeoutNanos) {
        closed = true;
        Producer<byte[], byte[]> current = producer;
        producer = null;
        if (current != null) {
            try {
                current.close(Duration.ofNanos(Math.max(0, timeoutNanos)));
            } catch (KafkaException e) {
                status.warn("closing the Kafka producer of " + (transactional ? "transactional.id " : "client.id ")
                        + transactionalId + " failed", e);
            }
        }
    }
}
