package io.github.lockfreelog.kafka;

import io.github.lockfreelog.diagnostics.CrashPoint;
import io.github.lockfreelog.sink.JournalPosition;
import io.github.lockfreelog.sink.RecordBatch;
import java.io.IOException;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;

/**
 * The exactly-once record sink of one journal slot: the delivery protocol. Each transaction of the slot's producer
 * ({@link SlotProducer}, fenced in with the slot's {@code transactional.id}) holds events of the journal and, in
 * the position topic ({@link PositionStore}), the journal position they reach, as Kafka Connect's exactly-once
 * source tasks commit records with their offsets (KIP-618). The journal learns of a batch only once its last
 * transaction committed.
 *
 * <p><b>Why a {@code read_committed} consumer sees each event once, whatever fails.</b> A transaction's events are
 * visible if and only if its position is. The journal's drain record never claims more than the topic holds (it is
 * written after the commit), and delivery always resumes at the later of the drain record and the position:
 * <ul>
 *   <li><i>A send fails, or the producer is fenced, before the commit was asked for:</i> the transaction is
 *       aborted (here, or by the next fence); its position with it; the position store still holds the one before,
 *       which this sink knows, and the events go again.</li>
 *   <li><i>A commit times out</i> ({@code max.block.ms}): asked again, as Kafka's producer allows, until the
 *       transaction is {@code transaction.timeout.ms} old; the broker aborts it after that, so nothing of it can
 *       land later than the sink's next fence.</li>
 *   <li><i>A commit fails without an answer</i> (no answer in time, a fence meanwhile, a broker lost): the producer
 *       is discarded; the next {@link #committed} fences it with a new one, which settles the transaction
 *       (completed if the commit had reached the coordinator, else aborted), and then reads the position topic from
 *       where it last read, up to the high watermark taken after the fence, with {@code read_committed}: its
 *       position record is there if and only if it committed. Counted committed or aborted then, never before.</li>
 *   <li><i>The process dies</i> anywhere: the next start's producer fences the dead one's (settling its open
 *       transaction), and its first read of the position topic finds the last position committed, including one
 *       the journal never learnt of; recovery starts there.</li>
 *   <li><i>A record is refused</i> for what it is: the transaction is aborted, the record set aside
 *       ({@link SetAside}; only a record whose refusal is surely its own, see {@link SendOutcomes}), and the same
 *       events go again without it.</li>
 *   <li><i>A link too slow</i> for the batch within {@code transaction.timeout.ms}: a transaction stops taking
 *       events once a quarter of that time has passed, and keeps no more in flight than the link carried in an
 *       eighth of it; it commits the position of the first event it did not take, and the next transaction goes
 *       on from there. A delivery tried again after a failure skips the events whose position this sink
 *       committed in this session (never on a position it only read: the engine checks those against its journal
 *       first, and a position someone else wrote must cost at most a batch sent twice, never an event).</li>
 *   <li><i>The position record</i> goes once the events' sends completed, so that the position partition, which
 *       every instance reads {@code read_committed}, is in the transaction only for the commit.</li>
 * </ul>
 */
final class KafkaRecordSink extends SlotSink {

    /** Crash point: half the records of a transaction sent, the transaction open. */
    static final String MID_RECORD_SEND = "mid-record-send";
    /** Crash point: every record and the position sent, before the commit. */
    static final String BEFORE_RECORD_COMMIT = "before-record-commit";
    /** The most bytes a transaction keeps in flight, however fast the link. */
    static final long MAX_WINDOW = 64L << 20;

    private final PositionStore store;
    /**
     * A transaction whose commit failed without an answer: committed or not, the next {@link #committed} says; its
     * counts wait here until then. {@code null} when there is none.
     */
    private Unanswered unanswered;
    /** Bytes a transaction keeps in flight at most: from the producer's batch.size up, learnt from the link. */
    private long window;
    /**
     * The positions this sink itself committed in this session, by journal id: a commit that returned, or one without
     * an answer that {@link #committed} found landed. The only positions {@link #deliver} skips events on. A position
     * read from the topic is never one: whoever can write {@code .positions} could otherwise make the sink record
     * batches as delivered that it never sent; the engine checks a read position against its journal before it
     * trusts it ({@code RecordLog.held}), and skips what it covers before it calls {@link #deliver} at all.
     */
    private final Map<Long, JournalPosition> ownCommits = new HashMap<>();

    /**
     * A transaction whose commit had no answer: the position it carried, its events, and where its position record
     * was written ({@code partition} {@code null} while its send had no acknowledgement: then the commit cannot have
     * landed, since Kafka's producer asks for a commit only once every send of the transaction completed; it is read
     * for all the same, from where the last read ended).
     */
    private record Unanswered(JournalPosition end, int events, TopicPartition partition, long offset) {
    }

    KafkaRecordSink(SlotSettings slot, Runnable onClose) {
        super(slot, onClose);
        this.store = new PositionStore(slot);
    }

    /** How many times the position topic was read (at start, and after a commit without an answer). */
    int positionReads() {
        return store.reads();
    }

