package io.github.lockfreelog.autoconfigure;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.context.logging.LoggingApplicationListener;
import org.springframework.core.env.Environment;

/**
 * Stops the starter's appender (it drains to the file, unmaps and empties the journal, releases its lock) when the
 * application context closes, where nothing else would: with {@code logging.register-shutdown-hook=false}, which
 * Spring Boot's {@code SpringBootServletInitializer} sets for a WAR, Spring Boot's logging shutdown hook never stops
 * Logback, and a redeploy into the same JVM would find the journal still locked. With the hook (the default) this
 * does nothing: the appender keeps running until the hook stops Logback, as Spring Boot's file appender does.
 *
 * <p>A {@link BeanFactoryPostProcessor} only so that it is created before every other bean and so destroyed after
 * them: lines logged while the other beans shut down are still written. While several contexts that use the
 * appender are open, only the last one to close stops it.
 */
final class LockFreeLogShutdown implements BeanFactoryPostProcessor, DisposableBean {

    private final boolean stopOnClose;

    LockFreeLogShutdown(Environment environment) {
        this.stopOnClose = !registersShutdownHook(environment);
        if (stopOnClose) {
            LockFreeLogAppenderHolder.stopWhenClosed(this);
        }
    }

    private static boolean registersShutdownHook(Environment environment) {
        try {
            return environment.getProperty(LoggingApplicationListener.REGISTER_SHUTDOWN_HOOK_PROPERTY, Boolean.class, true);
        } catch (RuntimeException ex) {
            return true; // Spring Boot's logging listener has already refused such a value
        }
    }

    /** Whether the appender is stopped when this context closes. */
    boolean isStopOnClose() {
        return stopOnClose;
    }

    @Override
    public void postProcessBeanFactory(ConfigurableListableBeanFactory beanFactory) {
    }

    @Override
    public void destroy() {
        if (stopOnClose) {
            LockFreeLogAppenderHolder.closed(this);
        }
    }
}
