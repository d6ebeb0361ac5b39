package io.github.lockfreelog.kafka;

import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The producer of one journal slot, and its life cycle: made on demand (the topics checked first, once), fenced in
 * with the slot's {@code transactional.id} ({@code initTransactions} fences every earlier producer of the id, this
 * process's own after a failure or a dead process's, and settles its open transaction: completed if its commit had
 * been asked for, else aborted), discarded after any failure so that the next one fences it, closed at stop. As
 * Spring Kafka's producer factory, it only makes and closes producers.
 */
final class SlotProducer {

    /** The producer's {@code batch.size} unless given: 256 KB (Kafka's own default is 16 KB). */
    static final int DEFAULT_BATCH_SIZE = 256 * 1024;
    /** Kafka's own {@code batch.size} default, for a topic whose {@code max.message.bytes} could not be read. */
    static final int KAFKA_BATCH_SIZE = 16 * 1024;

    private final SlotSettings slot;
    private final KafkaTopics topics;
    /** The producer; {@code null} until the next {@link #get} makes one. */
    private volatile Producer<byte[], byte[]> producer;
    private volatile boolean closed;
    /** The producer's {@code batch.size}, worked out once by the topics' check; 0 before it. */
    private int batchSize;
    /** The topic's {@code max.message.bytes}; 0 while unknown. */
    private int maxMessageBytes;

    SlotProducer(SlotSettings slot) {
        this.slot = slot;
        this.topics = new KafkaTopics(slot);
    }

    /** The producer, made (and, transactional, fenced in) if there is none. */
    Producer<byte[], byte[]> get() throws IOException {
        if (closed) {
            throw new IOException("the Kafka sink of topic " + slot.topic() + " is closed");
        }
        Producer<byte[], byte[]> current = producer;
        if (current != null) {
            return current;
        }
        if (batchSize == 0) {
            maxMessageBytes = topics.check();
            batchSize = batchSize(maxMessageBytes);
        }
        Map<String, Object> config = new HashMap<>(slot.clientConfig());
        if (slot.transactional()) {
            config.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, slot.slotId());
        }
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.putIfAbsent(ProducerConfig.CLIENT_ID_CONFIG, slot.slotId());
        config.put(ProducerConfig.BATCH_SIZE_CONFIG, batchSize);
        config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        current = new KafkaProducer<>(config);
        try {
            if (slot.transactional()) {
                current.initTransactions(); // fences every earlier producer of this id, settling its open transaction
            }
        } catch (KafkaException e) {
            current.close(Duration.ZERO);
            throw e;
        }
        producer = current;
        if (closed) { // close() ran while initTransactions waited: it could not reach this producer
            discard();
            throw new IOException("the Kafka sink of topic " + slot.topic() + " is closed");
        }
        return current;
    }

    /**
     * Makes {@code given} the producer, the topics taken as checked (with {@code batchSize}): for tests that drive a
     * sink with Kafka's {@code MockProducer}, whose sends complete when the test says.
     */
    void use(Producer<byte[], byte[]> given, int batchSize) {
        this.batchSize = batchSize;
        this.producer = given;
    }

    /** The producer's {@code batch.size}; known once {@link #get} made a producer. */
    int batchSize() {
        return batchSize == 0 ? KAFKA_BATCH_SIZE : batchSize;
    }

    /**
     * The largest record the topic takes, uncompressed ({@code max.message.bytes} less a record batch's own bytes);
     * 0 when unknown or when the producer compresses (a large record may then fit).
     */
    int maxRecordBytes() {
        Object compression = slot.clientConfig().get(ProducerConfig.COMPRESSION_TYPE_CONFIG);
        boolean compressed = compression != null && !compression.toString().trim().equalsIgnoreCase("none");
        return compressed || maxMessageBytes <= 0 ? 0 : Math.max(1, maxMessageBytes - RECORD_BATCH_OVERHEAD);
    }

    /** A record batch's header, which the broker counts against {@code max.message.bytes}. */
    static final int RECORD_BATCH_OVERHEAD = 61;

    boolean closed() {
        return closed;
    }

    /**
     * The producer's {@code batch.size}: the one given, else {@link #DEFAULT_BATCH_SIZE} (the drainer hands the
     * producer a whole batch at once: Kafka's 16 KB cut it into many small requests, each costing the client and the
     * broker more than its records); either at most the topic's {@code max.message.bytes}. A batch of many records
     * that the broker refuses as too large is split by the producer into batches of {@code batch.size}: were that
     * above the topic's limit, it would send the same batch again, for ever. When the limit could not be read
     * ({@code limit} 0), Kafka's own 16 KB. Worked out once: a WARN about a given size is said once.
     */
    private int batchSize(int limit) {
        Object given = slot.clientConfig().get(ProducerConfig.BATCH_SIZE_CONFIG);
        if (given == null) {
            return limit > 0 ? Math.min(DEFAULT_BATCH_SIZE, limit) : KAFKA_BATCH_SIZE;
        }
        int size = Integer.parseInt(given.toString().trim());
        if (limit > 0 && size > limit) {
            slot.status().warn("the producer's batch.size (" + size + ") is above the max.message.bytes of topic "
                    + slot.topic() + " (" + limit + "): the broker would refuse full batches, and Kafka's producer split"
                    + " them into batches of the same size, for ever; batch.size " + limit + " is used", null);
            return limit;
        }
        return Math.max(1, size);
    }

    /** Closes the producer at once, so that the next {@link #get} makes one that fences it. */
    void discard() {
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

    /**
     * Closes for good, waiting at most {@code timeoutNanos} for what the producer sends; an open transaction is left
     * to the next start's fence (aborted, its batch sent again then).
     */
    void close(long timeoutNanos) {
        closed = true;
        Producer<byte[], byte[]> current = producer;
        producer = null;
        if (current != null) {
            try {
                current.close(Duration.ofNanos(Math.max(0, timeoutNanos)));
            } catch (KafkaException e) {
                slot.status().warn("closing the Kafka producer of " + (slot.transactional() ? "transactional.id "
                        : "client.id ") + slot.slotId() + " failed", e);
            }
        }
    }
}
