package io.github.lockfreelog.autoconfigure.actuate;

import io.github.lockfreelog.journal.DropReason;
import io.github.lockfreelog.journal.AppenderStatistics;
import io.github.lockfreelog.logback.LockFreeFileAppender;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * Health of the lock-free appenders, apart from any Spring Boot health API, so that the health
 * indicator of each Spring Boot generation reports the same. An appender is {@code DOWN} when it
 * is not running, or when its background thread met new errors (a full disk, an I/O error) since
 * the previous check; once errors stop growing it is {@code UP} again, and its details keep the
 * error count and the last message as a warning.
 */
public class LockFreeLogHealth {

    private final LockFreeLogAppenders appenders;

    /** Drainer errors seen at the previous check, per appender instance (a replaced appender starts afresh). */
    private final Map<LockFreeFileAppender, Long> errorsSeen = Collections.synchronizedMap(new WeakHashMap<>());

    public LockFreeLogHealth(LockFreeLogAppenders appenders) {
        this.appenders = appenders;
    }

    /**
     * Checks every appender.
     * @return whether all appenders are up, and the details of each under its name
     */
    public Check check() {
        boolean up = true;
        Map<String, Object> details = new LinkedHashMap<>();
        for (LockFreeFileAppender appender : appenders.all()) {
            AppenderStatistics s = appender.getStatistics();
            Long seen = errorsSeen.put(appender, s.drainerErrors());
            long previous = (seen != null) ? seen : 0L;
            Map<String, Object> detail = new LinkedHashMap<>();
            boolean appenderUp = true;
            if (!s.started()) {
                appenderUp = false;
                detail.put("reason", "not started");
            } else if (s.drainerErrors() > previous) {
                appenderUp = false;
                detail.put("reason", (s.drainerErrors() - previous) + " new drainer error(s) since the previous check");
            } else if (s.drainerErrors() > 0) {
                detail.put("warning", "the drainer met errors earlier and has met none since the previous check");
            }
            detail.put("status", appenderUp ? "UP" : "DOWN");
            detail.put("file", String.valueOf(s.file()));
            detail.put("drainerErrors", s.drainerErrors());
            detail.put("droppedIo", s.drops().getOrDefault(DropReason.IO.id(), 0L));
            detail.put("drainLagBytes", s.drainLagBytes());
            if (s.lastError() != null) {
                detail.put("lastError", s.lastError());
            }
            details.put(String.valueOf(appender.getName()), detail);
            up &= appenderUp;
        }
        return new Check(up, details);
    }

    /**
     * Outcome of one check.
     * @param up whether every appender is up
     * @param appenders details of each appender, by name, as health shows them under {@code appenders}
     */
    public record Check(boolean up, Map<String, Object> appenders) {
    }
}
