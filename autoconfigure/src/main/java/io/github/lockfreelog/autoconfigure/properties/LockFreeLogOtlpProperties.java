package io.github.lockfreelog.autoconfigure.properties;

/**
 * The OTLP sink ({@code io.github.lockfreelog.otlp.LockFreeOtlpAppender} of lockfreelog-otlp): every event the loggers
 * ({@code lockfreelog.loggers}) pass goes to an OpenTelemetry collector over OTLP/HTTP through a journal of its own;
 * the endpoint, headers, compression and timeout are Spring Boot's own OTLP logging properties.
 */
public class LockFreeLogOtlpProperties extends LockFreeLogEngineProperties {

    /** Whether to send the log to the OTLP endpoint. When unset, it is sent when Spring Boot's OTLP logging endpoint is set and lockfreelog-otlp is on the class path. */
    private Boolean enabled;

    /** Journal of the OTLP sink. When unset, the first free one of "<java.io.tmpdir>/.lockfreelog-<application>-uid-<uid>/LOCKFREE_OTLP.journal", ".1.journal", ..., as for the console. */
    private String journal;

    public Boolean getEnabled() {
        return enabled;
    }

    public void setEnabled(Boolean enabled) {
        this.enabled = enabled;
    }

    @Override
    public String getJournal() {
        return journal;
    }

    public void setJournal(String journal) {
        this.journal = journal;
    }
}
