package io.github.lockfreelog.autoconfigure;

import ch.qos.logback.classic.LoggerContext;
import io.github.lockfreelog.autoconfigure.actuate.LockFreeLogAppenders;
import io.github.lockfreelog.autoconfigure.logging.LockFreeLogApplicationListener;
import io.github.lockfreelog.autoconfigure.logging.StarterAppender;
import io.github.lockfreelog.autoconfigure.properties.LockFreeLogProperties;
import io.github.lockfreelog.logback.LockFreeFileAppender;
import org.slf4j.ILoggerFactory;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
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
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Auto-configuration of what the context shows of the lock-free log file: it binds {@code lockfreelog.*} for the
 * context and offers the appenders ({@link LockFreeLogAppenders}) to the endpoint, metrics and health. The appender
 * itself is attached while Spring Boot initialises logging, before any context exists, by
 * {@link LockFreeLogApplicationListener}, which also registers the starter's runtime as a bean (a
 * {@link StarterAppender}) and ends the engine with the context where no logging shutdown hook will.
 */
@AutoConfiguration
@ConditionalOnClass({ LoggerContext.class, LockFreeFileAppender.class })
@Conditional(LockFreeLogAutoConfiguration.LogbackLoggingCondition.class)
@ConditionalOnBooleanProperty(name = LockFreeLogProperties.PREFIX + ".enabled", matchIfMissing = true)
@EnableConfigurationProperties(LockFreeLogProperties.class)
public class LockFreeLogAutoConfiguration {

    /** The appenders of Logback's context; the starter's own as the runtime says, where a run registered one. */
    @Bean
    @ConditionalOnMissingBean
    LockFreeLogAppenders lockFreeLogAppenders(ObjectProvider<StarterAppender> starter) {
        LoggerContext loggerContext = (LoggerContext) LoggerFactory.getILoggerFactory();
        StarterAppender runtime = starter.getIfAvailable();
        return (runtime != null) ? new LockFreeLogAppenders(loggerContext, runtime) : new LockFreeLogAppenders(loggerContext);
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
