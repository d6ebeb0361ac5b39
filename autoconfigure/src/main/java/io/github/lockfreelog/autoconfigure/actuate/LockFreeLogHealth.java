package io.github.lockfreelog.autoconfigure.actuate;

import io.github.lockfreelog.diagnostics.AppenderStatistics;
import io.github.lockfreelog.diagnostics.DropReason;
import io.github.lockfreelog.logback.LockFreeAppenderBase;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Health of the lock-free appenders, apart from any Spring Boot health API, so that the health
 * indicator of each Spring Boot generation reports the same. It keeps no state between checks: each
 * answer reads the appenders as they are now, so any number of callers get the same answer.
 *
 * <ul>
 * <li>An appender is {@code DOWN} while it is not running, or while the latest attempt of its
 * background thread to write the log file failed (a full disk, an I/O error): its details then give
 * {@code lastError} and {@code failingSince}, the ISO-8601 instant of the first failure of the
 * episode. The thread retries every 500 ms, and the appender is {@code UP} from its first write
 * that succeeds; errors met earlier stay in its details as {@code drainerErrors}, {@code lastError}
 * and a {@code warning}.</li>
 * <li>With no appender at all the health is {@code UNKNOWN}, not {@code UP}: nothing writes a log
 * file through lockfreelog, and the {@code reason} detail says why ({@link LockFreeLogAppenders#absence()}).</li>
 * </ul>
 */
public class LockFreeLogHealth {

    private final LockFreeLogAppenders appenders;

    public LockFreeLogHealth(LockFreeLogAppenders appenders) {
        this.appenders = appenders;
    }

    /**
     * Checks every appender.
     * @return the status, and the details of each appender under {@code appenders} (or why there is none under {@code reason})
     */
    public Check check() {
        List<LockFreeAppenderBase> all = appenders.all();
        Map<String, Object> details = new LinkedHashMap<>();
        if (all.isEmpty()) {
            details.put("reason", appenders.whyNone());
            return new Check(State.UNKNOWN, details);
        }
        boolean up = true;
        Map<String, Object> byName = new LinkedHashMap<>();
        for (LockFreeAppenderBase appender : all) {
            AppenderStatistics s = appender.getStatistics();
            Map<String, Object> detail = new LinkedHashMap<>();
            boolean appenderUp = s.started() && s.failingSinceEpochMillis() == 0;
            detail.put("status", (appenderUp ? State.UP : State.DOWN).name());
            if (!s.started()) {
                detail.put("reason", "not started");
            } else if (!appenderUp) {
                detail.put("reason", "writing the log fails; events wait in the journal while the drainer retries");
                detail.put("failingSince", Instant.ofEpochMilli(s.failingSinceEpochMillis()).toString());
            } else if (s.drainerErrors() > 0) {
                detail.put("warning", "the drainer met errors earlier; its latest write succeeded");
            }
            detail.put("target", String.valueOf(s.target()));
            detail.put("file", String.valueOf(s.file()));
            detail.put("drainerErrors", s.drainerErrors());
            detail.put("droppedIo", s.drops().getOrDefault(DropReason.IO.id(), 0L));
            detail.put("drainLagBytes", s.drainLagBytes());
            if (s.lastError() != null) {
                detail.put("lastError", s.lastError());
            }
            Map<String, Object> otlp = otlp(appender, s);
            if (otlp != null) {
                detail.put("otlp", otlp);
            }
            byName.put(String.valueOf(appender.getName()), detail);
            up &= appenderUp;
        }
        details.put("appenders", byName);
        return new Check(up ? State.UP : State.DOWN, details);
    }

    /**
     * An OTLP appender's sink: whether the collector answered its latest request, the records and bytes not yet
     * acknowledged (in the journal or in the request in flight), how long the oldest being sent has waited, requests
     * sent, retried and rejected, the collector's last error; {@code null} for another appender. A collector that does
     * not answer is a failing drainer, as a full disk is for the file: the appender is {@code DOWN} until it answers.
     */
    private static Map<String, Object> otlp(LockFreeAppenderBase appender, AppenderStatistics s) {
        Map<String, Object> values = OtlpDetails.of(appender);
        if (values == null) {
            return null;
        }
        Map<String, Object> otlp = new LinkedHashMap<>();
        otlp.put(OtlpDetails.CONNECTED, values.get(OtlpDetails.CONNECTED));
        otlp.put("recordsUnacknowledged", s.inFlight());
        otlp.put("bytesUnacknowledged", s.drainLagBytes());
        for (String key : List.of(OtlpDetails.OLDEST_UNACKNOWLEDGED_MILLIS, OtlpDetails.REQUESTS_SENT,
                OtlpDetails.REQUESTS_RETRIED, OtlpDetails.REQUESTS_REJECTED, OtlpDetails.LAST_ERROR)) {
            otlp.put(key, values.get(key));
        }
        return otlp;
    }

    /** Outcome of a check, named as Spring Boot's status codes are. */
    public enum State {
        /** Every appender runs and its latest write succeeded. */
        UP,
        /** An appender is not running, or its latest write failed. */
        DOWN,
        /** There is no appender. */
        UNKNOWN
    }

    /**
     * Outcome of one check.
     * @param state status to report
     * @param details health details: {@code appenders}, each appender's details by name, or {@code reason} when there is none
     */
    public record Check(State state, Map<String, Object> details) {
    }
}
