package io.github.lockfreelog.autoconfigure;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/** Auto-configuration of the {@code lockfreelog.*} Micrometer meters. */
@AutoConfiguration(after = LockFreeLogAutoConfiguration.class,
        afterName = { "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
                "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration" })
@ConditionalOnClass({ MeterRegistry.class, MeterBinder.class })
@ConditionalOnBean({ MeterRegistry.class, LockFreeLogAppenders.class })
public class LockFreeLogMetricsAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    LockFreeLogMetrics lockFreeLogMetrics(LockFreeLogAppenders appenders) {
        return new LockFreeLogMetrics(appenders);
    }
}
