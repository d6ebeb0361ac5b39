package io.github.lockfreelog.autoconfigure;

import ch.qos.logback.classic.LoggerContext;
import io.github.lockfreelog.autoconfigure.actuate.LockFreeLogAppenders;
import io.github.lockfreelog.autoconfigure.logging.LockFreeLogRuntime;
import io.github.lockfreelog.autoconfigure.logging.LockFreeLogShutdown;
import io.github.lockfreelog.logback.LockFreeFileAppender;
import org.slf4j.ILoggerFactory;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionMessage;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Auto-configuration of the lock-free log file. The appender itself is attached while Spring Boot initialises
 * logging, before any context exists ({@link io.github.lockfreelog.autoconfigure.logging.LockFreeLogApplicationListener});
 * this binds {@code lockfreelog.*} for the context, offers the appenders to the actuator parts, and ends the engine
 * when the context closes if no logging shutdown hook will ({@link LockFreeLogShutdown}).
 */
@AutoConfiguration
@ConditionalOnClass({ LoggerContext.class, LockFreeFileAppender.class })
@Conditional(LockFreeLogAutoConfiguration.LogbackLoggingCondition.class)
@ConditionalOnBooleanProperty(name = LockFreeLogProperties.PREFIX + ".enabled", matchIfMissing = true)
@EnableConfigurationProperties(LockFreeLogProperties.class)
public class LockFreeLogAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    LockFreeLogAppenders lockFreeLogAppenders() {
        return new LockFreeLogAppenders((LoggerContext) LoggerFactory.getILoggerFactory(), LockFreeLogRuntime.get()::absence);
    }

    /** Ends the engine when the context closes, but only with {@code logging.register-shutdown-hook=false}. */
    @Bean
    static LockFreeLogShutdown lockFreeLogShutdown(Environment environment) {
        return new LockFreeLogShutdown(environment);
    }

    /** Matches when SLF4J is bound to Logback, i.e. Logback is the logging system. */
    static class LogbackLoggingCondition extends SpringBootCondition {

        @Override
        public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
            ConditionMessage.Builder message = ConditionMessage.forCondition("LockFreeLogLogbackLoggingCondition");
            ILoggerFactory loggerFactory = LoggerFactory.getILoggerFactory();
            if (loggerFactory instanceof LoggerContext) {
                return ConditionOutcome.match(message.because("ILoggerFactory is a Logback LoggerContext"));
            }
            return ConditionOutcome.noMatch(message.because("ILoggerFactory is an instance of "
                    + loggerFactory.getClass().getCanonicalName() + ", not of Logback's LoggerContext"));
        }
    }
}
