package io.github.lockfreelog.kafka;

import io.github.lockfreelog.drain.Drainer;
import io.github.lockfreelog.sink.RecordSink;
import io.github.lockfreelog.sink.RecordBatch;
import java.nio.ByteBuffer;
import java.util.BitSet;
import java.io.IOException;
import java.util.List;
import org.apache.kafka.clients.producer.Producer;
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
     * Sends event {@code index} of {@code batch} through {@code producer}, its outcome to {@code sent}; returns what
     * it costs on the wire, or -1 when it is left out (a frame that is not a record, or one too large for the topic,
     * set aside). Throws the first failure or refusal {@code sent} has had, so that a batch stops sending at it.
     */
    long send(Producer<byte[], byte[]> producer, SendOutcomes sent, RecordBatch batch, int index, BitSet leftOut) {
        ProducerRecord<byte[], byte[]> record = record(batch.event(index));
        if (record == null) {
            leftOut.set(index);
            return -1;
        }
        long size = size(record);
        if (tooLargeForTopic(size, index, batch, leftOut)) {
            return -1;
        }
        sent.sending(size);
        producer.send(record, (metadata, e) -> sent.completed(index, size, e));
        sent.throwIfFailed();
        return size;
    }

    /**
     * A call of the Kafka client that failed while {@code what}: its producer discarded (a new one fences it), the
     * next attempt paused, and the failure as the drainer reports it.
     */
    IOException clientFailed(String what, RuntimeException e) {
        producers.discard();
        pause.failed();
        return advice.failure(what, e, -1);
    }

    /** A failure the sink's own parts already described (a refused setting, a broker out of reach): counted, paused. */
    IOException failed(IOException e) {
        slot.counters().failed();
        pause.failed();
        return e;
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
     * After a delivery of {@code bytes}: unless it was full, waits until the linger since it began has passed, so that
     * under light load a delivery (a transaction) carries what gathered meanwhile rather than the events of one
     * millisecond. Full: half of the smaller of the producer's {@code batch.size} and what one delivery can gather
     * (a journal buffer, at most 16 MB), since a delivery ends at a term's end or when the drainer's staging is full,
     * short of the exact figure by up to an event and the frames' headers; with buffers smaller than batch.size, a
     * linger after every delivery would cap the sink at a buffer per linger. The wait is the drainer's announced idle
     * park ({@link Drainer#idle}): a caller that swaps buffers or finds the journal full ends it, and it does not
     * begin when a buffer was swapped meanwhile. Any unpark ends it (a stop, a caller waiting for room).
     */
    void linger(long bytes) {
        long linger = slot.lingerNanos();
        long full = Math.min(producers.batchSize(), slot.deliveryBytes()) / 2;
        if (linger <= 0 || bytes >= full || producers.closed()) {
            return;
        }
        long left = lastBeginNanos + linger - System.nanoTime();
        if (left > 0) {
            Drainer.idle(left);
        }
    }

    @Override
    public void close(long timeoutNanos) {
        producers.close(timeoutNanos);
        onClose.run();
    }
}
