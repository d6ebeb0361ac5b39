package io.github.lockfreelog.autoconfigure;

import ch.qos.logback.classic.LoggerContext;
import java.util.List;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationEnvironmentPreparedEvent;
import org.springframework.boot.context.event.ApplicationStartingEvent;
import org.springframework.boot.context.logging.LoggingApplicationListener;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.ApplicationEvent;
import org.springframework.context.event.GenericApplicationListener;
import org.springframework.core.ResolvableType;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.util.ClassUtils;

/**
 * Attaches the lock-free appender right after Spring Boot's {@link LoggingApplicationListener} has
 * initialised Logback, so that start-up lines are in the file. Registered in
 * {@code META-INF/spring.factories}; does nothing unless Logback is on the class path and bound to
 * SLF4J, {@code lockfreelog.enabled} is not {@code false} and {@code spring.autoconfigure.exclude} does not name
 * {@link LockFreeLogAutoConfiguration}.
 *
 * <p>On {@link ApplicationStartingEvent}, when Spring Boot is going to reset Logback again (a second
 * {@code SpringApplication.run} after the first context closed), it takes the running appender off
 * its loggers so the reset does not stop it; on {@link ApplicationEnvironmentPreparedEvent} it
 * attaches it again, so the same instance and its counters go on.
 */
public class LockFreeLogApplicationListener implements GenericApplicationListener {

    /** Right after Spring Boot's logging listener. */
    public static final int ORDER = LoggingApplicationListener.DEFAULT_ORDER + 1;

    private static final boolean PRESENT = ClassUtils.isPresent("ch.qos.logback.classic.LoggerContext",
            LockFreeLogApplicationListener.class.getClassLoader())
            && ClassUtils.isPresent("io.github.lockfreelog.logback.LockFreeFileAppender",
                    LockFreeLogApplicationListener.class.getClassLoader());

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
            Logback.beforeInitialize();
        } else if (event instanceof ApplicationEnvironmentPreparedEvent prepared) {
            Logback.attach(prepared.getEnvironment());
        }
    }

    @Override
    public int getOrder() {
        return ORDER;
    }

    /** The property Spring Boot reads auto-configurations to exclude from. */
    static final String EXCLUDE_PROPERTY = "spring.autoconfigure.exclude";

    /**
     * Whether {@code spring.autoconfigure.exclude} names {@link LockFreeLogAutoConfiguration}: then the starter is
     * off, as with {@code lockfreelog.enabled=false}. (An exclusion in {@code @SpringBootApplication(exclude = ...)}
     * cannot be seen this early.)
     */
    static boolean isExcluded(ConfigurableEnvironment environment) {
        String name = LockFreeLogAutoConfiguration.class.getName();
        return Binder.get(environment).bind(EXCLUDE_PROPERTY, Bindable.listOf(String.class)).orElse(List.of()).stream()
                .anyMatch(excluded -> excluded != null && name.equals(excluded.trim()));
    }

    /** Kept apart so that Logback classes are loaded only when Logback is present. */
    private static final class Logback {

        static void beforeInitialize() {
            if (LoggerFactory.getILoggerFactory() instanceof LoggerContext context) {
                LockFreeLogAppenderHolder.suspendForReinitialisation(context);
            }
        }

        static void attach(ConfigurableEnvironment environment) {
            if (!(LoggerFactory.getILoggerFactory() instanceof LoggerContext context)) {
                return;
            }
            LockFreeLogProperties properties = Binder.get(environment)
                    .bind(LockFreeLogProperties.PREFIX, LockFreeLogProperties.class)
                    .orElseGet(LockFreeLogProperties::new);
            if (!properties.isEnabled() || isExcluded(environment)) {
                LockFreeLogAppenderHolder.detachAndStop();
                return;
            }
            try {
                LockFreeLogAppenderHolder.attach(context, LockFreeLogSettings.resolve(properties, environment, context),
                        environment);
            } catch (InvalidLockFreeLogPropertyException ex) {
                LockFreeLogAppenderHolder.detachAndStop();
                throw ex;
            }
        }
    }
}
