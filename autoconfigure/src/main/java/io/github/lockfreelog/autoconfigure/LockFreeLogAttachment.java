package io.github.lockfreelog.autoconfigure;

import ch.qos.logback.classic.LoggerContext;
import io.github.lockfreelog.logback.LockFreeFileAppender;
import org.springframework.beans.factory.InitializingBean;
import org.springframework.core.env.Environment;

/**
 * Makes sure the starter's appender runs with the bound {@link LockFreeLogProperties} when the
 * application context starts. In a {@code SpringApplication} the appender was already attached
 * while logging was initialised and this finds it in place; in a bare context (tests, a context
 * built by hand) this is what attaches it.
 */
public class LockFreeLogAttachment implements InitializingBean {

    private final LoggerContext loggerContext;
    private final LockFreeLogProperties properties;
    private final Environment environment;
    private volatile LockFreeFileAppender appender;

    public LockFreeLogAttachment(LoggerContext loggerContext, LockFreeLogProperties properties, Environment environment) {
        this.loggerContext = loggerContext;
        this.properties = properties;
        this.environment = environment;
    }

    @Override
    public void afterPropertiesSet() {
        appender = LockFreeLogAppenderHolder.attach(loggerContext, LockFreeLogSettings.resolve(properties, environment, loggerContext),
                environment);
    }

    /** The starter's appender, or {@code null} when no log file is set or the Logback configuration writes it. */
    public LockFreeFileAppender getAppender() {
        return appender;
    }
}
