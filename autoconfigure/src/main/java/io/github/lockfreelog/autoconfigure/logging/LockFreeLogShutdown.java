package io.github.lockfreelog.autoconfigure.logging;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.context.logging.LoggingApplicationListener;
import org.springframework.core.env.Environment;

/**
 * Ends the engine (it drains to the file, unmaps and empties the journal, releases its lock) when the application
 * context closes, where nothing else would: with {@code logging.register-shutdown-hook=false}, which Spring Boot's
 * {@code SpringBootServletInitializer} sets for a WAR, a redeploy into the same JVM would otherwise find the journal
 * still locked. With the hook (the default) this does nothing: the engine ends at JVM shutdown, after Spring Boot has
 * stopped Logback.
 *
 * <p>A {@link BeanFactoryPostProcessor} only so that it is created before every other bean and so destroyed after
 * them: lines logged while the other beans shut down are still written. While several contexts are open, only the
 * last one to close ends the engine.
 */
public final class LockFreeLogShutdown implements BeanFactoryPostProcessor, DisposableBean {

    private final boolean closeOnContextClose;

    public LockFreeLogShutdown(Environment environment) {
        this.closeOnContextClose = !registersShutdownHook(environment);
        if (closeOnContextClose) {
            LockFreeLogRuntime.get().closeWhenClosed(this);
        }
    }

    private static boolean registersShutdownHook(Environment environment) {
        try {
            return environment.getProperty(LoggingApplicationListener.REGISTER_SHUTDOWN_HOOK_PROPERTY, Boolean.class, true);
        } catch (RuntimeException ex) {
            return true; // Spring Boot's logging listener has already refused such a value
        }
    }

    /** Whether the engine ends when this context closes. */
    public boolean isCloseOnContextClose() {
        return closeOnContextClose;
    }

    @Override
    public void postProcessBeanFactory(ConfigurableListableBeanFactory beanFactory) {
    }

    @Override
    public void destroy() {
        if (closeOnContextClose) {
            LockFreeLogRuntime.get().closed(this);
        }
    }
}
