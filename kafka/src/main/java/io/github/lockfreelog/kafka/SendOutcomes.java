package io.github.lockfreelog.kafka;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.InvalidRecordException;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.RecordTooLargeException;

/**
 * What the sends of one attempt came to, by event index: acknowledged, refused by the broker for the record itself
 * (a {@link Refusal}: set aside, never sent again), or failed otherwise (sent again); and how many bytes are in
 * flight, so that a transaction never holds more than a slow link carries in its time. Written by the producer's
 * callbacks (its I/O thread, or the caller's for a record refused before it is sent), read by the sink.
 *
 * <p>Which records were refused, when a transaction fails: a transactional producer that takes a refusal goes into
 * an abortable error and completes the records of the transaction not yet sent with one exception it shares among
 * them (for a refusal of its own making: the refused record's very instance; for the broker's {@code INVALID_RECORD}:
 * the response's top-level error, while the refused records of the batch each get an instance with the broker's
 * words and their batch mates a plain {@code KafkaException}). That shared exception may be held by one record alone
 * (one waiting), and it is of a refusal's class: neither its class nor the lowest event index tells a refused record
 * from an innocent one waiting in another partition. What does is the order of completion: the producer completes the
 * refused batch's records (on its I/O thread, in one go) before it enters the error state, and only then hands the
 * shared exception to the records it had not sent. So, of an attempt, one record at most is set aside: the one whose
 * refusal completed first, and only if that exception is its alone, or was given to it inside {@code send()} (the
 * client's own refusal, its own instance however many waiting records share it after). Any other refused record is
 * found by a later try (each try finds one); a record is never set aside on a shared exception, which would lose an
 * event the broker may have accepted or never seen. The position record has an outcome too (index {@code count}): it
 * is never set aside, and its failure, whatever it is, fails the attempt. Without transactions the producer discards
 * nothing: each refusal is the record's own.
 */
final class SendOutcomes {

    /** Why the broker (or the client, for its own limits) refused a record for what it is, not for an outage. */
    record Refusal(int index, String reason, Exception exception) {
    }

    private final boolean transactional;
    /** By event index; index {@code count} is the position record's. */
    private final Exception[] errors;
    private final boolean[] acked;
    /** When each send completed, in order of completion (1, 2, ...); 0 while not. */
    private final int[] completedAs;
    /** Whether each send completed inside {@code send()} on the caller's thread (the client's own refusal). */
    private final boolean[] clientSide;
    private final Thread caller = Thread.currentThread();
    private int completions;
    private long sentBytes;
    private long doneBytes;
    private int sends;
    private int done;
    private boolean refusalSeen;
    /** When a send last completed, or the first was made ({@link System#nanoTime}). */
    private long progressNanos = System.nanoTime();
    private volatile Exception failed;

    SendOutcomes(boolean transactional, int count) {
        this.transactional = transactional;
        this.errors = new Exception[count + 1];
        this.acked = new boolean[count + 1];
        this.completedAs = new int[count + 1];
        this.clientSide = new boolean[count + 1];
    }

    /** The index the position record's outcome is kept under. */
    int positionIndex() {
        return errors.length - 1;
    }

    /** The reason a refusal is counted under, or {@code null} when {@code e} is no refusal of the record itself. */
    static String reason(Throwable e) {
        if (e instanceof RecordTooLargeException) {
            return "too-large";
        }
        if (e instanceof InvalidRecordException) {
            return "invalid-record"; // a compacted topic and a record without a key; a broker's validation
        }
        // not InvalidTimestampException: the sink sets no timestamp, so the producer's clock set it; a broker refusing
        // it means this host's clock and the broker's differ (or the topic's timestamp limits are tight), which every
        // record meets alike. A failure to try again (KafkaAdvice names the cause), never a set-aside: that would lose
        // every event
        return null;
    }

    /** A record of {@code bytes} was handed to the producer. */
    synchronized void sending(long bytes) {
        sentBytes += bytes;
        sends++;
    }

