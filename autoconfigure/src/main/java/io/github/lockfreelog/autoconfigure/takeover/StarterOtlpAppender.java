package io.github.lockfreelog.autoconfigure.takeover;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.status.Status;
import io.github.lockfreelog.autoconfigure.properties.InvalidLockFreeLogPropertyException;
import io.github.lockfreelog.autoconfigure.properties.LockFreeLogOtlpProperties;
import io.github.lockfreelog.autoconfigure.properties.LockFreeLogProperties;
import io.github.lockfreelog.autoconfigure.properties.StarterProperties;
import io.github.lockfreelog.engine.SettingProblem;
import io.github.lockfreelog.logback.LockFreeAppenderBase;
import io.github.lockfreelog.otlp.LockFreeOtlpAppender;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.util.StringUtils;

/**
 * The OTLP sink's part of a run: a {@link LockFreeOtlpAppender} on when Spring Boot's own OTLP logging endpoint is set
 * ({@code management.opentelemetry.logging.export.otlp.endpoint}, Spring Boot 4; {@code management.otlp.logging.endpoint},
 * 3.5), with that property group's headers, compression and timeout, the resource from {@code spring.application.name}
 * and {@code management.opentelemetry.resource-attributes}, and engine settings of its own
 * ({@code lockfreelog.otlp.*}). The one class of the starter that names a type of lockfreelog-otlp:
 * {@code LockFreeLogRuntime} calls it only after it found that module on the class path.
 */
public final class StarterOtlpAppender {

    /** Name of the starter's OTLP appender. */
    static final String NAME = "LOCKFREE_OTLP";
    /** The class whose presence turns the OTLP sink on. */
    public static final String APPENDER_CLASS = "io.github.lockfreelog.otlp.LockFreeOtlpAppender";
    static final String PREFIX = LockFreeLogProperties.PREFIX + ".otlp.";
    /** Spring Boot 4's OTLP logging properties, then Spring Boot 3.5's. */
    static final String BOOT4 = "management.opentelemetry.logging.export.otlp.";
    static final String BOOT3 = "management.otlp.logging.";
    static final String RESOURCE_ATTRIBUTES = "management.opentelemetry.resource-attributes";
    /** The OpenTelemetry Logback appender, whose presence beside this one is said once. */
    static final String OPENTELEMETRY_APPENDER = "io.opentelemetry.instrumentation.logback.appender.v1_0.OpenTelemetryAppender";

    private StarterOtlpAppender() {
    }

    /** Where Spring Boot's OTLP logging properties are set: {@link #BOOT4} or {@link #BOOT3}; {@code null} when neither. */
    static String bootPrefix(ConfigurableEnvironment environment) {
        if (StringUtils.hasText(environment.getProperty(BOOT4 + "endpoint"))) {
            return BOOT4;
        }
        return StringUtils.hasText(environment.getProperty(BOOT3 + "endpoint")) ? BOOT3 : null;
    }

    /**
     * The sink's part of a run: on when {@code lockfreelog.otlp.enabled} says so, or, unset, when Spring Boot's OTLP
     * logging endpoint is set. A setting it cannot use leaves the application running without it, with one ERROR that
     * names the property.
     */
    public static void apply(ManagedAppender<LockFreeAppenderBase> otlp, LoggerContext context, StarterProperties starter,
            ConfigurableEnvironment environment) {
        LockFreeLogOtlpProperties properties = starter.properties().getOtlp();
        String boot = bootPrefix(environment);
        boolean wanted = properties.getEnabled() != null ? properties.getEnabled() : boot != null;
        if (!wanted) {
            otlp.close();
            return;
        }
        org.slf4j.Logger log = RunLog.get();
        try {
            if (boot == null) {
                throw InvalidLockFreeLogPropertyException.of(environment, BOOT4 + "endpoint", null, "the URL of an"
                        + " OTLP/HTTP receiver's logs path, e.g. http://localhost:4318/v1/logs (" + PREFIX + "enabled=true"
                        + " asks for one; " + BOOT3 + "endpoint on Spring Boot 3.5); or " + PREFIX + "enabled=false");
            }
            String identity = identity(context, starter, environment, boot);
            if (!otlp.resume(identity)) {
                otlp.close();
                otlp.replaceWith(start(context, starter, environment, boot), identity);
                sayWhereTheOpenTelemetryAppenderExportsToo(context);
            }
        } catch (InvalidLockFreeLogPropertyException ex) {
            otlp.close();
            String what = (ex.getValue() == null) ? " is not set"
                    : "=\"" + ex.getValue() + "\"" + ((ex.getOrigin() != null) ? " (" + ex.getOrigin() + ")" : "")
                            + " is not allowed";
            log.error("lockfreelog: the log is not sent to the OTLP endpoint: {}{}: expected {}", ex.getProperty(), what,
                    ex.getAllowed());
        } catch (RuntimeException ex) { // whatever else: the application starts without the sink
            otlp.close();
            log.error("lockfreelog: the log is not sent to the OTLP endpoint: the sink could not start", ex);
        }
    }

