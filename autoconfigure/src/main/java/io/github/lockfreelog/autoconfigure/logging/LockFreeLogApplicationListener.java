package io.github.lockfreelog.autoconfigure.logging;

import ch.qos.logback.classic.LoggerContext;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.DefaultSingletonBeanRegistry;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.event.ApplicationEnvironmentPreparedEvent;
import org.springframework.boot.context.event.ApplicationPreparedEvent;
import org.springframework.boot.context.event.ApplicationStartingEvent;
import org.springframework.boot.context.logging.LoggingApplicationListener;
import org.springframework.context.ApplicationEvent;
import org.springframework.context.event.GenericApplicationListener;
import org.springframework.core.ResolvableType;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;

/**
 * The starter's one attach path: right after Spring Boot's {@link LoggingApplicationListener} has initialised
 * Logback for a {@code SpringApplication} run, hands the environment to the {@link LockFreeLogRuntime} of the Logback
 * context, so that start-up lines are in the file. Registered in {@code META-INF/spring.factories}; does nothing
 * unless Logback is the logging system.
 *
 * <p>It holds the runtime through the run, as Spring Boot's listener holds its logging system: on
 * {@link ApplicationStartingEvent} it takes the runtime from the Logback context (or creates it there) and adds its
 * end to Spring Boot's shutdown handlers. Spring Boot runs them in the reverse order of their addition, and adds its
 * own logging handler later in the run, so the engine ends after Spring Boot has stopped Logback: lines logged while
 * the application shuts down are written. Once the context is prepared it registers the runtime as the bean
 * {@value #RUNTIME_BEAN_NAME} and, without a logging shutdown hook, a {@link LockFreeLogShutdown}.
 */
public class LockFreeLogApplicationListener implements GenericApplicationListener {

    /** Right after Spring Boot's logging listener. */
    public static final int ORDER = LoggingApplicationListener.DEFAULT_ORDER + 1;

    /** Name of the runtime's bean. */
    public static final String RUNTIME_BEAN_NAME = "lockFreeLogRuntime";

    /** Name of the bean that ends the engine when the context closes without a logging shutdown hook. */
    public static final String SHUTDOWN_BEAN_NAME = "lockFreeLogShutdown";

    private static final boolean PRESENT = ClassUtils.isPresent("ch.qos.logback.classic.LoggerContext",
            LockFreeLogApplicationListener.class.getClassLoader())
            && ClassUtils.isPresent("io.github.lockfreelog.logback.LockFreeFileAppender",
                    LockFreeLogApplicationListener.class.getClassLoader());

    private LockFreeLogRuntime runtime;

    @Override
    public boolean supportsEventType(ResolvableType eventType) {
        Class<?> type = eventType.getRawClass();
        return type != null && (ApplicationStartingEvent.class.isAssignableFrom(type)
                || ApplicationEnvironmentPreparedEvent.class.isAssignableFrom(type)
                || ApplicationPreparedEvent.class.isAssignableFrom(type));
    }

    @Override
    public void onApplicationEvent(ApplicationEvent event) {
        if (!PRESENT) {
            return;
        }
        if (event instanceof ApplicationStartingEvent) {
            if (LoggerFactory.getILoggerFactory() instanceof LoggerContext context) {
                runtime = LockFreeLogRuntime.in(context);
                SpringApplication.getShutdownHandlers().add(runtime.shutdownHandler());
            }
        } else if (event instanceof ApplicationEnvironmentPreparedEvent prepared && runtime != null) {
            runtime.loggingInitialized(prepared.getEnvironment(), prepared.getSpringApplication().getAllSources());
        } else if (event instanceof ApplicationPreparedEvent prepared && runtime != null) {
            register(prepared.getApplicationContext().getBeanFactory(), prepared.getApplicationContext().getEnvironment());
        }
    }

    private void register(ConfigurableListableBeanFactory beanFactory, Environment environment) {
        if (!beanFactory.containsBean(RUNTIME_BEAN_NAME)) {
            beanFactory.registerSingleton(RUNTIME_BEAN_NAME, runtime);
        }
        if (!registersShutdownHook(environment) && !beanFactory.containsBean(SHUTDOWN_BEAN_NAME)
                && beanFactory instanceof DefaultSingletonBeanRegistry registry) {
            LockFreeLogShutdown shutdown = new LockFreeLogShutdown(runtime);
            registry.registerSingleton(SHUTDOWN_BEAN_NAME, shutdown);
            registry.registerDisposableBean(SHUTDOWN_BEAN_NAME, shutdown);
        }
    }

    private static boolean registersShutdownHook(Environment environment) {
        try {
            return environment.getProperty(LoggingApplicationListener.REGISTER_SHUTDOWN_HOOK_PROPERTY, Boolean.class, true);
        } catch (RuntimeException ex) {
            return true; // Spring Boot's logging listener has already refused such a value
        }
    }

    @Override
    public int getOrder() {
        return ORDER;
    }
}
