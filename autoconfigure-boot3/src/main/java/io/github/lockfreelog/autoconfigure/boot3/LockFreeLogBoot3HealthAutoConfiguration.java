package io.github.lockfreelog.autoconfigure.boot3;

import io.github.lockfreelog.autoconfigure.LockFreeLogAutoConfiguration;
import io.github.lockfreelog.autoconfigure.actuate.LockFreeLogAppenders;
import org.springframework.boot.actuate.autoconfigure.health.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration of the {@code lockfreelog} health indicator ({@code management.health.lockfreelog.enabled})
 * with Spring Boot 3's health API. On Spring Boot 4 its classes are absent and this backs off in favour of
 * {@code io.github.lockfreelog.autoconfigure.LockFreeLogHealthAutoConfiguration}. The classes are named
 * rather than referenced, so that the condition holds however this class is loaded.
 */
@AutoConfiguration(after = LockFreeLogAutoConfiguration.class,
        afterName = "org.springframework.boot.actuate.autoconfigure.health.HealthContributorAutoConfiguration")
@ConditionalOnClass(name = { "org.springframework.boot.actuate.health.HealthIndicator",
        "org.springframework.boot.actuate.autoconfigure.health.ConditionalOnEnabledHealthIndicator" })
@ConditionalOnBean(LockFreeLogAppenders.class)
@ConditionalOnEnabledHealthIndicator("lockfreelog")
public class LockFreeLogBoot3HealthAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean(name = "lockfreelogHealthIndicator")
    LockFreeLogBoot3HealthIndicator lockfreelogHealthIndicator(LockFreeLogAppenders appenders) {
        return new LockFreeLogBoot3HealthIndicator(appenders);
    }
}
