package io.github.lockfreelog.autoconfigure.boot3;

import io.github.lockfreelog.autoconfigure.actuate.LockFreeLogAppenders;
import io.github.lockfreelog.autoconfigure.actuate.LockFreeLogHealth;
import org.springframework.boot.actuate.health.AbstractHealthIndicator;
import org.springframework.boot.actuate.health.Health;

/**
 * Spring Boot 3 health indicator of the lock-free appenders: {@code DOWN} while an appender is
 * stopped or its latest write to the log file failed, {@code UNKNOWN} when there is no appender
 * (see {@link LockFreeLogHealth}).
 */
public class LockFreeLogBoot3HealthIndicator extends AbstractHealthIndicator {

    private final LockFreeLogHealth health;

    public LockFreeLogBoot3HealthIndicator(LockFreeLogAppenders appenders) {
        super("lockfreelog health check failed");
        this.health = new LockFreeLogHealth(appenders);
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        LockFreeLogHealth.Check check = health.check();
        builder.status(check.state().name()).withDetails(check.details());
    }
}
