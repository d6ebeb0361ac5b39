package io.github.lockfreelog.autoconfigure.takeover;

import io.github.lockfreelog.autoconfigure.properties.InvalidLockFreeLogPropertyException;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.io.DefaultResourceLoader;
import org.springframework.core.io.Resource;
import org.springframework.util.StringUtils;
import org.springframework.util.unit.DataSize;

/**
 * The producer configs of the Kafka sink, as Spring Boot's {@code KafkaProperties.buildProducerProperties()} builds
 * them from {@code spring.kafka.*}, bound with Spring Boot's {@link Binder} while logging starts (before any
 * application context exists, and whether spring-kafka is on the class path or not): the common connection
 * ({@code bootstrap-servers}, {@code client-id}, {@code ssl.*}, {@code security.protocol}, {@code properties.*}), then
 * the producer's ({@code spring.kafka.producer.*}: the same, and {@code batch-size}, {@code buffer-memory},
 * {@code compression-type}, {@code retries}), then {@code lockfreelog.kafka.producer.*} over them all. Spring Boot's
 * {@code acks}, serializers and {@code transaction-id-prefix} are left out: the sink sets its own (idempotent,
 * transactional, {@code acks=all}, raw bytes, one transactional id per journal slot). No Kafka type is named here, so
 * this class loads without lockfreelog-kafka.
 */
final class KafkaConnection {

    /** Spring Boot's default, as its {@code KafkaProperties} has it. */
    static final String DEFAULT_BOOTSTRAP_SERVERS = "localhost:9092";

    private static final String SPRING = "spring.kafka.";
    private static final String PRODUCER = SPRING + "producer.";
    private static final String OWN = AppenderSettings.KAFKA + "producer";

    /** Spring Boot's SSL properties and the producer configs they become ({@code KafkaProperties.Ssl}). */
    private static final Map<String, String> SSL = sslConfigs();

    private final ConfigurableEnvironment environment;
    private final Binder binder;

    private KafkaConnection(ConfigurableEnvironment environment) {
        this.environment = environment;
        this.binder = Binder.get(environment);
    }

    /**
     * The producer configs this environment gives.
     *
     * @throws InvalidLockFreeLogPropertyException when a value cannot be used (a size, a key store that is no file)
     */
    static Map<String, Object> producerConfigs(ConfigurableEnvironment environment, Map<String, String> own) {
        return new KafkaConnection(environment).build(own);
    }

    private Map<String, Object> build(Map<String, String> own) {
        Map<String, Object> configs = new LinkedHashMap<>();
        // KafkaProperties.buildCommonProperties()
        configs.put("bootstrap.servers", servers(SPRING + "bootstrap-servers", DEFAULT_BOOTSTRAP_SERVERS));
        putString(configs, "client.id", SPRING + "client-id");
        putSsl(configs, SPRING + "ssl.");
        putString(configs, "security.protocol", SPRING + "security.protocol");
        configs.putAll(map(SPRING + "properties"));
        // KafkaProperties.Producer.buildProperties(), over the common ones
        putSize(configs, "batch.size", PRODUCER + "batch-size");
        String producerServers = servers(PRODUCER + "bootstrap-servers", null);
        if (producerServers != null) {
            configs.put("bootstrap.servers", producerServers);
        }
        putSize(configs, "buffer.memory", PRODUCER + "buffer-memory");
        putString(configs, "client.id", PRODUCER + "client-id");
        putString(configs, "compression.type", PRODUCER + "compression-type");
        putString(configs, "retries", PRODUCER + "retries");
        putSsl(configs, PRODUCER + "ssl.");
        putString(configs, "security.protocol", PRODUCER + "security.protocol");
        configs.putAll(map(PRODUCER + "properties"));
        // lockfreelog.kafka.producer.*, over Spring Boot's
        if (own != null) {
            own.forEach((name, value) -> configs.put(name.trim(), value));
        }
        return configs;
    }

