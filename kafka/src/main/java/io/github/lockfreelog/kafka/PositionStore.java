package io.github.lockfreelog.kafka;

import io.github.lockfreelog.sink.JournalPosition;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The journals' positions in the compacted position topic, as Kafka Connect's offset store keeps source offsets:
 * read to its end once, at the sink's first question, then kept here and moved by each commit of this sink; read
 * again only after a commit whose answer was lost, and then only from where the last read ended.
 *
 * <p>Why one read is enough: a journal's positions are written by the one sink that delivers it (a journal is
 * locked by its process, and a dead process's journal is recovered by one sink, which reads after it fenced the dead
 * one's producer), and that sink knows every transaction it sent: a commit that returned moved the position; one
 * that failed before its commit was asked for is aborted by the next fence, so the position stands. Only a commit
 * that failed without an answer (a timeout past {@code transaction.timeout.ms}, a fence meanwhile, a broker lost)
 * may have landed or not: the next fence settles it, and {@link #settle} reads what was written after the last
 * read, which holds its position record if it landed.
 *
 * <p>Each record's key is the slot's id and the journal's random id, its value the position; so two instances
 * that share a {@code transactional.id} (a configuration error the sink reports) still keep a position each, which
 * compaction cannot merge. A journal is taken up under whichever key wrote it (a restart under a new id, such as a
 * new host name, still finds it). Every read is {@code read_committed} up to the high watermark taken after the
 * fence: no transaction open then can hide a position written before it. A topic the broker does not know (its
 * metadata not yet there, or the topic deleted) is an error, never "no position".
 */
final class PositionStore {

    private static final byte VERSION = 1;
    private static final int VALUE_BYTES = 25;

    private final SlotSettings slot;
    private final long maxBlockMillis;
    /** The highest position read or committed, by journal id; {@code null} until the first read. */
    private Map<Long, JournalPosition> positions;
    /** Where the last read ended, by partition. */
    private final Map<TopicPartition, Long> readTo = new HashMap<>();
    /** Reads of the topic so far (the first, and one for each {@link #settle}): for tests and the docs' sizing. */
    private int reads;

    PositionStore(SlotSettings slot) {
        this.slot = slot;
        this.maxBlockMillis = slot.maxBlockMillis();
    }

    /** The key of journal {@code journalId}'s position: the slot's id, a slash, the journal id in hex. */
    byte[] key(long journalId) {
        return (slot.slotId() + "/" + Long.toHexString(journalId)).getBytes(StandardCharsets.UTF_8);
    }

    /** The last position committed for journal {@code journalId}; the topic is read (once) first. */
    JournalPosition committed(long journalId) throws IOException {
        if (positions == null) {
            Map<Long, JournalPosition> read = new HashMap<>();
            readFrom(Map.of(), read);
            positions = read;
        }
        return positions.get(journalId);
    }

    /** Whether the topic was read already. */
    boolean loaded() {
        return positions != null;
    }

    /** A commit of this sink returned: its position holds. */
    void committedNow(JournalPosition position) {
        if (positions != null) {
            positions.merge(position.journalId(), position, PositionStore::later);
        }
    }

    /**
     * Reads what was written after the last read, to the high watermark: after a commit without an answer, once the
     * fence settled it. Cheap: a few records of this and the other instances since the last read. {@code sent}, where
     * known, is where that commit's position record was written (its send's acknowledgement): the read of its
     * partition starts there, not at the last read, which only moves on reads and may lie far behind.
     */
    void settle(TopicPartition partition, long sent) throws IOException {
        if (positions == null) {
            return; // the first read is still to come, and reads everything
        }
        Map<TopicPartition, Long> from = new HashMap<>(readTo);
        if (partition != null && sent >= 0) {
            from.put(partition, sent);
        }
        readFrom(from, positions);
    }

    int reads() {
        return reads;
    }

    private static JournalPosition later(JournalPosition a, JournalPosition b) {
        return a.covers(b.termCount(), b.offset()) ? a : b;
    }

    /**
     * Reads the topic with {@code read_committed} from {@code from} (each partition's start where absent) up to its
     * high watermark, taken now, into {@code into}. It has no overall deadline, so that a long topic is read to its
     * end; it fails once it has not moved for {@code max.block.ms}.
     */
    private void readFrom(Map<TopicPartition, Long> from, Map<Long, JournalPosition> into) throws IOException {
        String topic = slot.positionTopic();
        Map<String, Object> config = slot.filtered(ConsumerConfig.configNames());
        config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
        // every blocking call bounded by max.block.ms (position() after a seek, say, would wait default.api.timeout.ms,
        // 60 s, for a broker that went away meanwhile, and hold the drainer past a stop's stopTimeout)
        config.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) Math.min(Integer.MAX_VALUE, maxBlockMillis));
        config.remove(ConsumerConfig.GROUP_ID_CONFIG);
        // a seek to an offset the topic no longer holds (a delete policy, or records deleted, moved its start past
        // it) goes to the start: the consumer's default, latest, would jump over every position after it
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        Map<String, Object> uncommitted = new HashMap<>(config);
        uncommitted.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_uncommitted");
        List<TopicPartition> partitions = new ArrayList<>();
        Map<TopicPartition, Long> highWatermarks;
        KafkaConsumer<byte[], byte[]> peek = new KafkaConsumer<>(uncommitted);
        try {
            List<PartitionInfo> infos = peek.partitionsFor(topic, Duration.ofMillis(maxBlockMillis));
            if (infos == null || infos.isEmpty()) {
                // stale metadata (a broker that has not learnt of the topic yet) or a topic deleted: not "no position"
                throw new IOException("the position topic " + topic + " is unknown to the broker that answered: it"
                        + " is read again at the next try (a position not read would send a committed batch again)");
            }
            for (PartitionInfo info : infos) {
                partitions.add(new TopicPartition(info.topic(), info.partition()));
            }
            highWatermarks = peek.endOffsets(partitions, Duration.ofMillis(maxBlockMillis));
        } catch (KafkaException e) {
            throw new IOException("reading the partitions of the position topic " + topic + " failed: " + e, e);
        } finally {
            closeNow(peek);
        }
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config);
        try {
            consumer.assign(partitions);
            for (TopicPartition partition : partitions) {
                Long at = from.get(partition);
                if (at == null) {
                    consumer.seekToBeginning(List.of(partition));
                } else {
                    consumer.seek(partition, at);
                }
            }
            // another instance's transaction on the position topic may stay open up to its transaction.timeout.ms
            // (a slow link's commit), which holds a read_committed read back meanwhile: allow that before giving up
            long stillNanos = Math.max(TimeUnit.MILLISECONDS.toNanos(Math.max(maxBlockMillis, 1000)),
                    slot.transactionTimeoutNanos());
            long movedAt = System.nanoTime();
            for (long at = -1, now; (now = readTo(consumer, partitions, highWatermarks)) >= 0; at = now) {
                if (now != at) {
                    movedAt = System.nanoTime(); // aborted transactions' records move the position, and poll none
                } else if (System.nanoTime() - movedAt > stillNanos) {
                    throw new IOException("the position topic " + topic + " could not be read to offset "
                            + highWatermarks + ": it did not move for " + TimeUnit.NANOSECONDS.toMillis(stillNanos)
                            + " ms (the longer of max.block.ms and transaction.timeout.ms), a"
                            + " transaction of another producer stays open (Kafka aborts one left by a process that"
                            + " died after transaction.timeout.ms)");
                }
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(100))) {
                    JournalPosition read = positionOf(record.value());
                    if (read != null) {
                        into.merge(read.journalId(), read, PositionStore::later);
                    }
                }
            }
            readTo.putAll(highWatermarks);
            reads++;
        } catch (KafkaException e) {
            throw new IOException("reading the position topic " + topic + " failed: " + e, e);
        } finally {
            closeNow(consumer);
        }
    }

    /** The position a position record's value holds; {@code null} for a value of another format (or a tombstone). */
    static JournalPosition positionOf(byte[] value) {
        if (value == null || value.length < VALUE_BYTES || value[0] != VERSION) {
            return null;
        }
        ByteBuffer buffer = ByteBuffer.wrap(value);
        buffer.get();
        return new JournalPosition(buffer.getLong(), buffer.getLong(), buffer.getLong());
    }

    /** The position record's value: version, journal id, term, offset. */
    static byte[] value(JournalPosition position) {
        return ByteBuffer.allocate(VALUE_BYTES).put(VERSION).putLong(position.journalId())
                .putLong(position.termCount()).putLong(position.offset()).array();
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
}
