package io.github.lockfreelog.autoconfigure.logging;

import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.origin.Origin;
import org.springframework.boot.origin.OriginLookup;
import org.springframework.boot.origin.OriginTrackedValue;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.Environment;
import org.springframework.core.env.MapPropertySource;

/**
 * The old names of the file's settings, from when they were at the root ({@code lockfreelog.buffer-size}, ...,
 * {@code lockfreelog.file} for its name), given to their new names ({@code lockfreelog.file.*}) before anything binds
 * them. The configuration metadata lists them, deprecated with their replacement, for IDEs and
 * {@code spring-boot-properties-migrator} ({@link RemovedProperties#renamed()}); this puts the value of each old name the
 * environment sets under its new name, in a property source of the lowest precedence (as that migrator does), so that
 * the starter and the context's {@link LockFreeLogProperties} both see it. A new name that is set itself wins, with one
 * WARN line.
 */
final class RenamedProperties {

    /** Name of the property source holding the old names' values under their new names. */
    static final String SOURCE = "lockfreelog-renamed-properties";

    private RenamedProperties() {
    }

    /**
     * Gives the value of each old name the environment sets to its new name, unless the new name is set too.
     *
     * @param renamed each old name with its new name
     */
    static void apply(ConfigurableEnvironment environment, Map<String, String> renamed) {
        environment.getPropertySources().remove(SOURCE);
        Map<String, Object> values = new LinkedHashMap<>();
        Map<String, String> oldNames = new LinkedHashMap<>();
        renamed.forEach((old, replacement) -> {
            ConfigurationProperty written = InvalidLockFreeLogPropertyException.find(environment, old);
            if (written == null) {
                return;
            }
            ConfigurationProperty current = InvalidLockFreeLogPropertyException.find(environment, replacement);
            if (current != null) {
                LoggerFactory.getLogger(LockFreeLogRuntime.class).warn("lockfreelog: {} ({}) is the old name of {} ({}),"
                        + " which is set too: {} is used; remove {}", old, written.getValue(), replacement,
                        current.getValue(), replacement, old);
                return;
            }
            values.put(replacement, OriginTrackedValue.of(written.getValue(), written.getOrigin()));
            oldNames.put(replacement, old);
        });
        if (!values.isEmpty()) {
            environment.getPropertySources().addLast(new Source(values, oldNames));
        }
    }

    /** The name a property's value was written under: its old name where it came from one, else itself. */
    static String asWritten(Environment environment, String property) {
        if (environment instanceof ConfigurableEnvironment configurable
                && configurable.getPropertySources().get(SOURCE) instanceof Source source) {
            return source.oldNames.getOrDefault(property, property);
        }
        return property;
    }

    /** The old names' values under their new names, each with the origin of the old name. */
    private static final class Source extends MapPropertySource implements OriginLookup<String> {

        private final Map<String, String> oldNames;

        Source(Map<String, Object> values, Map<String, String> oldNames) {
            super(SOURCE, values);
            this.oldNames = oldNames;
        }

        @Override
        public Object getProperty(String name) {
            Object value = super.getProperty(name);
            return (value instanceof OriginTrackedValue tracked) ? tracked.getValue() : value;
        }

        @Override
        public Origin getOrigin(String name) {
            return (super.getProperty(name) instanceof OriginTrackedValue tracked) ? tracked.getOrigin() : null;
        }
    }
}