    private static String identity(LoggerContext context, StarterProperties starter, ConfigurableEnvironment environment,
            String boot) {
        LockFreeLogOtlpProperties properties = starter.properties().getOtlp();
        return String.join("|", environment.getProperty(boot + "endpoint"), String.valueOf(headers(environment, boot)),
                String.valueOf(environment.getProperty(boot + "compression")),
                String.valueOf(environment.getProperty(boot + "timeout")), String.valueOf(resource(environment)),
                String.valueOf(environment.getProperty(boot + "transport")), AppenderSettings.engineIdentity(properties),
                String.valueOf(environment.getProperty("spring.application.name")));
    }

    private static Map<String, String> headers(ConfigurableEnvironment environment, String boot) {
        return new TreeMap<>(Binder.get(environment).bind(boot + "headers", Bindable.mapOf(String.class, String.class))
                .orElse(Map.of()));
    }

    private static Map<String, String> resource(ConfigurableEnvironment environment) {
        return new TreeMap<>(Binder.get(environment).bind(RESOURCE_ATTRIBUTES, Bindable.mapOf(String.class, String.class))
                .orElse(Map.of()));
    }

    /** A started appender for this run's settings; throws, naming the property, when one is not allowed. */
    private static LockFreeAppenderBase start(LoggerContext context, StarterProperties starter,
            ConfigurableEnvironment environment, String boot) {
        LockFreeLogOtlpProperties properties = starter.properties().getOtlp();
        String transport = environment.getProperty(boot + "transport");
        if (transport != null && !transport.trim().equalsIgnoreCase("http")) {
            throw InvalidLockFreeLogPropertyException.of(environment, boot + "transport", transport,
                    "http: the sink speaks OTLP/HTTP (protobuf) only; or " + PREFIX + "enabled=false");
        }
        LockFreeOtlpAppender created = new LockFreeOtlpAppender();
        created.setContext(context);
        created.setName(NAME);
        created.setKeepEngineOnStop(true);
        created.setEndpoint(environment.getProperty(boot + "endpoint"));
        created.setHeaders(headers(environment, boot));
        String compression = environment.getProperty(boot + "compression");
        if (compression != null) {
            created.setCompression(compression.trim().toLowerCase(java.util.Locale.ROOT));
        }
        Duration timeout = Binder.get(environment).bind(boot + "timeout", Duration.class).orElse(null);
        if (timeout != null) {
            created.setTimeout(ch.qos.logback.core.util.Duration.buildByMilliseconds(timeout.toMillis()));
        }
        String application = environment.getProperty("spring.application.name");
        if (StringUtils.hasText(application)) {
            created.setApplication(application.trim());
            created.setServiceName(application.trim());
        }
        Map<String, String> resource = resource(environment);
        if (resource.containsKey("service.name")) {
            created.setServiceName(resource.get("service.name"));
        }
        resource.remove("service.name");
        created.setResourceAttributes(resource);
        AppenderSettings.applyEngine(created, properties);
        List<SettingProblem> problems = created.checkSettings();
        if (!problems.isEmpty()) {
            SettingProblem first = problems.get(0);
            String property = switch (first.setting()) {
                case "endpoint", "compression", "timeout" -> boot + first.setting();
                default -> AppenderSettings.propertyOf(first, PREFIX, boot + "endpoint");
            };
            throw InvalidLockFreeLogPropertyException.of(environment, property, first.value(),
                    AppenderSettings.inPropertyNames(first.allowed(), PREFIX));
        }
        long startedAt = System.currentTimeMillis();
        created.start();
        if (!created.isStarted()) {
            String errors = String.join("; ", context.getStatusManager().getCopyOfStatusList().stream()
                    .filter(s -> s.getLevel() == Status.ERROR && s.getTimestamp() >= startedAt)
                    .map(Status::getMessage).toList());
            throw InvalidLockFreeLogPropertyException.of(environment, PREFIX + "journal", properties.getJournal(),
                    "a journal this application can create, lock and write: " + errors);
        }
        return created;
    }

    /** One INFO where the OpenTelemetry Logback appender is attached too: each event then goes out twice. */
    private static void sayWhereTheOpenTelemetryAppenderExportsToo(LoggerContext context) {
        for (Logger logger : context.getLoggerList()) {
            for (Iterator<Appender<ILoggingEvent>> it = logger.iteratorForAppenders(); it.hasNext();) {
                Appender<ILoggingEvent> appender = it.next();
                if (appender.getClass().getName().equals(OPENTELEMETRY_APPENDER)) {
                    RunLog.get().info("lockfreelog: the OpenTelemetry Logback"
                            + " appender '{}' is attached to logger {} as well: both export the log, so the collector"
                            + " gets each event twice. Remove that appender, or set {}enabled=false.", appender.getName(),
                            logger.getName(), PREFIX);
                    return;
                }
            }
        }
    }
}
