package io.github.lockfreelog.benchmarks.peers;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.OutputStreamAppender;
import ch.qos.logback.core.encoder.Encoder;
import ch.qos.logback.core.filter.Filter;
import ch.qos.logback.core.rolling.RollingFileAppender;
import ch.qos.logback.core.rolling.TimeBasedRollingPolicy;
import ch.qos.logback.core.util.FileSize;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.slf4j.LoggerFactory;
import org.springframework.boot.ansi.AnsiOutput;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.logging.LogFile;
import org.springframework.boot.logging.LoggingInitializationContext;
import org.springframework.boot.logging.logback.LogbackLoggingSystem;
import org.springframework.boot.system.ApplicationPid;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

/**
 * SLF4J's Logback context configured by Spring Boot itself, for the {@code boot-*} workloads: Boot's
 * {@link LogbackLoggingSystem} is initialised as {@code LoggingApplicationListener} initialises it in an
 * application with no {@code logback.xml}, so Boot's default configuration builds the context (its
 * converters {@code %clr}, {@code %esb}, {@code %correlationId}, {@code %wEx}; the properties it sets,
 * {@code PID}, {@code APPLICATION_NAME}, {@code LOG_FILE}, ...; its {@code CONSOLE} {@link ConsoleAppender} and
 * its {@code FILE} {@link RollingFileAppender} with its rolling policy; its structured encoder when a
 * structured format is set). Nothing of Boot's format is written out here: the peers take the encoders,
 * filters and rolling settings from the appenders Boot built.
 *
 * <p>The environment holds what an application would set: {@code spring.application.name} (so lines carry
 * Boot's {@code [name]}), {@code spring.application.pid} (as {@code SpringApplication} adds it),
 * {@code logging.file.name}, the structured formats of {@code boot-ecs}, and two
 * settings for the benchmark: a rolling size no run reaches ({@value #NO_ROLL_SIZE}, as the
 * {@code logback-rolling} peer has, so that the peers pay for watching for a roll, not for gzip), and UTF-8
 * for both charsets (Boot's default on Java 18 and later, and the only one lockfreelog's engine takes).
 * System properties {@value #PROPERTY_PREFIX}{@code NAME=VALUE} (the runner's {@code --boot-property}) add
 * or override Boot properties, e.g. {@code logging.expect-correlation-id=true} for the pattern of an
 * application with tracing, or {@code spring.output.ansi.enabled=always}.
 */
public final class BootLogging {

    /** Prefix of system properties that are handed to Boot's environment (the prefix removed). */
    public static final String PROPERTY_PREFIX = "lockfreelog.bench.boot.";

    /** {@code spring.application.name}: Boot writes it into every line as {@code [orders-service] }. */
    public static final String APPLICATION_NAME = "orders-service";

    /** {@code logging.logback.rollingpolicy.max-file-size}: no run reaches it. */
    static final String NO_ROLL_SIZE = "100GB";

    /** The names Boot gives its appenders. */
    static final String FILE = "FILE";
    static final String CONSOLE = "CONSOLE";

    private final LoggerContext context;
    private final Map<String, Object> properties;
    /** Boot's two appenders, as Boot attached them (kept here: a peer that takes their place detaches them). */
    private final Map<String, OutputStreamAppender<ILoggingEvent>> appenders = new LinkedHashMap<>();

    private BootLogging(LoggerContext context, Map<String, Object> properties) {
        this.context = context;
        this.properties = properties;
    }

    /** The properties Boot is given for {@code kind}, writing its log file to {@code logFile}. */
    static Map<String, Object> properties(Workload.Kind kind, Path logFile) {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("spring.application.name", APPLICATION_NAME);
        // What SpringApplication adds to every environment (its ApplicationInfoPropertySource): ecs writes process.pid.
        properties.put("spring.application.pid", new ApplicationPid().toLong());
        properties.put("logging.file.name", logFile.toString());
        properties.put("logging.logback.rollingpolicy.max-file-size", NO_ROLL_SIZE);
        properties.put("logging.charset.file", StandardCharsets.UTF_8.name());
        properties.put("logging.charset.console", StandardCharsets.UTF_8.name());
        if (kind == Workload.Kind.BOOT_ECS) {
            properties.put("logging.structured.format.file", "ecs");
            properties.put("logging.structured.format.console", "ecs");
        }
        Properties system = System.getProperties();
        for (String name : system.stringPropertyNames()) {
            if (name.startsWith(PROPERTY_PREFIX)) {
                properties.put(name.substring(PROPERTY_PREFIX.length()), system.getProperty(name));
            }
        }
        return properties;
    }

