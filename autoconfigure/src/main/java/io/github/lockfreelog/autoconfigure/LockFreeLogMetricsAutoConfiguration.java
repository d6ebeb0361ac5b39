package io.github.lockfreelog.autoconfigure;

import io.github.lockfreelog.autoconfigure.actuate.LockFreeLogAppenders;
import io.github.lockfreelog.autoconfigure.actuate.LockFreeLogMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration of the {@code lockfreelog.*} Micrometer meters. It binds them once Spring
 * Boot's metrics auto-configuration has defined the {@link MeterRegistry}: the first two names
 * below are Spring Boot 4's, the last two Spring Boot 3's (a name that is not on the class path is
 * ignored, so each generation orders by its own).
 */
@AutoConfiguration(after = LockFreeLogAutoConfiguration.class,
        afterName = { "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
                "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
                "org.springframework.boot.actuate.autoconfigure.metrics.MetricsAutoConfiguration",
                "org.springframework.boot.actuate.autoconfigure.metrics.CompositeMeterRegistryAutoConfiguration" })
@ConditionalOnClass({ MeterRegistry.class, MeterBinder.class })
@ConditionalOnBean({ MeterRegistry.class, LockFreeLogAppenders.class })
public class LockFreeLogMetricsAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    LockFreeLogMetrics lockFreeLogMetrics(LockFreeLogAppenders appenders) {
        return new LockFreeLogMetrics(appenders);
    }
}
