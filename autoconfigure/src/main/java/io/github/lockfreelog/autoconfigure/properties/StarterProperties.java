package io.github.lockfreelog.autoconfigure.properties;

import io.github.lockfreelog.files.FileIdentity;
import java.nio.file.Paths;
import java.util.Collection;
import java.util.List;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.logging.LogFile;
import org.springframework.core.annotation.MergedAnnotation;
import org.springframework.core.annotation.MergedAnnotations.SearchStrategy;
import org.springframework.core.annotation.MergedAnnotations;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.util.ClassUtils;
import org.springframework.util.StringUtils;

/**
 * The starter's settings as one run's environment gives them, bound while logging starts (before any application
 * context exists): whether it is on, its {@code lockfreelog.*} properties, and the names a report uses for them.
 */
public final class StarterProperties {

    /**
     * The auto-configuration that {@code spring.autoconfigure.exclude} names to turn the starter off; named, not
     * referenced, so that this package does not depend on the auto-configurations above it.
     */
    static final String AUTO_CONFIGURATION = "io.github.lockfreelog.autoconfigure.LockFreeLogAutoConfiguration";

    /**
     * The file names Spring Boot looks for on the class path when {@code logging.config} is unset, in its order:
     * Logback's own names first, then their {@code -spring} variants (Spring Boot's {@code LogbackLoggingSystem}).
     */
    private static final List<String> CONVENTIONS = List.of("logback-test.groovy", "logback-test.xml", "logback.groovy",
            "logback.xml", "logback-test-spring.groovy", "logback-test-spring.xml", "logback-spring.groovy",
            "logback-spring.xml");

    private static final String P = LockFreeLogProperties.PREFIX + ".";

    private final ConfigurableEnvironment environment;

    /** What turns the starter off, or {@code null} while it is on. */
    private final String off;

    private LockFreeLogProperties properties;

    private StarterProperties(ConfigurableEnvironment environment, String off) {
        this.environment = environment;
        this.off = off;
    }

    /** The settings of this environment; {@code lockfreelog.*} is bound when first asked for. */
    public static StarterProperties of(ConfigurableEnvironment environment) {
        return of(environment, List.of());
    }

    /**
     * The settings of this environment for a run of the application's {@code sources}
     * ({@code SpringApplication.getAllSources()}), whose {@code @EnableAutoConfiguration} exclusions (also those of
     * {@code @SpringBootApplication}) turn the starter off as {@code spring.autoconfigure.exclude} does.
     */
    public static StarterProperties of(ConfigurableEnvironment environment, Collection<?> sources) {
        Binder binder = Binder.get(environment);
        String off;
        if (!binder.bind(P + "enabled", Boolean.class).orElse(true)) {
            off = "lockfreelog.enabled=false";
        } else if (isExcluded(binder)) {
            off = "spring.autoconfigure.exclude names " + AUTO_CONFIGURATION;
        } else {
            off = excludingSource(sources);
        }
        return new StarterProperties(environment, off);
    }

    /** Which of {@code sources} excludes the auto-configuration in its annotations, said in a clause; or {@code null}. */
    private static String excludingSource(Collection<?> sources) {
        for (Object source : sources) {
            Class<?> type = (source instanceof Class<?> c) ? c : (source instanceof String name) ? classNamed(name) : null;
            if (type == null) {
                continue;
            }
            boolean excludes = MergedAnnotations.from(type, SearchStrategy.TYPE_HIERARCHY)
                    .stream(EnableAutoConfiguration.class)
                    .anyMatch(annotation -> names(annotation, "exclude") || names(annotation, "excludeName"));
            if (excludes) {
                return "the exclude of @EnableAutoConfiguration (or @SpringBootApplication) on " + type.getName()
                        + " names " + AUTO_CONFIGURATION;
            }
        }
        return null;
    }

    private static boolean names(MergedAnnotation<EnableAutoConfiguration> annotation, String attribute) {
        return List.of(annotation.getStringArray(attribute)).contains(AUTO_CONFIGURATION);
    }