    /** The send of event {@code index} ({@code bytes}) completed: acknowledged when {@code e} is {@code null}. */
    synchronized void completed(int index, long bytes, Exception e) {
        doneBytes += bytes;
        done++;
        progressNanos = System.nanoTime();
        completedAs[index] = ++completions;
        clientSide[index] = Thread.currentThread() == caller;
        if (e == null) {
            acked[index] = true;
        } else {
            errors[index] = e;
            boolean refusal = reason(e) != null && index != positionIndex();
            refusalSeen |= refusal;
            if (!refusal && failed == null) {
                failed = e;
            }
        }
        notifyAll();
    }

    /**
     * Waits until at most {@code window} bytes are in flight, a send failed, {@code deadlineNanos}
     * ({@link System#nanoTime}) passed, or no send completed for {@code stallNanos} (a broker gone); whether there
     * is room.
     */
    synchronized boolean awaitRoom(long window, long deadlineNanos, long stallNanos) {
        for (long left; sentBytes - doneBytes > window && failed == null
                && (left = Math.min(deadlineNanos, progressNanos + stallNanos) - System.nanoTime()) > 0;) {
            try {
                TimeUnit.NANOSECONDS.timedWait(this, Math.min(left, TimeUnit.MILLISECONDS.toNanos(50)));
            } catch (InterruptedException e) {
                // means nothing to the drainer's thread (it clears interrupts): the wait goes on
            }
        }
        return sentBytes - doneBytes <= window;
    }

    /**
     * Waits until every send completed, or, with {@code untilRefused}, a record was refused, or {@code nanos}
     * passed; whether every send completed.
     */
    synchronized boolean awaitDone(long nanos, boolean untilRefused) {
        long deadline = System.nanoTime() + nanos;
        for (long left; done < sends && !(untilRefused && refusalSeen) && (left = deadline - System.nanoTime()) > 0;) {
            try {
                TimeUnit.NANOSECONDS.timedWait(this, Math.min(left, TimeUnit.MILLISECONDS.toNanos(50)));
            } catch (InterruptedException e) {
                // means nothing to the drainer's thread (it clears interrupts): the wait goes on
            }
        }
        return done >= sends;
    }

    /** Whether no send failed but for refusals. */
    boolean failedNone() {
        return failed == null;
    }

    /** Throws the first failure not a refusal, if there is one. */
    void throwIfFailed() {
        Exception first = failed;
        if (first != null) {
            throw first instanceof KafkaException kafka ? kafka : new KafkaException(first);
        }
    }

    synchronized boolean acked(int index) {
        return acked[index];
    }

    /** Whether the send of {@code index} completed, acknowledged or failed. */
    synchronized boolean completed(int index) {
        return completedAs[index] != 0;
    }

    /**
     * The records refused, of an attempt that failed (for a transaction, read once the producer aborted it, so that
     * every record's outcome is in). Without transactions, every refusal. With transactions, at most one: the record
     * whose refusal completed first, if that exception is its alone or the client's own (see the class comment); none
     * when the first refusal to complete is the position record's, or shared.
     */
    synchronized List<Refusal> refused() {
        List<Refusal> refused = new ArrayList<>();
        if (!transactional) {
            for (int i = 0; i < positionIndex(); i++) {
                String reason = errors[i] == null ? null : reason(errors[i]);
                if (reason != null) {
                    refused.add(new Refusal(i, reason, errors[i]));
                }
            }
            return refused;
        }
        int first = -1;
        for (int i = 0; i < errors.length; i++) {
            if (errors[i] != null && reason(errors[i]) != null
                    && (first < 0 || completedAs[i] < completedAs[first])) {
                first = i;
            }
        }
        if (first < 0 || first == positionIndex()) {
            return refused;
        }
        Map<Exception, Integer> receivers = new IdentityHashMap<>();
        for (Exception e : errors) {
            if (e != null) {
                receivers.merge(e, 1, Integer::sum);
            }
        }
        if (receivers.get(errors[first]) == 1 || clientSide[first]) {
            refused.add(new Refusal(first, reason(errors[first]), errors[first]));
        }
        return refused;
    }
}
