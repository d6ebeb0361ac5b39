package io.github.lockfreelog.autoconfigure;

import ch.qos.logback.core.spi.PropertyContainer;
import ch.qos.logback.core.spi.ScanException;
import ch.qos.logback.core.util.OptionHelper;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.springframework.boot.logging.LoggingSystem;
import org.springframework.boot.logging.LoggingSystemProperties;
import org.springframework.boot.logging.LoggingSystemProperty;
import org.springframework.core.env.Environment;
import org.springframework.core.env.PropertyResolver;

/**
 * Variables for Logback's {@code ${...}} substitution in the starter's pattern and threshold, looked up as
 * Spring Boot's own file appender would see them, but from the environment at hand:
 *
 * <ol>
 * <li>Spring Boot's logging variables ({@code LOG_LEVEL_PATTERN}, {@code LOG_DATEFORMAT_PATTERN},
 * {@code LOG_CORRELATION_PATTERN}, {@code LOG_EXCEPTION_CONVERSION_WORD}, {@code FILE_LOG_THRESHOLD}, {@code PID},
 * ...) computed by Spring Boot's {@link LoggingSystemProperties} from {@code logging.*}, without writing them
 * anywhere. Spring Boot also writes them as system properties, but only the first run in a JVM wins there, and a
 * context built by hand has none of them;</li>
 * <li>any other name: a Spring property (Spring's {@code ${name:default}} form works too);</li>
 * <li>then, as in Logback: the logger context's properties, system properties, environment variables.</li>
 * </ol>
 *
 * A name nothing defines becomes {@code NAME_IS_UNDEFINED}, as Logback writes it; {@code ${NAME:-default}} takes
 * the default.
 */
final class LockFreeLogVariables implements PropertyContainer {

    /** Spring Boot's file pattern template, from its logback {@code defaults.xml} ({@code FILE_LOG_PATTERN}). */
    static final String FILE_LOG_PATTERN = "%d{${LOG_DATEFORMAT_PATTERN:-yyyy-MM-dd'T'HH:mm:ss.SSSXXX}} "
            + "${LOG_LEVEL_PATTERN:-%5p} ${PID:-} --- %esb(){APPLICATION_NAME}%esb{APPLICATION_GROUP}[%t] "
            + "${LOG_CORRELATION_PATTERN:-}%-40.40logger{39} : %m%n${LOG_EXCEPTION_CONVERSION_WORD:-%wEx}";

    /** Spring Boot's file threshold, as its logback {@code defaults.xml} sets it. */
    static final String FILE_LOG_THRESHOLD = "${FILE_LOG_THRESHOLD:-TRACE}";

    /** What Spring Boot's Logback system uses for {@code LOG_CORRELATION_PATTERN} when a correlation id is expected. */
    private static final String DEFAULT_CORRELATION_PATTERN = "%correlationId";

    private static final Set<String> BOOT_NAMES = Arrays.stream(LoggingSystemProperty.values())
            .map(LoggingSystemProperty::getEnvironmentVariableName).collect(Collectors.toUnmodifiableSet());

    private final Map<String, String> boot;
    private final PropertyResolver environment;

    LockFreeLogVariables(PropertyResolver environment) {
        this.environment = environment;
        this.boot = bootVariables(environment);
    }

    /** Substitutes {@code ${...}} in {@code template}: these variables first, then Logback's usual sources. */
    String substitute(String template, PropertyContainer loggerContext) throws ScanException {
        return OptionHelper.substVars(template, this, loggerContext);
    }

    @Override
    public String getProperty(String key) {
        if (boot.containsKey(key)) {
            return boot.get(key);
        }
        if (BOOT_NAMES.contains(key)) {
            return null; // not set in logging.*: Logback's sources (a -D or an environment variable) decide
        }
        try {
            String placeholder = "${" + key + "}";
            String value = environment.resolvePlaceholders(placeholder);
            return placeholder.equals(value) ? null : value;
        } catch (IllegalArgumentException ex) {
            return null;
        }
    }

    @Override
    public void addSubstitutionProperty(String key, String value) {
        throw new UnsupportedOperationException();
    }

    @Override
    public Map<String, String> getCopyOfPropertyMap() {
        return new HashMap<>(boot);
    }

    private static Map<String, String> bootVariables(PropertyResolver resolver) {
        Map<String, String> values = new HashMap<>();
        if (resolver instanceof Environment environment) {
            try {
                new LoggingSystemProperties(environment, name -> defaultValue(environment, name), (name, value) -> {
                    if (value != null) {
                        values.put(name, value);
                    }
                }).apply(null);
            } catch (RuntimeException ex) {
                // An Environment that is not a ConfigurableEnvironment resolves strictly; keep what was read.
            }
        }
        return values;
    }

    /** As Spring Boot's Logback system: {@code %correlationId} when tracing says a correlation id is expected. */
    private static String defaultValue(Environment environment, String property) {
        if (!LoggingSystemProperty.CORRELATION_PATTERN.getApplicationPropertyName().equals(property)) {
            return null;
        }
        try {
            return environment.getProperty(LoggingSystem.EXPECT_CORRELATION_ID_PROPERTY, Boolean.class, false)
                    ? DEFAULT_CORRELATION_PATTERN : null;
        } catch (RuntimeException ex) {
            return null;
        }
    }
}
