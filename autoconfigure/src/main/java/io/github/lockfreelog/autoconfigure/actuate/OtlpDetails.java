package io.github.lockfreelog.autoconfigure.actuate;

import io.github.lockfreelog.logback.LockFreeAppenderBase;
import io.github.lockfreelog.otlp.LockFreeOtlpAppender;
import io.github.lockfreelog.otlp.OtlpCounters;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.util.ClassUtils;

/**
 * What an OTLP appender (lockfreelog-otlp's {@code LockFreeOtlpAppender}) did beyond what every appender counts:
 * whether the collector answered its latest request, how long the oldest record it is sending has waited, requests
 * sent, retried and rejected, records acknowledged and rejected, bytes sent, the collector's last error. Names an
 * OTLP type only in its nested {@link Reader}, loaded after a class-presence check, as {@link KafkaDetails} does.
 */
final class OtlpDetails {

    static final String CONNECTED = "connected";
    static final String OLDEST_UNACKNOWLEDGED_MILLIS = "oldestUnacknowledgedMillis";
    static final String REQUESTS_SENT = "requestsSent";
    static final String REQUESTS_RETRIED = "requestsRetried";
    static final String REQUESTS_REJECTED = "requestsRejected";
    static final String RECORDS_ACKNOWLEDGED = "recordsAcknowledged";
    static final String RECORDS_REJECTED = "recordsRejected";
    static final String BYTES_SENT = "bytesSent";
    static final String LAST_ERROR = "lastCollectorError";

    private static final boolean PRESENT = ClassUtils.isPresent("io.github.lockfreelog.otlp.LockFreeOtlpAppender",
            OtlpDetails.class.getClassLoader());

    private OtlpDetails() {
    }

    /** The OTLP values of {@code appender}, in a fixed order; {@code null} for an appender that is not OTLP's. */
    static Map<String, Object> of(LockFreeAppenderBase appender) {
        return (PRESENT && appender != null) ? Reader.read(appender) : null;
    }

    /** The one place that names lockfreelog-otlp's types. */
    private static final class Reader {

        static Map<String, Object> read(LockFreeAppenderBase appender) {
            if (!(appender instanceof LockFreeOtlpAppender otlp)) {
                return null;
            }
            OtlpCounters counters = otlp.getOtlpCounters();
            Map<String, Object> details = new LinkedHashMap<>();
            details.put(CONNECTED, counters.connected());
            details.put(OLDEST_UNACKNOWLEDGED_MILLIS, counters.oldestUnacknowledgedMillis());
            details.put(REQUESTS_SENT, counters.requestsSent());
            details.put(REQUESTS_RETRIED, counters.requestsRetried());
            details.put(REQUESTS_REJECTED, counters.requestsRejected());
            details.put(RECORDS_ACKNOWLEDGED, counters.recordsAcknowledged());
            details.put(RECORDS_REJECTED, counters.recordsRejected());
            details.put(BYTES_SENT, counters.bytesSent());
            details.put(LAST_ERROR, counters.lastError());
            return details;
        }
    }
}
