package io.github.lockfreelog.kafka;

import java.util.concurrent.atomic.AtomicLong;

/** What the Kafka sinks of one appender did: transactions committed and aborted, events delivered, events too large. */
public final class KafkaCounters {

    private final AtomicLong transactionsCommitted = new AtomicLong();
    private final AtomicLong transactionsAborted = new AtomicLong();
    private final AtomicLong eventsDelivered = new AtomicLong();
    private final AtomicLong tooLarge = new AtomicLong();

    void committed(int events) {
        transactionsCommitted.incrementAndGet();
        eventsDelivered.addAndGet(events);
    }

    /** A delivery without a transaction (transactions off): its events, acknowledged. */
    void delivered(int events) {
        eventsDelivered.addAndGet(events);
    }

    void aborted() {
        transactionsAborted.incrementAndGet();
    }

    void tooLarge(int events) {
        tooLarge.addAndGet(events);
    }

    /** Transactions committed; none with transactions off. */
    public long transactionsCommitted() {
        return transactionsCommitted.get();
    }

    public long transactionsAborted() {
        return transactionsAborted.get();
    }

    /** Events committed to the topic (transactions off: acknowledged by the broker). */
    public long eventsDelivered() {
        return eventsDelivered.get();
    }

    /**
     * Events the broker refused as too large, left out of transactions that committed: those appended since start
     * (also the engine's drops, reason {@code too-large}) and those of a journal recovered at start.
     */
    public long tooLarge() {
        return tooLarge.get();
    }
}
