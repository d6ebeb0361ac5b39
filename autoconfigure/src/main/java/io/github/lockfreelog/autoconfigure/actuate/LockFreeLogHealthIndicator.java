package io.github.lockfreelog.autoconfigure.actuate;

import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * Spring Boot 4 health indicator of the lock-free appenders: {@code DOWN} while an appender is
 * stopped or its latest write to the log file failed, {@code UNKNOWN} when there is no appender
 * (see {@link LockFreeLogHealth}).
 */
public class LockFreeLogHealthIndicator extends AbstractHealthIndicator {

    private final LockFreeLogHealth health;

    public LockFreeLogHealthIndicator(LockFreeLogAppenders appenders) {
        super("lockfreelog health check failed");
        this.health = new LockFreeLogHealth(appenders);
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        LockFreeLogHealth.Check check = health.check();
        builder.status(check.state().name()).withDetails(check.details());
    }
}
