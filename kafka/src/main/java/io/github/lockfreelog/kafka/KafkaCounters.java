package io.github.lockfreelog.kafka;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * What the Kafka sinks of one appender did: transactions committed and aborted, events delivered, events too large;
 * and what a user watches: whether the latest exchange with the cluster succeeded, and how long the events the sink
 * is delivering have waited.
 */
public final class KafkaCounters {

    private final AtomicLong transactionsCommitted = new AtomicLong();
    private final AtomicLong transactionsAborted = new AtomicLong();
    private final AtomicLong eventsDelivered = new AtomicLong();
    private final AtomicLong tooLarge = new AtomicLong();
    private final AtomicLong commitsRetried = new AtomicLong();
    private final Map<String, LongAdder> refused = new ConcurrentHashMap<>();
    /** The reasons reported already: each once per appender. */
    private final Map<String, Boolean> reported = new ConcurrentHashMap<>();
    private volatile boolean connected;
    /** When the sink first tried the batch it has not delivered yet (epoch milliseconds); 0 while it holds none. */
    private volatile long deliveringSince;

    /** An exchange with the cluster succeeded (a position read, a delivery). */
    void reached() {
        connected = true;
    }

    /** An exchange with the cluster failed, or the cluster refused the sink. */
    void failed() {
        connected = false;
    }

    /** The sink tries a batch: the first try of a batch starts its wait (a retry of the same batch does not). */
    void delivering() {
        if (deliveringSince == 0) {
            deliveringSince = System.currentTimeMillis();
        }
    }

    /** The batch the sink was trying is delivered: none waits now. */
    void settled() {
        deliveringSince = 0;
        reached();
    }

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

    /** An event refused by Kafka for what it is, set aside under {@code reason} ({@code too-large} among them). */
    void refused(String reason) {
        refused.computeIfAbsent(reason, r -> new LongAdder()).increment();
        if (reason.equals("too-large")) {
            tooLarge.incrementAndGet();
        }
    }

    /** Whether {@code reason} is reported now for the first time. */
    boolean firstRefusal(String reason) {
        return reported.putIfAbsent(reason, Boolean.TRUE) == null;
    }

    /** A commit that timed out, asked again. */
    void commitRetried() {
        commitsRetried.incrementAndGet();
    }

    /** Events Kafka refused for what they are, set aside (not sent again), by reason: too-large, invalid-record, ... */
    public Map<String, Long> refusedByReason() {
        Map<String, Long> counts = new TreeMap<>();
        refused.forEach((reason, count) -> counts.put(reason, count.sum()));
        return counts;
    }

    /** Commits that timed out ({@code max.block.ms}) and were asked again, within {@code transaction.timeout.ms}. */
    public long commitsRetried() {
        return commitsRetried.get();
    }

    /** Whether the sink's latest exchange with the cluster succeeded; {@code false} before the first. */
    public boolean connected() {
        return connected;
    }

    /**
     * How long the oldest event the sink is delivering has waited, in milliseconds: since the sink first tried the
     * batch it has not delivered yet (through an outage, the same batch: its wait grows); 0 while it holds none. Events
     * still in the journal behind that batch are younger. Before the first delivery is tried (a cluster out of reach at
     * start) it is 0: {@code inFlight} and {@code failingSince} tell then.
     */
    public long oldestUndeliveredMillis() {
        long since = deliveringSince;
        return since == 0 ? 0 : Math.max(0, System.currentTimeMillis() - since);
    }

    /** Transactions committed; none with transactions off. */
    public long transactionsCommitted() {
        return transactionsCommitted.get();
    }

    /** Transactions aborted: a delivery that failed once its transaction had begun, or one aborted for an event too large. */
    public long transactionsAborted() {
        return transactionsAborted.get();
    }

    /** Events committed to the topic (transactions off: acknowledged by the broker). */
    public long eventsDelivered() {
        return eventsDelivered.get();
    }

    /**
     * Events the broker refused as too large, set aside: those appended since start (also the engine's drops, reason
     * {@code too-large}) and those of a journal recovered at start.
     */
    public long tooLarge() {
        return tooLarge.get();
    }
}
