package io.github.lockfreelog.kafka;

import io.github.lockfreelog.diagnostics.CrashPoint;
import io.github.lockfreelog.sink.JournalPosition;
import io.github.lockfreelog.sink.RecordBatch;
import java.io.IOException;
import java.util.BitSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;

/**
 * The at-least-once record sink of one journal slot (transactions off): an idempotent producer, no position topic.
 * {@link #committed} answers {@code null} (the journal's drain record alone says how far the sink is), once the
 * topic is known to exist; {@link #deliver} returns once the broker acknowledged every record of the batch that it
 * did not refuse for what it is (those are set aside): it succeeds only when every event it sent has an outcome,
 * acknowledged or set aside; an event whose send never completed (the producer discarded after
 * {@code delivery.timeout.ms}, say) fails the delivery, so that it goes again. A delivery tried again after a failure
 * sends only what the failed attempt got no acknowledgement for; that is not "nothing twice": a record the broker
 * wrote whose acknowledgement was lost (a timeout, a producer closed with sends in flight) is sent again, and a
 * process that dies mid-batch repeats what that batch had written (docs/kafka.md, "Transactions off"). At least once.
 */
final class IdempotentRecordSink extends SlotSink {

    /** Crash point: every record sent, before the acknowledgements are awaited. */
    static final String BEFORE_RECORD_COMMIT = KafkaRecordSink.BEFORE_RECORD_COMMIT;

    /** Attempts within one delivery while the broker refuses records (each attempt sets some aside). */
    private static final int MAX_ATTEMPTS = 8;

    /** The journal and term of the batch whose acknowledged events {@link #acked} holds. */
    private long ackedJournal;
    private long ackedTerm = -1;
    /** Offsets (in the term) of the events acknowledged by a failed attempt at the batch being delivered. */
    private final Set<Integer> acked = new HashSet<>();

    /** The producer's {@code delivery.timeout.ms} and a little: by then it completed every send. */
    private final long deliveryTimeoutNanos;

    IdempotentRecordSink(SlotSettings slot, Runnable onClose) {
        super(slot, onClose);
        Object given = slot.clientConfig().get(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG);
        long millis = given == null ? 120_000 : Long.parseLong(given.toString().trim());
        this.deliveryTimeoutNanos = TimeUnit.MILLISECONDS.toNanos(millis + 5_000);
    }

    @Override
    public JournalPosition committed(long journalId) throws IOException {
        pause.await();
        try {
            producers.get();
            slot.counters().reached();
            pause.succeeded();
            return null;
        } catch (KafkaException | IllegalStateException e) {
            throw clientFailed("reaching topic " + slot.topic(), e);
        } catch (IOException e) {
            throw failed(e);
        }
    }

    /**
     * Sends the events not acknowledged yet, and waits for every acknowledgement; an attempt in which the broker
     * refused records for what they are is made again at once for the others of their producer batch (the broker
     * refuses such a batch whole, and names the records at fault), the refused ones set aside.
     */
    @Override
    public void deliver(RecordBatch batch) throws IOException {
        slot.counters().delivering();
        pause.await();
        if (batch.journalId() != ackedJournal || batch.termCount() != ackedTerm) {
            acked.clear();
            ackedJournal = batch.journalId();
            ackedTerm = batch.termCount();
        }
        BitSet leftOut = new BitSet();
        setAside.apply(batch, leftOut);
        lastBeginNanos = System.nanoTime();
        long bytes = 0;
        for (int attempt = 1;; attempt++) {
            SendOutcomes sent = new SendOutcomes(false, batch.count());
            BitSet sentNow = new BitSet();
            try {
                Producer<byte[], byte[]> producer = producers.get();
                for (int i = 0; i < batch.count(); i++) {
                    if (leftOut.get(i) || acked.contains(batch.offset(i))) {
                        continue;
                    }
                    sentNow.set(i);
                    long size = send(producer, sent, batch, i, leftOut);
                    if (size >= 0) {
                        bytes += size;
                    } else {
                        sentNow.clear(i);
                    }
                }
                CrashPoint.reached(BEFORE_RECORD_COMMIT);
                // every send completed (acknowledged, or failed for good at delivery.timeout.ms), or one refused: an
                // idempotent producer whose record the broker refused fails the batches after it out of sequence,
                // again and again until delivery.timeout.ms; it is closed then, and the rest goes from a new one
                boolean done = sent.awaitDone(deliveryTimeoutNanos, true);
                if (!done) {
                    producers.discard();
                    sent.awaitDone(TimeUnit.SECONDS.toNanos(1), false); // the sends not completed fail now
                }
                List<SendOutcomes.Refusal> refused = sent.refused();
                setAside.add(batch, refused, leftOut);
                keepAcked(batch, sent);
                if (!refused.isEmpty() && attempt < MAX_ATTEMPTS) {
                    continue; // the refused records' batch mates: sent again, now
                }
                sent.throwIfFailed();
                // at least once: an event sent and neither acknowledged nor set aside has no known outcome (its
                // callback never came, as after a producer discarded at delivery.timeout.ms); it must go again
                int unknown = 0;
                for (int i = 0; i < batch.count(); i++) {
                    if (sentNow.get(i) && !sent.acked(i) && !leftOut.get(i)) {
                        unknown++;
                    }
                }
                if (unknown > 0) {
                    throw new KafkaException(unknown + " events sent got no answer from the broker within"
                            + " delivery.timeout.ms; they go again");
                }
                acked.clear();
                slot.counters().settled();
                pause.succeeded();
                linger(bytes);
                return;
            } catch (KafkaException | IllegalStateException e) {
                // the discard fails the sends not completed, so what is acknowledged is known before it is kept
                IOException failure = clientFailed("delivering " + batch.count() + " events to topic " + slot.topic(), e);
                setAside.add(batch, sent.refused(), leftOut);
                keepAcked(batch, sent);
                throw failure;
            } catch (IOException e) {
                throw failed(e);
            }
        }
    }

    /** Counts the events {@code sent} got acknowledged, and keeps them, so that a try again does not send them. */
    private void keepAcked(RecordBatch batch, SendOutcomes sent) {
        for (int i = 0; i < batch.count(); i++) {
            if (sent.acked(i) && acked.add(batch.offset(i))) {
                slot.counters().delivered(1);
            }
        }
    }
}
