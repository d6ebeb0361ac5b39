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
 * ({@value #METADATA}, which IDEs and {@code spring-boot-properties-migrator} read too), so they are listed once. The
 * renamed ones, deprecated with level {@code warning} and a replacement, are read from there too
 * ({@link #renamed()}, for {@link RenamedProperties}).
 */
final class RemovedProperties {

    /** Where the removed properties are listed, with their replacement or the reason there is none. */
    static final String METADATA = "META-INF/additional-spring-configuration-metadata.json";

    private static final String PREFIX = LockFreeLogProperties.PREFIX + ".";

    /** Each removed property with what to set instead. */
    private final Map<String, String> instead;

    /** Each renamed property with its new name. */
    private final Map<String, String> renamed;

    private RemovedProperties(Map<String, String> instead, Map<String, String> renamed) {
        this.instead = instead;
        this.renamed = renamed;
    }

    /**
     * The removed properties this jar's metadata lists. Other libraries ship a file of that name too: the one beside
     * this class is read; where no file can be told to be beside it (a native image), each file that parses.
     */
    static RemovedProperties load(ClassLoader classLoader) {
        Map<String, String> instead = new LinkedHashMap<>();
        Map<String, String> renamed = new LinkedHashMap<>();
        try {
            List<URL> all = Collections.list(classLoader.getResources(METADATA));
            String root = root(classLoader);
            List<URL> own = all.stream().filter(url -> root != null && url.toString().startsWith(root)).toList();
            for (URL url : own.isEmpty() ? all : own) {
                try (InputStream in = url.openStream()) {
                    read(new String(in.readAllBytes(), StandardCharsets.UTF_8), instead, renamed);
                } catch (JsonParseException ex) {
                    // another library's file, in a form the small parser does not take: it lists none of ours
                }
            }
        } catch (IOException ex) {
            throw new UncheckedIOException("lockfreelog: cannot read " + METADATA, ex);
        }
        return new RemovedProperties(Collections.unmodifiableMap(instead), Collections.unmodifiableMap(renamed));
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
    private static void read(String json, Map<String, String> instead, Map<String, String> renamed) {
        Object properties = new BasicJsonParser().parseMap(json.replaceAll("\\s*\\R\\s*", "")).get("properties");
        if (!(properties instanceof List<?> list)) {
            return;
        }
        for (Object entry : list) {
            if (entry instanceof Map<?, ?> property && property.get("name") instanceof String name
                    && name.startsWith(PREFIX) && property.get("deprecation") instanceof Map<?, ?> deprecation) {
                Object replacement = deprecation.get("replacement");
                if ("error".equals(deprecation.get("level"))) {
                    instead.put(name, (replacement != null) ? (String) replacement : insteadFromReason(deprecation));
                } else if (replacement instanceof String newName) {
                    renamed.put(name, newName);
                }
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

    /** Each renamed property (deprecated, still working) with its new name. */
    Map<String, String> renamed() {
        return renamed;
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
