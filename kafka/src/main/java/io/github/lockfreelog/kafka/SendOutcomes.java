package io.github.lockfreelog.kafka;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.InvalidRecordException;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.InvalidTimestampException;
import org.apache.kafka.common.errors.RecordTooLargeException;

/**
 * What the sends of one attempt came to, by event index: acknowledged, refused by the broker for the record itself
 * (a {@link Refusal}: set aside, never sent again), or failed otherwise (sent again); and how many bytes are in
 * flight, so that a transaction never holds more than a slow link carries in its time. Written by the producer's
 * callbacks (its I/O thread, or the caller's for a record refused before it is sent), read by the sink.
 *
 * <p>Which records were refused, when a transaction fails: a transactional producer that takes a refusal goes into
 * an abortable error and completes the records of the transaction not yet sent with an exception of its own
 * (for a refusal of its own making, such as {@code max.request.size}: the refused record's very instance; for the
 * broker's {@code INVALID_RECORD}: the response's top-level error, while the refused records of the batch each get
 * an instance with the broker's words and their batch mates a plain {@code KafkaException}). So: the first record
 * in send order that got a refusal was refused (the records failed after it come later in the partition); another
 * was refused too only when its refusal is its alone (no other record received that instance) and is not the
 * transaction's own error. A refusal taken for a plain failure costs one more try, which finds it; a plain failure
 * is never taken for a refusal that way, except in the one case the comment of {@link #refused} names. Without
 * transactions the producer discards nothing: each refusal is the record's own.
 */
final class SendOutcomes {

    /** Why the broker (or the client, for its own limits) refused a record for what it is, not for an outage. */
    record Refusal(int index, String reason, Exception exception) {
    }

    private final boolean transactional;
    private final Exception[] errors;
    private final boolean[] acked;
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
        this.errors = new Exception[count];
        this.acked = new boolean[count];
    }

    /** The reason a refusal is counted under, or {@code null} when {@code e} is no refusal of the record itself. */
    static String reason(Throwable e) {
        if (e instanceof RecordTooLargeException) {
            return "too-large";
        }
        if (e instanceof InvalidRecordException) {
            return "invalid-record"; // a compacted topic and a record without a key; a broker's validation
        }
        if (e instanceof InvalidTimestampException) {
            return "invalid-timestamp";
        }
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
        if (e == null) {
            acked[index] = true;
        } else {
            errors[index] = e;
            refusalSeen |= reason(e) != null;
            if (reason(e) == null && failed == null) {
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

    /**
     * The records refused, of an attempt that failed with {@code failure} (for a transaction, read once the producer
     * aborted it, so that every record's outcome is in). One case is read wrongly: the broker refused records of a
     * transaction with {@code INVALID_RECORD}, and exactly one record was waiting, unsent, in a later batch; that
     * record gets the response's top-level error and is taken for refused too.
     */
    synchronized List<Refusal> refused(Throwable failure) {
        Map<Exception, Integer> receivers = new IdentityHashMap<>();
        for (Exception e : errors) {
            if (e != null) {
                receivers.merge(e, 1, Integer::sum);
            }
        }
        Set<Throwable> own = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Throwable cause = failure; cause != null && own.add(cause); cause = cause.getCause()) {
            // the transaction's own error and its causes: given to records that were not sent
        }
        Exception firstFailure = failed;
        for (Throwable cause = firstFailure; cause != null && own.add(cause); cause = cause.getCause()) {
        }
        List<Refusal> refused = new ArrayList<>();
        for (int i = 0; i < errors.length; i++) {
            Exception e = errors[i];
            String reason = e == null ? null : reason(e);
            if (reason == null) {
                continue;
            }
            if (!transactional || refused.isEmpty() && !earlierReceiver(e, i)
                    || receivers.get(e) == 1 && !own.contains(e)) {
                refused.add(new Refusal(i, reason, e));
            }
        }
        return refused;
    }

    /** Whether a record before {@code index} received {@code e} too (it is then not {@code index}'s own). */
    private boolean earlierReceiver(Exception e, int index) {
        for (int i = 0; i < index; i++) {
            if (errors[i] == e) {
                return true;
            }
        }
        return false;
    }
}
