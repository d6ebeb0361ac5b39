package io.github.lockfreelog.kafka;

import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.producer.ProducerInterceptor;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.errors.RecordTooLargeException;

/**
 * A producer interceptor (test only) that holds the first send after a record refused as too large for
 * {@link #PAUSE_MILLIS}: long enough for the producer's sender thread to discard the open transaction's records not
 * yet sent, which it completes with the very exception of the refused record. Without the pause that happens only
 * when the sender thread wakes in the microseconds between the refusal and the next send.
 */
public final class PauseAfterRefusal implements ProducerInterceptor<byte[], byte[]> {

    static final long PAUSE_MILLIS = 1000;
    private static final AtomicBoolean REFUSED = new AtomicBoolean();
    private static final AtomicBoolean PAUSED = new AtomicBoolean();

    static void reset() {
        REFUSED.set(false);
        PAUSED.set(false);
    }

    /** Whether a send was held (else the test proved nothing). */
    static boolean paused() {
        return PAUSED.get();
    }

    @Override
    public ProducerRecord<byte[], byte[]> onSend(ProducerRecord<byte[], byte[]> record) {
        if (REFUSED.get() && PAUSED.compareAndSet(false, true)) {
            try {
                Thread.sleep(PAUSE_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        return record;
    }

    @Override
    public void onAcknowledgement(RecordMetadata metadata, Exception exception) {
        if (exception instanceof RecordTooLargeException) {
            REFUSED.set(true);
        }
    }

    @Override
    public void close() {
    }

    @Override
    public void configure(Map<String, ?> configs) {
    }
}
