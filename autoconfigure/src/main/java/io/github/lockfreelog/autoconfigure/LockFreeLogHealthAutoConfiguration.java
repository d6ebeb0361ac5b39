package io.github.lockfreelog.autoconfigure;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;

/** Auto-configuration of the {@code lockfreelog} health indicator ({@code management.health.lockfreelog.enabled}). */
@AutoConfiguration(after = LockFreeLogAutoConfiguration.class,
        afterName = "org.springframework.boot.health.autoconfigure.contributor.HealthContributorAutoConfiguration")
@ConditionalOnClass({ HealthIndicator.class, ConditionalOnEnabledHealthIndicator.class })
@ConditionalOnBean(LockFreeLogAppenders.class)
@ConditionalOnEnabledHealthIndicator("lockfreelog")
public class LockFreeLogHealthAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean(name = "lockfreelogHealthIndicator")
    LockFreeLogHealthIndicator lockfreelogHealthIndicator(LockFreeLogAppenders appenders) {
        return new LockFreeLogHealthIndicator(appenders);
    }
}