    /**
     * The position committed for journal {@code journalId}, after fencing any earlier producer of the slot: read
     * once from the position topic, then kept; a commit without an answer is settled first.
     */
    @Override
    public JournalPosition committed(long journalId) throws IOException {
        pause.await();
        try {
            producers.get(); // the fence: every transaction of an earlier producer of the slot is settled now
            Unanswered last = unanswered;
            if (last != null) {
                store.settle(last.partition(), last.offset());
                unanswered = null;
                JournalPosition now = store.committed(last.end().journalId());
                if (now != null && now.covers(last.end().termCount(), last.end().offset())) {
                    slot.counters().committed(last.events()); // landed after all: not an abort
                    ownCommit(last.end()); // this sink's own position: a delivery made again skips what it holds
                } else {
                    slot.counters().aborted();
                }
            }
            JournalPosition position = store.committed(journalId);
            slot.counters().reached();
            pause.succeeded();
            return position;
        } catch (KafkaException | IllegalStateException e) {
            throw clientFailed("reading the position of transactional.id " + slot.slotId() + " from "
                    + slot.positionTopic(), e);
        } catch (IOException e) {
            throw failed(e);
        }
    }

    /**
     * Delivers the batch in one transaction, or several on a link too slow for it, each with the position it
     * reaches; events refused for what they are are set aside and the rest sent again without them.
     */
    @Override
    public void deliver(RecordBatch batch) throws IOException {
        slot.counters().delivering();
        pause.await();
        try {
            producers.get();
            BitSet leftOut = new BitSet();
            setAside.apply(batch, leftOut);
            long bytes = 0;
            // only what this sink committed itself (a part of this batch, before a failure) is skipped
            for (int next = firstNotHeld(batch, ownCommits.get(batch.journalId())); next < batch.count();) {
                long[] sent = new long[1];
                next = transaction(batch, next, leftOut, sent);
                bytes += sent[0];
            }
            slot.counters().settled();
            pause.succeeded();
            linger(bytes);
        } catch (KafkaException | IllegalStateException e) {
            throw clientFailed("delivering " + batch.count() + " events to topic " + slot.topic(), e);
        } catch (IOException e) {
            throw failed(e);
        }
    }

    /**
     * The first event of {@code batch} that {@code held} (a position this sink committed in this session) does not
     * cover. A position of another term skips nothing: the engine never gives a batch of an earlier term after one of a
     * later term committed, and a batch of an earlier term is sent whole rather than taken for delivered on a
     * position's word (at worst a duplicate, never a loss).
     */
    static int firstNotHeld(RecordBatch batch, JournalPosition held) {
        if (held == null || held.termCount() != batch.termCount()) {
            return 0;
        }
        int i = 0;
        while (i < batch.count() && batch.offset(i) < held.offset()) {
            i++;
        }
        return i;
    }

    /**
     * One transaction of the events of {@code batch} from {@code first}: sends them (or as many as fit the link's
     * time: it stops taking events a quarter of {@code transaction.timeout.ms} after it began), their position, and
     * commits; returns the index of the first event it did not hold. An attempt
     * whose records the broker refused is aborted and {@code first} returned, those records set aside.
     */
    private int transaction(RecordBatch batch, int first, BitSet leftOut, long[] bytes) throws IOException {
        Producer<byte[], byte[]> producer = producers.get();
        SendOutcomes sent = new SendOutcomes(true, batch.count());
        long begun = System.nanoTime();
        lastBeginNanos = begun;
        long timeout = slot.transactionTimeoutNanos();
        long stopTaking = begun + timeout / 4;
        long stall = TimeUnit.MILLISECONDS.toNanos(slot.maxBlockMillis());
        long room = window == 0 ? producers.batchSize() : window;
        boolean committing = false;
        JournalPosition end = null;
        // where the position record was written, from its send's callback (the producer's I/O thread)
        TopicPartition[] positionSent = new TopicPartition[1];
        long[] positionOffset = {-1};
        int events = 0;
        int next = first;
        producer.beginTransaction();
        try {
            int half = first + (batch.count() - first) / 2;
            for (; next < batch.count(); next++) {
                if (next == half) {
                    CrashPoint.reached(MID_RECORD_SEND);
                }
                if (leftOut.get(next)) {
                    continue;
                }
                if (events > 0 && (!sent.awaitRoom(room, stopTaking, stall) || System.nanoTime() - stopTaking > 0)) {
                    break; // the link is slower than this batch: the rest goes in the next transaction
                }
                long size = send(producer, sent, batch, next, leftOut);
                if (size >= 0) {
                    events++;
                    bytes[0] += size;
                }
            }
            // the events' sends completed before the position record goes: the position topic's one partition, which
            // every instance of every application reads read_committed, is then in this transaction only for the
            // commit, not for the whole flush of the events (on a slow link, up to transaction.timeout.ms, while
            // every other instance's read of it waits). Bounded like the commit: a link too slow is the commit's
            // retry's to handle; a refusal or failure met here fails the attempt as before
            long until = begun + timeout / 2;
            if (!sent.awaitRoom(0, until, stall) && sent.failedNone()) {
                // no send completed for max.block.ms (a broker gone): not connected, as a user watching the endpoint
                // should see, while it waits on as a commit that times out would
                slot.counters().failed();
                sent.awaitDone(Math.max(0, until - System.nanoTime()), true);
            }
            sent.throwIfFailed();
            end = next >= batch.count() ? batch.end()
                    : new JournalPosition(batch.journalId(), batch.termCount(), batch.offset(next));
            ProducerRecord<byte[], byte[]> position = new ProducerRecord<>(slot.positionTopic(),
                    store.key(end.journalId()), PositionStore.value(end));
            long positionSize = size(position);
            sent.sending(positionSize);
            // with a callback of its own: its failure is the attempt's, never taken for an event's refusal
            producer.send(position, (metadata, e) -> {
                if (e == null && metadata != null && metadata.hasOffset()) {
                    positionSent[0] = new TopicPartition(metadata.topic(), metadata.partition());
                    positionOffset[0] = metadata.offset();
                }
                sent.completed(sent.positionIndex(), positionSize, e);
            });
            CrashPoint.reached(BEFORE_RECORD_COMMIT);
            committing = true;
            commit(producer, begun, timeout);
            store.committedNow(end);
            ownCommit(end);
            slot.counters().committed(events);
            learn(bytes[0], System.nanoTime() - begun, timeout);
            return next;
        } catch (KafkaException | IllegalStateException e) {
            failed(producer, sent, batch, first, leftOut, committing, end, events, begun, e, positionSent,
                    positionOffset);
            return first; // the refused records set aside: the same events again, without them
        }
    }

