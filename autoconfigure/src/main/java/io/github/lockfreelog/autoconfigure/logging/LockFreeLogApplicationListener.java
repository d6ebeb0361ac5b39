package io.github.lockfreelog.autoconfigure.logging;

import ch.qos.logback.classic.LoggerContext;
import org.slf4j.LoggerFactory;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.event.ApplicationEnvironmentPreparedEvent;
import org.springframework.boot.context.event.ApplicationStartingEvent;
import org.springframework.boot.context.logging.LoggingApplicationListener;
import org.springframework.context.ApplicationEvent;
import org.springframework.context.event.GenericApplicationListener;
import org.springframework.core.ResolvableType;
import org.springframework.util.ClassUtils;

/**
 * The starter's one attach path: right after Spring Boot's {@link LoggingApplicationListener} has initialised
 * Logback for a {@code SpringApplication} run, hands the environment to {@link LockFreeLogRuntime}, so that start-up
 * lines are in the file. Registered in {@code META-INF/spring.factories}; does nothing unless Logback is the logging
 * system.
 *
 * <p>On the first {@link ApplicationStartingEvent} it adds the runtime's end to Spring Boot's shutdown handlers.
 * Spring Boot runs them in the reverse order of their addition, and adds its own logging handler later in the run,
 * so the engine ends after Spring Boot has stopped Logback: lines logged while the application shuts down are written.
 */
public class LockFreeLogApplicationListener implements GenericApplicationListener {

    /** Right after Spring Boot's logging listener. */
    public static final int ORDER = LoggingApplicationListener.DEFAULT_ORDER + 1;

    private static final boolean PRESENT = ClassUtils.isPresent("ch.qos.logback.classic.LoggerContext",
            LockFreeLogApplicationListener.class.getClassLoader())
            && ClassUtils.isPresent("io.github.lockfreelog.logback.LockFreeFileAppender",
                    LockFreeLogApplicationListener.class.getClassLoader());

    /** One handler for the JVM: Spring Boot keeps its shutdown handlers in a set. */
    private static final Runnable SHUTDOWN = () -> LockFreeLogRuntime.get().shutdown();

    @Override
    public boolean supportsEventType(ResolvableType eventType) {
        Class<?> type = eventType.getRawClass();
        return type != null && (ApplicationStartingEvent.class.isAssignableFrom(type)
                || ApplicationEnvironmentPreparedEvent.class.isAssignableFrom(type));
    }

    @Override
    public void onApplicationEvent(ApplicationEvent event) {
        if (!PRESENT) {
            return;
        }
        if (event instanceof ApplicationStartingEvent) {
            SpringApplication.getShutdownHandlers().add(SHUTDOWN);
        } else if (event instanceof ApplicationEnvironmentPreparedEvent prepared
                && LoggerFactory.getILoggerFactory() instanceof LoggerContext context) {
            LockFreeLogRuntime.get().loggingInitialized(prepared.getEnvironment(), context);
        }
    }

    @Override
    public int getOrder() {
        return ORDER;
    }
}