    /**
     * Has Spring Boot configure SLF4J's Logback context for {@code kind}: both its appenders, {@code CONSOLE}
     * (writing {@link System#out}, looked up at each write) and {@code FILE} (writing {@code logFile}), on the
     * root logger at INFO.
     */
    static BootLogging initialize(Workload.Kind kind, Path logFile) {
        if (!kind.isBoot()) {
            throw new IllegalArgumentException("workload=" + kind.id() + " is not configured by Spring Boot");
        }
        Map<String, Object> properties = properties(kind, logFile);
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().addFirst(new MapPropertySource("lockfreelog-benchmark", properties));
        // What AnsiOutputApplicationListener does in an application: DETECT unless set; into a pipe, no colour.
        Binder.get(environment).bind("spring.output.ansi.enabled", AnsiOutput.Enabled.class)
                .ifBound(AnsiOutput::setEnabled);
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        LogbackLoggingSystem system = new LogbackLoggingSystem(BootLogging.class.getClassLoader());
        system.cleanUp(); // an earlier trial in this JVM left the context marked as Boot's: Boot would not configure it again
        system.beforeInitialize();
        system.initialize(new LoggingInitializationContext(environment), null, LogFile.get(environment));
        BootLogging boot = new BootLogging(context, properties);
        boot.take(FILE);
        boot.take(CONSOLE);
        return boot;
    }

    LoggerContext context() {
        return context;
    }

    /** What Boot was given. */
    Map<String, Object> properties() {
        return properties;
    }

    private void take(String name) {
        Appender<ILoggingEvent> appender = root().getAppender(name);
        if (!(appender instanceof OutputStreamAppender<ILoggingEvent> started) || !appender.isStarted()) {
            throw new IllegalStateException("Spring Boot configured no started " + name + " appender on the root logger: "
                    + appender + " (properties " + properties + ")");
        }
        appenders.put(name, started);
    }

    /** Boot's appender {@code name} (attached to the root logger unless a peer took its place). */
    @SuppressWarnings("unchecked")
    <A extends OutputStreamAppender<ILoggingEvent>> A appender(String name) {
        OutputStreamAppender<ILoggingEvent> appender = appenders.get(name);
        if (appender == null) {
            throw new IllegalArgumentException("Spring Boot has no appender named " + name + ", only " + appenders.keySet());
        }
        return (A) appender;
    }

    RollingFileAppender<ILoggingEvent> file() {
        return appender(FILE);
    }

    ConsoleAppender<ILoggingEvent> console() {
        return appender(CONSOLE);
    }

    /** The encoder of Boot's appender {@code name}: a started pattern encoder, or Boot's structured encoder. */
    Encoder<ILoggingEvent> encoder(String name) {
        return appender(name).getEncoder();
    }

    /** The filters of Boot's appender {@code name} (its threshold), for an appender that takes its place. */
    List<Filter<ILoggingEvent>> filters(String name) {
        return appender(name).getCopyOfAttachedFiltersList();
    }

    /** Boot's rolling of its file, as the starter takes it over: from the FILE appender's policy and the context. */
    Rolling rolling() {
        RollingFileAppender<ILoggingEvent> file = file();
        if (!(file.getRollingPolicy() instanceof TimeBasedRollingPolicy<?> policy)) {
            throw new IllegalStateException("Spring Boot's FILE appender has no time-based rolling policy: "
                    + file.getRollingPolicy());
        }
        String totalSizeCap = context.getProperty("LOGBACK_ROLLINGPOLICY_TOTAL_SIZE_CAP");
        String maxFileSize = context.getProperty("LOGBACK_ROLLINGPOLICY_MAX_FILE_SIZE");
        return new Rolling(policy.getFileNamePattern(), FileSize.valueOf(maxFileSize == null ? "10MB" : maxFileSize),
                policy.getMaxHistory(), FileSize.valueOf(totalSizeCap == null ? "0" : totalSizeCap),
                policy.isCleanHistoryOnStart());
    }

    /** Rolling settings of Boot's file appender. */
    record Rolling(String fileNamePattern, FileSize maxFileSize, int maxHistory, FileSize totalSizeCap,
            boolean cleanHistoryOnStart) {
    }

    /**
     * Keeps Boot's appender {@code name} on the root logger and detaches and stops the others; returns it.
     * Stopping an appender leaves its encoder started.
     */
    <A extends OutputStreamAppender<ILoggingEvent>> A keepOnly(String name) {
        A kept = appender(name);
        for (String other : List.of(FILE, CONSOLE)) {
            if (!other.equals(name)) {
                remove(other);
            }
        }
        return kept;
    }

    /** Detaches and stops both of Boot's appenders (their encoders stay started), for a peer that takes their place. */
    void removeAll() {
        remove(FILE);
        remove(CONSOLE);
    }

    private void remove(String name) {
        Appender<ILoggingEvent> appender = appender(name);
        root().detachAppender(appender);
        appender.stop();
    }

    private Logger root() {
        return context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    }
}