    /**
     * A transaction that failed: aborted if it can be (after which every record's outcome is in); if records were
     * refused, they are set aside and it returns (the caller tries the same events again); else the
     * producer is discarded and the failure thrown. A commit that failed cannot be aborted (Kafka's producer refuses
     * to, with a commit under way or a fence): whether it landed is for the next {@link #committed} to say.
     */
    private void failed(Producer<byte[], byte[]> producer, SendOutcomes sent, RecordBatch batch, int first,
            BitSet leftOut, boolean committing, JournalPosition end, int events, long begun, RuntimeException e,
            TopicPartition[] positionSent, long[] positionOffset) throws IOException {
        long open = System.nanoTime() - begun;
        boolean aborted;
        try {
            producer.abortTransaction();
            aborted = true;
            slot.counters().aborted();
        } catch (KafkaException | IllegalStateException notAborted) {
            aborted = false;
        }
        if (aborted) {
            List<SendOutcomes.Refusal> refused = sent.refused();
            if (!refused.isEmpty()) {
                setAside.add(batch, refused, leftOut);
                return;
            }
        } else if (committing) {
            synchronized (sent) { // the callback's writes happen before its completed(), which holds this monitor
                unanswered = new Unanswered(end, events, positionSent[0], positionOffset[0]);
            }
        } else {
            slot.counters().aborted(); // the next fence aborts it
        }
        if (open >= slot.transactionTimeoutNanos() / 2) {
            window = Math.max(producers.batchSize(), window / 4); // the link took longer than planned: smaller ones
        }
        producers.discard();
        throw advice.failure("delivering events " + first + " and on of a batch of " + batch.count() + " to topic "
                + slot.topic(), e, open);
    }

    /** Notes {@code end} as a position this sink committed itself. */
    private void ownCommit(JournalPosition end) {
        ownCommits.merge(end.journalId(), end, (a, b) -> a.covers(b.termCount(), b.offset()) ? a : b);
    }

    /**
     * Commits; a commit that times out ({@code max.block.ms}) is asked again, as Kafka's producer allows, while the
     * transaction is younger than {@code transaction.timeout.ms}: the commit flushes the transaction's records, which
     * on a slow link takes longer than one call may wait.
     */
    private void commit(Producer<byte[], byte[]> producer, long begun, long timeout) {
        for (;;) {
            try {
                producer.commitTransaction();
                return;
            } catch (TimeoutException e) {
                if (producers.closed() || System.nanoTime() - begun >= timeout) {
                    throw e;
                }
                slot.counters().failed(); // not connected, as a user watching the endpoint should see, while it waits
                slot.counters().commitRetried();
            }
        }
    }

    /**
     * What the link carried: a transaction of {@code bytes} that took {@code nanos}. One that took a good part of
     * its time sets the window to what the link carried in an eighth of {@code transaction.timeout.ms} (a broker's
     * quota lets a burst through, then holds the client back for seconds: the window leaves room for that); a fast
     * one doubles it.
     */
    private void learn(long bytes, long nanos, long timeout) {
        long current = window == 0 ? producers.batchSize() : window;
        if (nanos > timeout / 8 && nanos > 0) {
            window = Math.max(producers.batchSize(), Math.min(MAX_WINDOW, (long) (bytes * ((timeout / 8.0) / nanos))));
        } else if (bytes >= current / 2) {
            window = Math.min(MAX_WINDOW, current * 2);
        }
    }
}
