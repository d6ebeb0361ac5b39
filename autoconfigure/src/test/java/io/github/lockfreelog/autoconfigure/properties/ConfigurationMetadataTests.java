package io.github.lockfreelog.autoconfigure.properties;

import static java.util.Map.entry;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.lockfreelog.kafka.LockFreeKafkaAppender;
import io.github.lockfreelog.logback.LockFreeAppenderBase;
import io.github.lockfreelog.logback.LockFreeConsoleAppender;
import io.github.lockfreelog.logback.LockFreeFileAppender;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.springframework.beans.BeanWrapperImpl;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.boot.json.JsonParserFactory;
import org.springframework.boot.logging.LogLevel;
import org.springframework.util.unit.DataSize;

/**
 * The configuration metadata that IDEs and {@code spring-boot-properties-migrator} read (generated into
 * {@code target/classes}), against the defaults the documentation gives and the appenders' own defaults.
 */
class ConfigurationMetadataTests {

    /** Each property with a default, with that default as the documentation (docs/spring-boot.md) writes it. */
    private static final Map<String, String> DOCUMENTED = Map.ofEntries(
            entry("lockfreelog.enabled", "true"),
            entry("lockfreelog.loggers", "ROOT"),
            entry("lockfreelog.file.buffer-size", "8MB"),
            entry("lockfreelog.file.buffer-count", "3"),
            entry("lockfreelog.file.backpressure", "BLOCK"),
            entry("lockfreelog.file.max-block-time", "1s"),
            entry("lockfreelog.file.flush-interval", "200ms"),
            entry("lockfreelog.console.enabled", "false"),
            entry("lockfreelog.console.buffer-size", "8MB"),
            entry("lockfreelog.console.buffer-count", "3"),
            entry("lockfreelog.console.backpressure", "BLOCK"),
            entry("lockfreelog.console.max-block-time", "1s"),
            entry("lockfreelog.console.flush-interval", "200ms"),
            entry("lockfreelog.kafka.transactional", "true"),
            entry("lockfreelog.kafka.buffer-size", "8MB"),
            entry("lockfreelog.kafka.buffer-count", "3"),
            entry("lockfreelog.kafka.backpressure", "BLOCK"),
            entry("lockfreelog.kafka.max-block-time", "1s"),
            entry("lockfreelog.kafka.flush-interval", "200ms"),
            entry("lockfreelog.otlp.buffer-size", "8MB"),
            entry("lockfreelog.otlp.buffer-count", "3"),
            entry("lockfreelog.otlp.backpressure", "BLOCK"),
            entry("lockfreelog.otlp.max-block-time", "1s"),
            entry("lockfreelog.otlp.flush-interval", "200ms"));

    /** The properties without a default: the documentation says what leaving them unset does. */
    private static final Set<String> UNSET = Set.of("lockfreelog.file.name", "lockfreelog.file.journal",
            "lockfreelog.file.max-event-size", "lockfreelog.file.drop-below-level", "lockfreelog.console.journal",
            "lockfreelog.console.max-event-size", "lockfreelog.console.drop-below-level", "lockfreelog.kafka.enabled",
            "lockfreelog.kafka.topic", "lockfreelog.kafka.position-topic",
            "lockfreelog.kafka.position-topic-replication-factor", "lockfreelog.kafka.transaction-linger", "lockfreelog.kafka.transactional-id-prefix",
            "lockfreelog.kafka.key", "lockfreelog.kafka.headers", "lockfreelog.kafka.structured-format",
            "lockfreelog.kafka.pattern", "lockfreelog.kafka.journal", "lockfreelog.kafka.max-event-size",
            "lockfreelog.kafka.drop-below-level", "lockfreelog.otlp.enabled", "lockfreelog.otlp.journal",
            "lockfreelog.otlp.max-event-size", "lockfreelog.otlp.drop-below-level");

    /** Maps without a default: empty when unset. */
    private static final Set<String> EMPTY = Set.of("lockfreelog.kafka.producer");

    private final Map<String, Map<String, Object>> properties = new LinkedHashMap<>();
    private final Map<String, Map<String, Object>> hints = new LinkedHashMap<>();

