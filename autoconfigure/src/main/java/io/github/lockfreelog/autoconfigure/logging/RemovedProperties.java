package io.github.lockfreelog.autoconfigure.logging;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.json.BasicJsonParser;
import org.springframework.boot.json.JsonParseException;
import org.springframework.core.env.ConfigurableEnvironment;

/**
 * Fails start-up when a removed {@code lockfreelog.*} property is set, naming what to set instead. The properties are
 * those the configuration metadata marks as deprecated with level {@code error}
 * ({@value #METADATA}, which IDEs and {@code spring-boot-properties-migrator} read too), so they are listed once.
 */
final class RemovedProperties {

    /** Where the removed properties are listed, with their replacement or the reason there is none. */
    static final String METADATA = "META-INF/additional-spring-configuration-metadata.json";

    private static final String PREFIX = LockFreeLogProperties.PREFIX + ".";

    /** Each removed property with what to set instead. */
    private final Map<String, String> instead;

    private RemovedProperties(Map<String, String> instead) {
        this.instead = instead;
    }

    /**
     * The removed properties this jar's metadata lists. Other libraries ship a file of that name too: the one beside
     * this class is read; where no file can be told to be beside it (a native image), each file that parses.
     */
    static RemovedProperties load(ClassLoader classLoader) {
        Map<String, String> instead = new LinkedHashMap<>();
        try {
            List<URL> all = Collections.list(classLoader.getResources(METADATA));
            String root = root(classLoader);
            List<URL> own = all.stream().filter(url -> root != null && url.toString().startsWith(root)).toList();
            for (URL url : own.isEmpty() ? all : own) {
                try (InputStream in = url.openStream()) {
                    read(new String(in.readAllBytes(), StandardCharsets.UTF_8), instead);
                } catch (JsonParseException ex) {
                    // another library's file, in a form the small parser does not take: it lists none of ours
                }
            }
        } catch (IOException ex) {
            throw new UncheckedIOException("lockfreelog: cannot read " + METADATA, ex);
        }
        return new RemovedProperties(Collections.unmodifiableMap(instead));
    }

    /** Where this class was loaded from (a jar's or a folder's URL), or {@code null}. */
    private static String root(ClassLoader classLoader) {
        String self = RemovedProperties.class.getName().replace('.', '/') + ".class";
        URL url = classLoader.getResource(self);
        return (url != null && url.toString().endsWith(self))
                ? url.toString().substring(0, url.toString().length() - self.length()) : null;
    }

    /**
     * Reads one metadata file with Spring Boot's own small parser (no Jackson at start-up), on the file's lines joined:
     * that parser takes a list's elements whole only without the line breaks between them.
     */
    private static void read(String json, Map<String, String> instead) {
        Object properties = new BasicJsonParser().parseMap(json.replaceAll("\\s*\\R\\s*", "")).get("properties");
        if (!(properties instanceof List<?> list)) {
            return;
        }
        for (Object entry : list) {
            if (entry instanceof Map<?, ?> property && property.get("name") instanceof String name
                    && name.startsWith(PREFIX) && property.get("deprecation") instanceof Map<?, ?> deprecation
                    && "error".equals(deprecation.get("level"))) {
                Object replacement = deprecation.get("replacement");
                instead.put(name, (replacement != null) ? (String) replacement : insteadFromReason(deprecation));
            }
        }
    }

    /** Without a replacement property, the reason says what to do, as one clause: "Set x." reads "x". */
    private static String insteadFromReason(Map<?, ?> deprecation) {
        String reason = String.valueOf(deprecation.get("reason")).strip();
        if (reason.endsWith(".")) {
            reason = reason.substring(0, reason.length() - 1);
        }
        return reason.startsWith("Set ") ? reason.substring(4) : "nothing: " + reason;
    }

    /** The names of the removed properties. */
    Set<String> names() {
        return instead.keySet();
    }

    /**
     * @throws InvalidLockFreeLogPropertyException for the first removed property the environment sets
     */
    void check(ConfigurableEnvironment environment) {
        for (Map.Entry<String, String> removed : instead.entrySet()) {
            ConfigurationProperty written = InvalidLockFreeLogPropertyException.find(environment, removed.getKey());
            if (written != null) {
                throw new InvalidLockFreeLogPropertyException(removed.getKey(), written.getValue(), written.getOrigin(),
                        "nothing: this property was removed, the lock-free file takes its lines and rolling from Spring"
                                + " Boot's file settings; set " + removed.getValue() + " instead");
            }
        }
    }
}
