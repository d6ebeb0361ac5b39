package io.github.lockfreelog.autoconfigure.actuate;

import io.github.lockfreelog.kafka.KafkaCounters;
import io.github.lockfreelog.kafka.LockFreeKafkaAppender;
import io.github.lockfreelog.logback.LockFreeAppenderBase;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.util.ClassUtils;

/**
 * What a Kafka appender (lockfreelog-kafka's {@code LockFreeKafkaAppender}) did beyond what every appender counts:
 * whether its latest exchange with the cluster succeeded, how long the events it is delivering have waited,
 * transactions committed and aborted (and commits asked again after a timeout), events delivered, and events the
 * broker refused for what they are (too large, an invalid record), set aside, by reason. Names a Kafka type
 * only in its nested {@link Reader}, loaded after a class-presence check, so the endpoint and the meters run as before
 * without lockfreelog-kafka.
 */
final class KafkaDetails {

    /** Names of the values, as the endpoint shows them and the meters read them. */
    static final String CONNECTED = "connected";
    static final String OLDEST_UNDELIVERED_MILLIS = "oldestUndeliveredMillis";
    static final String TRANSACTIONS_COMMITTED = "transactionsCommitted";
    static final String TRANSACTIONS_ABORTED = "transactionsAborted";
    static final String EVENTS_DELIVERED = "eventsDelivered";
    static final String TOO_LARGE = "tooLarge";
    static final String REFUSED = "refused";
    static final String COMMITS_RETRIED = "commitsRetried";

    private static final boolean PRESENT = ClassUtils.isPresent("io.github.lockfreelog.kafka.LockFreeKafkaAppender",
            KafkaDetails.class.getClassLoader());

    private KafkaDetails() {
    }

    /**
     * The Kafka values of {@code appender}, in a fixed order ({@link #CONNECTED} a {@code Boolean}, {@link #REFUSED} a
     * map of reason to count, the others {@code Long}); {@code null} for an appender that is not Kafka's.
     */
    static Map<String, Object> of(LockFreeAppenderBase appender) {
        return (PRESENT && appender != null) ? Reader.read(appender) : null;
    }

    /** The one place that names lockfreelog-kafka's types. */
    private static final class Reader {

        static Map<String, Object> read(LockFreeAppenderBase appender) {
            if (!(appender instanceof LockFreeKafkaAppender kafka)) {
                return null;
            }
            KafkaCounters counters = kafka.getKafkaCounters();
            Map<String, Object> details = new LinkedHashMap<>();
            details.put(CONNECTED, counters.connected());
            details.put(OLDEST_UNDELIVERED_MILLIS, counters.oldestUndeliveredMillis());
            details.put(EVENTS_DELIVERED, counters.eventsDelivered());
            details.put(TRANSACTIONS_COMMITTED, counters.transactionsCommitted());
            details.put(TRANSACTIONS_ABORTED, counters.transactionsAborted());
            details.put(TOO_LARGE, counters.tooLarge());
            // events the broker refused for what they are, set aside and never sent again, by reason
            details.put(REFUSED, counters.refusedByReason());
            details.put(COMMITS_RETRIED, counters.commitsRetried());
            return details;
        }
    }
}
