package io.github.lockfreelog.autoconfigure;

import io.github.lockfreelog.journal.DropReason;
import io.github.lockfreelog.logback.AppenderStatistics;
import io.github.lockfreelog.logback.LockFreeFileAppender;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.WeakHashMap;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

/**
 * Health of the lock-free appenders. An appender is {@code DOWN} when it is not running, or when
 * its background thread met new errors (a full disk, an I/O error) since the previous health
 * check; once errors stop growing it is {@code UP} again, and its details keep the error count and
 * the last message as a warning.
 */
public class LockFreeLogHealthIndicator extends AbstractHealthIndicator {

    private final LockFreeLogAppenders appenders;
    /** Drainer errors seen at the previous check, per appender instance (a replaced appender starts afresh). */
    private final Map<LockFreeFileAppender, Long> errorsSeen = Collections.synchronizedMap(new WeakHashMap<>());

    public LockFreeLogHealthIndicator(LockFreeLogAppenders appenders) {
        super("lockfreelog health check failed");
        this.appenders = appenders;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        Status overall = Status.UP;
        Map<String, Object> details = new LinkedHashMap<>();
        for (LockFreeFileAppender appender : appenders.all()) {
            AppenderStatistics s = appender.getStatistics();
            String name = String.valueOf(appender.getName());
            Long seen = errorsSeen.put(appender, s.drainerErrors());
            long previous = (seen != null) ? seen : 0L;
            Map<String, Object> detail = new LinkedHashMap<>();
            Status status = Status.UP;
            if (!s.started()) {
                status = Status.DOWN;
                detail.put("reason", "not started");
            } else if (s.drainerErrors() > previous) {
                status = Status.DOWN;
                detail.put("reason", (s.drainerErrors() - previous) + " new drainer error(s) since the previous check");
            } else if (s.drainerErrors() > 0) {
                detail.put("warning", "the drainer met errors earlier and has met none since the previous check");
            }
            detail.put("status", status.getCode());
            detail.put("file", String.valueOf(s.file()));
            detail.put("drainerErrors", s.drainerErrors());
            detail.put("droppedIo", s.drops().getOrDefault(DropReason.IO.id(), 0L));
            detail.put("drainLagBytes", s.drainLagBytes());
            if (s.lastError() != null) {
                detail.put("lastError", s.lastError());
            }
            details.put(name, detail);
            if (status == Status.DOWN) {
                overall = Status.DOWN;
            }
        }
        builder.status(overall).withDetail("appenders", details);
    }
}
