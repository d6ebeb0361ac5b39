package io.github.lockfreelog.autoconfigure;

import io.github.lockfreelog.autoconfigure.actuate.LockFreeLogAppenders;
import io.github.lockfreelog.autoconfigure.actuate.LockFreeLogEndpoint;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/** Auto-configuration of the {@code lockfreelog} actuator endpoint. */
@AutoConfiguration(after = LockFreeLogAutoConfiguration.class)
@ConditionalOnClass({ Endpoint.class, ConditionalOnAvailableEndpoint.class })
@ConditionalOnBean(LockFreeLogAppenders.class)
@ConditionalOnAvailableEndpoint(LockFreeLogEndpoint.class)
public class LockFreeLogEndpointAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    LockFreeLogEndpoint lockFreeLogEndpoint(LockFreeLogAppenders appenders) {
        return new LockFreeLogEndpoint(appenders);
    }
}