    /** The class a source given by name is, as Spring Boot loads such a source; {@code null} for another source. */
    private static Class<?> classNamed(String name) {
        try {
            return ClassUtils.forName(name, StarterProperties.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError | IllegalArgumentException ex) {
            return null; // a package, or a resource such as an XML file
        }
    }

    /** Whether {@code spring.autoconfigure.exclude} names the auto-configuration: then the starter is off. */
    private static boolean isExcluded(Binder binder) {
        return binder.bind("spring.autoconfigure.exclude", Bindable.listOf(String.class)).orElse(List.of()).stream()
                .anyMatch(excluded -> excluded != null && AUTO_CONFIGURATION.equals(excluded.trim()));
    }

    /** Whether the starter is on: {@code lockfreelog.enabled} is not false and the auto-configuration not excluded. */
    public boolean enabled() {
        return off == null;
    }

    /** What turns the starter off ("lockfreelog.enabled=false", ...), or {@code null} while it is on. */
    public String off() {
        return off;
    }

    /** The {@code lockfreelog.*} properties, bound on the first call. */
    public LockFreeLogProperties properties() {
        if (properties == null) {
            properties = Binder.get(environment).bind(LockFreeLogProperties.PREFIX, LockFreeLogProperties.class)
                    .orElseGet(LockFreeLogProperties::new);
        }
        return properties;
    }

    /**
     * The property that names the log file: {@code lockfreelog.file.name} when set, else Spring Boot's.
     */
    public String fileProperty() {
        return StringUtils.hasText(properties().getFile().getName()) ? P + "file.name" : bootFileProperty();
    }

    /** Spring Boot's property that gives its log file: {@code logging.file.name}, else {@code logging.file.path}. */
    private String bootFileProperty() {
        return StringUtils.hasText(environment.getProperty(LogFile.FILE_NAME_PROPERTY)) ? LogFile.FILE_NAME_PROPERTY
                : LogFile.FILE_PATH_PROPERTY;
    }

    /**
     * The log file to write: Spring Boot's ({@code logging.file.name}, else {@code logging.file.path}/spring.log),
     * else {@code lockfreelog.file.name}; {@code null} when none is set. One application writes one log file.
     *
     * @throws InvalidLockFreeLogPropertyException when {@code lockfreelog.file.name} and Spring Boot's log file are
     * two different files
     */
    public String fileName() {
        String own = properties().getFile().getName();
        LogFile boot = LogFile.get(environment);
        if (!StringUtils.hasText(own)) {
            return (boot != null) ? boot.toString() : null;
        }
        if (boot != null && !FileIdentity.canonical(Paths.get(own.trim()))
                .equals(FileIdentity.canonical(Paths.get(boot.toString())))) {
            throw InvalidLockFreeLogPropertyException.of(environment, P + "file.name", own, "the file "
                    + bootFileProperty() + " names (\"" + boot + "\"), since Spring Boot writes that one and the"
                    + " starter writes it lock-free (one application, one log file); or unset " + bootFileProperty());
        }
        return own.trim();
    }

    /**
     * The loggers to attach the appender to, trimmed.
     *
     * @throws InvalidLockFreeLogPropertyException when there is none, or one is blank
     */
    public List<String> loggers() {
        List<String> loggers = properties().getLoggers();
        List<String> names = (loggers != null)
                ? loggers.stream().map(String::trim).toList() : List.of();
        if (names.isEmpty() || names.stream().anyMatch(String::isEmpty)) {
            throw InvalidLockFreeLogPropertyException.of(environment, P + "loggers", loggers,
                    "one or more logger names, e.g. ROOT or com.example");
        }
        return names;
    }

    /**
     * The Logback configuration's location for a message ({@code " (classpath:logback-spring.xml)"}): {@code
     * logging.config} when set, else the first file of Spring Boot's conventions on the class path (which Spring Boot
     * then read), else "" (Spring Boot's own configuration).
     */
    public String configurationName() {
        String location = environment.getProperty("logging.config");
        if (StringUtils.hasText(location)) {
            return " (" + location.trim() + ")";
        }
        ClassLoader loader = ClassUtils.getDefaultClassLoader();
        return CONVENTIONS.stream().filter(name -> loader != null && loader.getResource(name) != null).findFirst()
                .map(name -> " (classpath:" + name + ")").orElse("");
    }
}
