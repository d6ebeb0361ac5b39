package io.github.lockfreelog.autoconfigure.properties;

import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.origin.Origin;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.Environment;

/**
 * A property whose value the lock-free log file cannot use, found while logging starts. It is Spring Boot's
 * {@link InvalidConfigurationPropertyValueException} and carries what Spring Boot's report cannot find that early
 * (before an application context exists): the value as written and where it was written.
 * {@link io.github.lockfreelog.autoconfigure.LockFreeLogFailureAnalyzer} turns it into the start-up report.
 */
public class InvalidLockFreeLogPropertyException extends InvalidConfigurationPropertyValueException {

    private final transient Object value;
    private final transient Origin origin;
    private final String allowed;

    /**
     * @param property full name of the property, e.g. {@code lockfreelog.buffer-size}
     * @param value the value as written, or {@code null} when the property is not set
     * @param origin where the value was written, or {@code null} when unknown
     * @param allowed the values that are allowed, as a sentence fragment
     */
    public InvalidLockFreeLogPropertyException(String property, Object value, Origin origin, String allowed) {
        super(property, value, allowed);
        this.value = value;
        this.origin = origin;
        this.allowed = allowed;
    }

    /**
     * For {@code property}, with its value as written and its origin looked up in the environment.
     */
    public static InvalidLockFreeLogPropertyException of(Environment environment, String property, Object fallbackValue,
            String allowed) {
        ConfigurationProperty written = find(environment, property);
        return (written != null)
                ? new InvalidLockFreeLogPropertyException(property, written.getValue(), written.getOrigin(), allowed)
                : new InvalidLockFreeLogPropertyException(property, fallbackValue, null, allowed);
    }

    /** The property as written in the environment's sources, or {@code null} when no source sets it. */
    public static ConfigurationProperty find(Environment environment, String property) {
        if (!(environment instanceof ConfigurableEnvironment configurable)) {
            return null;
        }
        ConfigurationPropertyName name = ConfigurationPropertyName.of(property);
        for (ConfigurationPropertySource source : ConfigurationPropertySources.get(configurable)) {
            ConfigurationProperty found = source.getConfigurationProperty(name);
            if (found != null) {
                return found;
            }
        }
        return null;
    }

    public String getProperty() {
        return getName();
    }

    @Override
    public Object getValue() {
        return value;
    }

    public Origin getOrigin() {
        return origin;
    }

    public String getAllowed() {
        return allowed;
    }
}
