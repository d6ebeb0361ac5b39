package io.github.lockfreelog.autoconfigure;

import io.github.lockfreelog.autoconfigure.actuate.LockFreeLogAppenders;
import io.github.lockfreelog.autoconfigure.actuate.LockFreeLogHealthIndicator;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration of the {@code lockfreelog} health indicator ({@code management.health.lockfreelog.enabled})
 * with Spring Boot 4's health API. On Spring Boot 3 its classes are absent and this backs off; the
 * {@code lockfreelog-spring-boot-autoconfigure-boot3} module contributes the indicator there. The classes
 * are named rather than referenced, so that the condition holds however this class is loaded.
 */
@AutoConfiguration(after = LockFreeLogAutoConfiguration.class,
        afterName = "org.springframework.boot.health.autoconfigure.contributor.HealthContributorAutoConfiguration")
@ConditionalOnClass(name = { "org.springframework.boot.health.contributor.HealthIndicator",
        "org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator" })
@ConditionalOnBean(LockFreeLogAppenders.class)
@ConditionalOnEnabledHealthIndicator("lockfreelog")
public class LockFreeLogHealthAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean(name = "lockfreelogHealthIndicator")
    LockFreeLogHealthIndicator lockfreelogHealthIndicator(LockFreeLogAppenders appenders) {
        return new LockFreeLogHealthIndicator(appenders);
    }
}