    @SuppressWarnings("unchecked")
    ConfigurationMetadataTests() throws Exception {
        Path classes = Path.of(LockFreeLogProperties.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Path metadata = classes.resolve("META-INF/spring-configuration-metadata.json");
        Map<String, Object> json = JsonParserFactory.getJsonParser().parseMap(Files.readString(metadata));
        ((List<Map<String, Object>>) json.get("properties")).forEach(p -> properties.put((String) p.get("name"), p));
        ((List<Map<String, Object>>) json.get("hints")).forEach(h -> hints.put((String) h.get("name"), h));
    }

    @Test
    void everyPropertyIsDocumentedWithItsDefaultOrAsUnset() {
        Set<String> current = properties.values().stream()
                .filter(p -> ((String) p.get("name")).startsWith("lockfreelog."))
                .map(p -> (String) p.get("name")).collect(Collectors.toCollection(TreeSet::new));
        Set<String> documented = new TreeSet<>(DOCUMENTED.keySet());
        documented.addAll(UNSET);
        documented.addAll(EMPTY);
        assertThat(current).isEqualTo(documented);
    }

    @Test
    void theMetadataGivesEachDocumentedDefaultAndNoneForTheUnset() {
        for (String name : DOCUMENTED.keySet()) {
            assertThat(properties.get(name)).as(name).containsKey("defaultValue");
        }
        for (String name : UNSET) {
            assertThat(properties.get(name)).as(name).doesNotContainKey("defaultValue");
        }
        LockFreeLogProperties documented = bind(DOCUMENTED);
        LockFreeLogProperties metadata = bind(metadataDefaults());
        LockFreeLogProperties unbound = new LockFreeLogProperties();
        for (String name : DOCUMENTED.keySet()) {
            assertThat(value(metadata, name)).as("%s in the metadata", name).isEqualTo(value(documented, name));
            assertThat(value(unbound, name)).as("%s's field", name).isEqualTo(value(documented, name));
        }
        for (String name : UNSET) {
            assertThat(value(unbound, name)).as(name).isNull();
        }
        for (String name : EMPTY) {
            assertThat(properties.get(name)).as(name).doesNotContainKey("defaultValue");
            assertThat(value(unbound, name)).as(name).isEqualTo(Map.of());
        }
    }

    @Test
    void theDefaultsAreTheAppendersOwn() {
        LockFreeLogProperties metadata = bind(metadataDefaults());
        assertSameDefaults(metadata, "lockfreelog.file.", new LockFreeFileAppender());
        assertSameDefaults(metadata, "lockfreelog.console.", new LockFreeConsoleAppender());
        assertSameDefaults(metadata, "lockfreelog.kafka.", new LockFreeKafkaAppender());
        assertThat(value(metadata, "lockfreelog.kafka.transactional")).isEqualTo(new LockFreeKafkaAppender()
                .isTransactional());
        assertThat(value(metadata, "lockfreelog.file.name")).isNull();
        assertThat(new LockFreeFileAppender().getFile()).isNull();
    }

    /** Each engine setting of one target, as the metadata's defaults bind it, is a new appender's own. */
    private static void assertSameDefaults(LockFreeLogProperties metadata, String prefix, LockFreeAppenderBase appender) {
        Map<String, Object> real = new HashMap<>();
        real.put("buffer-size", appender.getBufferSize().getSize());
        real.put("buffer-count", appender.getBufferCount());
        real.put("backpressure", appender.getBackpressure());
        real.put("max-block-time", Duration.ofMillis(appender.getMaxBlockTime().getMilliseconds()));
        real.put("flush-interval", Duration.ofMillis(appender.getFlushInterval().getMilliseconds()));
        real.put("max-event-size", appender.getMaxEventSize());
        real.put("drop-below-level", appender.getDropBelowLevel());
        real.put("journal", appender.getJournal());
        real.forEach((setting, value) -> assertThat(value(metadata, prefix + setting)).as(prefix + setting)
                .isEqualTo(value));
    }

    @Test
    void theDropBelowLevelHintsListEveryLevelTheStarterAccepts() {
        List<String> levels = Stream.of(LogLevel.values()).map(LogLevel::name).toList();
        for (String name : List.of("lockfreelog.file.drop-below-level", "lockfreelog.console.drop-below-level",
                "lockfreelog.kafka.drop-below-level")) {
            assertThat(hints).as(name).containsKey(name);
            @SuppressWarnings("unchecked")
            List<Map<String, Object>> values = (List<Map<String, Object>>) hints.get(name).get("values");
            assertThat(values.stream().map(v -> (String) v.get("value"))).as(name).containsExactlyElementsOf(levels);
        }
    }

    @Test
    void noPropertyIsDeprecated() {
        // nothing was released: no name has users to move from, so none is kept for them
        assertThat(properties.values()).isNotEmpty().allSatisfy(p -> assertThat(p.get("deprecation")).as("%s", p.get("name")).isNull());
    }

    /** The metadata's default values, as a properties file would write them. */
    private Map<String, String> metadataDefaults() {
        Map<String, String> defaults = new HashMap<>();
        properties.forEach((name, property) -> {
            Object value = property.get("defaultValue");
            if (name.startsWith("lockfreelog.") && value != null) {
                defaults.put(name, (value instanceof List<?> list)
                        ? list.stream().map(String::valueOf).collect(Collectors.joining(",")) : String.valueOf(value));
            }
        });
        return defaults;
    }

    private static LockFreeLogProperties bind(Map<String, String> values) {
        return new Binder(new MapConfigurationPropertySource(values))
                .bind(LockFreeLogProperties.PREFIX, LockFreeLogProperties.class).orElseGet(LockFreeLogProperties::new);
    }

    /** The value of {@code lockfreelog.a.b-c} in the properties: the bean property {@code a.bC}. */
    private static Object value(LockFreeLogProperties bound, String name) {
        String path = Stream.of(name.substring(LockFreeLogProperties.PREFIX.length() + 1).split("\\."))
                .map(ConfigurationMetadataTests::camel).collect(Collectors.joining("."));
        Object value = new BeanWrapperImpl(bound).getPropertyValue(path);
        return (value instanceof DataSize size) ? size.toBytes() : value;
    }

    private static String camel(String kebab) {
        String[] parts = kebab.split("-");
        return parts[0] + Stream.of(parts).skip(1).map(p -> Character.toUpperCase(p.charAt(0)) + p.substring(1))
                .collect(Collectors.joining());
    }
}
