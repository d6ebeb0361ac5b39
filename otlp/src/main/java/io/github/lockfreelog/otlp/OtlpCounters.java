package io.github.lockfreelog.otlp;

import java.util.concurrent.atomic.AtomicLong;

/**
 * What the OTLP sink of one appender did: requests sent, retried and rejected, records acknowledged and rejected;
 * and what a user watches: whether the latest exchange with the collector succeeded, how long the oldest record not
 * yet acknowledged has waited, the collector's last error. Written by the drainer's thread, read by any.
 */
public final class OtlpCounters {

    private final AtomicLong requestsSent = new AtomicLong();
    private final AtomicLong requestsRetried = new AtomicLong();
    private final AtomicLong requestsRejected = new AtomicLong();
    private final AtomicLong recordsAcknowledged = new AtomicLong();
    private final AtomicLong recordsRejected = new AtomicLong();
    private final AtomicLong bytesSent = new AtomicLong();
    private volatile boolean connected;
    private volatile long deliveringSince;
    private volatile String lastError;

    void sent(int bytes) {
        requestsSent.incrementAndGet();
        bytesSent.addAndGet(bytes);
    }

    /** The batch the sink was trying is answered (acknowledged, or set aside): none waits now. */
    void settled() {
        deliveringSince = 0;
        connected = true;
    }

    /** The sink tries a batch: the first try of a batch starts its wait (a retry of the same batch does not). */
    void delivering() {
        if (deliveringSince == 0) {
            deliveringSince = System.currentTimeMillis();
        }
    }

    void reached() {
        connected = true;
    }

    void failed(String error) {
        connected = false;
        lastError = error;
    }

    void retried() {
        requestsRetried.incrementAndGet();
    }

    void acknowledged(long records, long rejected) {
        recordsAcknowledged.addAndGet(records - rejected);
        recordsRejected.addAndGet(rejected);
    }

    void rejected(int records, String error) {
        requestsRejected.incrementAndGet();
        recordsRejected.addAndGet(records);
        lastError = error;
    }

    /** Whether the latest exchange with the collector was answered; {@code false} before the first. */
    public boolean connected() {
        return connected;
    }

    /**
     * How long the oldest record the sink is sending has waited for its acknowledgement, in milliseconds (through an
     * outage the same batch is tried again: its wait grows); 0 while none is being sent.
     */
    public long oldestUnacknowledgedMillis() {
        long since = deliveringSince;
        return since == 0 ? 0 : Math.max(0, System.currentTimeMillis() - since);
    }

    /** Requests sent to the collector (each try of a batch, and the probe at start, counts). */
    public long requestsSent() {
        return requestsSent.get();
    }

    /** Requests the collector answered with a retryable status (429, 502, 503, 504, other 5xx) or not at all. */
    public long requestsRetried() {
        return requestsRetried.get();
    }

    /** Requests the collector refused for good (a 4xx other than 401, 403, 404, 407, 408, 429): their batch set aside. */
    public long requestsRejected() {
        return requestsRejected.get();
    }

    /** Records the collector acknowledged (a 2xx, less those its partial success rejected). */
    public long recordsAcknowledged() {
        return recordsAcknowledged.get();
    }

    /** Records the collector rejected: those of requests set aside, and {@code partial_success.rejected_log_records}. */
    public long recordsRejected() {
        return recordsRejected.get();
    }

    /** Bytes of requests sent, as sent (gzipped when compression is on). */
    public long bytesSent() {
        return bytesSent.get();
    }

    /** The last error the collector answered, or the last failure to reach it; {@code null} before any. */
    public String lastError() {
        return lastError;
    }
}