    /** The SSL bundle a property names ({@code spring.kafka.ssl.bundle}), which logging cannot reach, or {@code null}. */
    static String sslBundleProperty(ConfigurableEnvironment environment) {
        Binder binder = Binder.get(environment);
        for (String property : List.of(SPRING + "ssl.bundle", PRODUCER + "ssl.bundle")) {
            if (StringUtils.hasText(binder.bind(property, String.class).orElse(null))) {
                return property;
            }
        }
        return null;
    }

    private String servers(String property, String fallback) {
        List<String> servers = bind(property, Bindable.listOf(String.class), null);
        if (servers == null || servers.isEmpty()) {
            return fallback;
        }
        return String.join(",", servers.stream().map(String::trim).toList());
    }

    private void putString(Map<String, Object> configs, String config, String property) {
        String value = bind(property, Bindable.of(String.class), null);
        if (StringUtils.hasText(value)) {
            configs.put(config, value.trim());
        }
    }

    private void putSize(Map<String, Object> configs, String config, String property) {
        DataSize size = bind(property, Bindable.of(DataSize.class), "a size such as 16KB or 32MB");
        if (size != null) {
            long bytes = size.toBytes();
            if (bytes > Integer.MAX_VALUE && "batch.size".equals(config)) {
                throw InvalidLockFreeLogPropertyException.of(environment, property, size, "a size below 2GB");
            }
            configs.put(config, "batch.size".equals(config) ? (Object) (int) bytes : (Object) bytes);
        }
    }

    private void putSsl(Map<String, Object> configs, String prefix) {
        SSL.forEach((property, config) -> {
            String value = bind(prefix + property, Bindable.of(String.class), null);
            if (!StringUtils.hasText(value)) {
                return;
            }
            configs.put(config, property.endsWith("-location") ? path(prefix + property, value.trim()) : value);
        });
    }

    /** A key or trust store's location as a file path, as Spring Boot resolves its {@code Resource}. */
    private String path(String property, String location) {
        Resource resource = new DefaultResourceLoader(KafkaConnection.class.getClassLoader()).getResource(location);
        try {
            return resource.getFile().getAbsolutePath();
        } catch (IOException | RuntimeException ex) {
            throw InvalidLockFreeLogPropertyException.of(environment, property, location,
                    "a key or trust store in the file system (file: or classpath: of an unpacked class path): "
                            + ex.getMessage());
        }
    }

    private Map<String, String> map(String property) {
        Map<String, String> bound = bind(property, Bindable.mapOf(String.class, String.class), null);
        return (bound != null) ? bound : Map.of();
    }

    private <T> T bind(String property, Bindable<T> type, String allowed) {
        try {
            return binder.bind(property, type).orElse(null);
        } catch (BindException ex) {
            Throwable cause = (ex.getCause() != null) ? ex.getCause() : ex;
            throw InvalidLockFreeLogPropertyException.of(environment, property, null,
                    (allowed != null ? allowed : "a value of its type") + " (" + cause.getMessage() + ")");
        }
    }

    private static Map<String, String> sslConfigs() {
        Map<String, String> ssl = new LinkedHashMap<>();
        ssl.put("key-password", "ssl.key.password");
        ssl.put("key-store-certificate-chain", "ssl.keystore.certificate.chain");
        ssl.put("key-store-key", "ssl.keystore.key");
        ssl.put("key-store-location", "ssl.keystore.location");
        ssl.put("key-store-password", "ssl.keystore.password");
        ssl.put("key-store-type", "ssl.keystore.type");
        ssl.put("trust-store-certificates", "ssl.truststore.certificates");
        ssl.put("trust-store-location", "ssl.truststore.location");
        ssl.put("trust-store-password", "ssl.truststore.password");
        ssl.put("trust-store-type", "ssl.truststore.type");
        ssl.put("protocol", "ssl.protocol");
        return Map.copyOf(ssl);
    }
}
