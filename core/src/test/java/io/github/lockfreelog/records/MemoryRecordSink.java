package io.github.lockfreelog.records;

import io.github.lockfreelog.sink.JournalPosition;
import io.github.lockfreelog.sink.RecordBatch;
import io.github.lockfreelog.sink.RecordSink;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.function.IntPredicate;
import java.util.function.Predicate;

/**
 * A record sink in memory, standing for a topic that outlives the engines writing to it: each delivery commits
 * its events and its position at once, unless a test makes it fail before the commit, or lose the answer after
 * it (the commit done, the call failing), or hang after the commit (a process that dies there); or be out of reach
 * altogether for a while (every call failing), as a broker that is down; or refuse some events as too large.
 */
final class MemoryRecordSink implements RecordSink {

    /** Every committed event, in commit order. */
    final List<String> events = new ArrayList<>();
    /** How many deliveries were tried. */
    int deliveries;
    /** Deliveries that fail before their commit. */
    IntPredicate failBeforeCommit = n -> false;
    /** Events the sink refuses as too large: left out of the delivery, and said so ({@code dropTooLarge}). */
    Predicate<String> tooLarge = event -> false;
    /** Deliveries whose answer is lost after their commit. */
    IntPredicate loseAnswer = n -> false;
    /** A delivery that commits, then waits for {@link #release} and fails; 0 for none. */
    int hangAfterCommit;
    final CountDownLatch hanging = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);
    private JournalPosition position;
    /** A position that someone with write access to the position store wrote, answered in place of the real one. */
    volatile java.util.function.LongFunction<JournalPosition> forged;
    /** How often a position was asked for. */
    int asked;
    /** Whether the sink can be reached: while not, every call fails, as with a broker that is down. */
    volatile boolean available = true;
    /** Calls refused while the sink could not be reached. */
    int refused;

    @Override
    public synchronized JournalPosition committed(long journalId) throws IOException {
        refuseWhileUnavailable();
        asked++;
        if (forged != null) {
            return forged.apply(journalId);
        }
        return position != null && position.journalId() == journalId ? position : null;
    }

    @Override
    public void deliver(RecordBatch batch) throws IOException {
        int n;
        synchronized (this) {
            refuseWhileUnavailable();
            n = ++deliveries;
            if (failBeforeCommit.test(n)) {
                throw new IOException("delivery " + n + " failed before its commit");
            }
            for (int i = 0; i < batch.count(); i++) {
                ByteBuffer event = batch.event(i);
                byte[] bytes = new byte[event.remaining()];
                event.get(bytes);
                String text = new String(bytes, StandardCharsets.UTF_8);
                if (tooLarge.test(text)) {
                    batch.dropTooLarge(1);
                } else {
                    events.add(text);
                }
            }
            position = batch.end();
        }
        if (n == hangAfterCommit) {
            hanging.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            throw new IOException("delivery " + n + " died after its commit");
        }
        if (loseAnswer.test(n)) {
            throw new IOException("the answer to delivery " + n + " was lost after its commit");
        }
    }

    private void refuseWhileUnavailable() throws IOException {
        if (!available) {
            refused++;
            throw new IOException("the sink cannot be reached");
        }
    }

    synchronized int refused() {
        return refused;
    }

    @Override
    public void close(long timeoutNanos) {
    }

    synchronized List<String> events() {
        return new ArrayList<>(events);
    }
}
