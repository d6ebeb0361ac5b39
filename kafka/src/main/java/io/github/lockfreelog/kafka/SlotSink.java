package io.github.lockfreelog.kafka;

import io.github.lockfreelog.sink.RecordSink;
import io.github.lockfreelog.sink.RecordBatch;
import java.nio.ByteBuffer;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.header.Header;

/**
 * What the two record sinks of a slot share ({@link KafkaRecordSink}, transactions; {@link IdempotentRecordSink},
 * at least once): the producer, the advice, the back-off, the events set aside, the frames made into records, the
 * linger between deliveries, and the close.
 */
abstract class SlotSink implements RecordSink {

    /** A record's bytes beyond its key, value and headers, as Kafka's record format spends them at most. */
    static final int RECORD_OVERHEAD = 64;

    final SlotSettings slot;
    final SlotProducer producers;
    final KafkaAdvice advice;
    final RetryPause pause = new RetryPause();
    final SetAside setAside;
    private final Runnable onClose;
    /** When the last delivery began ({@link System#nanoTime}), for the linger. */
    long lastBeginNanos;

    SlotSink(SlotSettings slot, Runnable onClose) {
        this.slot = slot;
        this.producers = new SlotProducer(slot);
        this.advice = new KafkaAdvice(slot);
        this.setAside = new SetAside(slot);
        this.onClose = onClose;
    }

    String slotId() {
        return slot.slotId();
    }

    /** The record of one frame; {@code null} (reported) for a frame that is not an envelope. */
    ProducerRecord<byte[], byte[]> record(ByteBuffer frame) {
        RecordEnvelope.Unwrapped unwrapped;
        try {
            unwrapped = RecordEnvelope.unwrap(frame);
        } catch (IllegalArgumentException e) {
            slot.status().warn("left out a journal frame that is not a record (" + e.getMessage() + ")", null);
            return null;
        }
        return new ProducerRecord<>(slot.topic(), null, unwrapped.key(), unwrapped.value(), unwrapped.headers());
    }

    /**
     * Whether {@code record} ({@code size} bytes) is too large for the topic: set aside at once rather than sent.
     * Sent, the broker would refuse it, and Kafka's producer, which splits a refused batch into batches that again
     * hold the large record with the small ones after it, would send those again and again until
     * {@code delivery.timeout.ms}, holding up every event after it.
     */
    boolean tooLargeForTopic(long size, int index, RecordBatch batch, BitSet leftOut) {
        int limit = producers.maxRecordBytes();
        if (limit <= 0 || size <= limit) {
            return false;
        }
        setAside.add(batch, List.of(new SendOutcomes.Refusal(index, "too-large", new RecordTooLargeException("a record"
                + " of about " + size + " bytes is larger than the max.message.bytes of topic " + slot.topic() + " ("
                + (limit + SlotProducer.RECORD_BATCH_OVERHEAD) + ") allows"))), leftOut);
        return true;
    }

    /** What a record costs on the wire, about: key, value, headers and the record's own bytes. */
    static long size(ProducerRecord<byte[], byte[]> record) {
        long size = RECORD_OVERHEAD + record.value().length + (record.key() == null ? 0 : record.key().length);
        for (Header header : record.headers()) {
            size += header.key().length() + (header.value() == null ? 0 : header.value().length);
        }
        return size;
    }

    /**
     * After a delivery of {@code bytes}: unless it was full (the producer's {@code batch.size}), waits until the
     * linger since it began has passed, so that under light load a delivery (a transaction) carries what gathered
     * meanwhile rather than the events of one millisecond. Any unpark ends it (a caller waiting for room, a stop).
     */
    void linger(long bytes) {
        long linger = slot.lingerNanos();
        if (linger <= 0 || bytes >= producers.batchSize() || producers.closed()) {
            return;
        }
        long left = lastBeginNanos + linger - System.nanoTime();
        if (left > 0) {
            LockSupport.parkNanos(this, left);
        }
    }

    @Override
    public void close(long timeoutNanos) {
        producers.close(timeoutNanos);
        onClose.run();
    }
}
