package io.github.lockfreelog.autoconfigure.takeover;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import io.github.lockfreelog.autoconfigure.properties.InvalidLockFreeLogPropertyException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

/** The producer configs of the Kafka sink, from Spring Boot's spring.kafka.* as its KafkaProperties builds them. */
class KafkaConnectionTests {

    @TempDir
    Path dir;

    @Test
    void nothingSetGivesSpringBootsDefaultBootstrapServersAlone() {
        assertThat(configs(Map.of(), Map.of())).containsExactly(Map.entry("bootstrap.servers", "localhost:9092"));
    }

    @Test
    void theCommonPropertiesThenTheProducersThenLockfreelogsEachOverTheOneBefore() throws Exception {
        Path trustStore = Files.createFile(dir.resolve("trust.p12"));
        Map<String, Object> set = new HashMap<>();
        set.put("spring.kafka.bootstrap-servers", "a:1,b:2");
        set.put("spring.kafka.client-id", "common");
        set.put("spring.kafka.security.protocol", "SSL");
        set.put("spring.kafka.ssl.trust-store-location", "file:" + trustStore);
        set.put("spring.kafka.ssl.trust-store-password", "secret");
        set.put("spring.kafka.properties.sasl.mechanism", "PLAIN");
        set.put("spring.kafka.properties.linger.ms", "1");
        set.put("spring.kafka.producer.client-id", "producer");
        set.put("spring.kafka.producer.compression-type", "lz4");
        set.put("spring.kafka.producer.batch-size", "32KB");
        set.put("spring.kafka.producer.buffer-memory", "64MB");
        set.put("spring.kafka.producer.acks", "1");
        set.put("spring.kafka.producer.key-serializer", "org.apache.kafka.common.serialization.StringSerializer");
        set.put("spring.kafka.producer.transaction-id-prefix", "tx-");
        set.put("spring.kafka.producer.security.protocol", "SASL_SSL");
        set.put("spring.kafka.producer.properties.linger.ms", "5");
        Map<String, Object> configs = configs(set, Map.of("compression.type", "zstd", "delivery.timeout.ms", "30000"));

        assertThat(configs).containsEntry("bootstrap.servers", "a:1,b:2").containsEntry("client.id", "producer")
                .containsEntry("security.protocol", "SASL_SSL")
                .containsEntry("ssl.truststore.location", trustStore.toAbsolutePath().toString())
                .containsEntry("ssl.truststore.password", "secret").containsEntry("sasl.mechanism", "PLAIN")
                .containsEntry("linger.ms", "5").containsEntry("batch.size", 32 * 1024)
                .containsEntry("buffer.memory", 64L * 1024 * 1024).containsEntry("compression.type", "zstd")
                .containsEntry("delivery.timeout.ms", "30000")
                .doesNotContainKeys("acks", "key.serializer", "transactional.id");
    }

    @Test
    void theProducersOwnBootstrapServersWin() {
        assertThat(configs(Map.of("spring.kafka.bootstrap-servers", "a:1", "spring.kafka.producer.bootstrap-servers",
                "p:9"), Map.of())).containsEntry("bootstrap.servers", "p:9");
    }

    @Test
    void aSizeThatIsNoneIsNamed() {
        assertThatExceptionOfType(InvalidLockFreeLogPropertyException.class)
                .isThrownBy(() -> configs(Map.of("spring.kafka.producer.batch-size", "lots"), Map.of()))
                .satisfies(e -> assertThat(e.getProperty()).isEqualTo("spring.kafka.producer.batch-size"))
                .satisfies(e -> assertThat(e.getAllowed()).contains("a size such as 16KB"));
    }

    @Test
    void aKeyStoreThatIsNoFileIsNamed() {
        assertThatExceptionOfType(InvalidLockFreeLogPropertyException.class)
                .isThrownBy(() -> configs(Map.of("spring.kafka.ssl.key-store-location", "classpath:no/such.jks"),
                        Map.of()))
                .satisfies(e -> assertThat(e.getProperty()).isEqualTo("spring.kafka.ssl.key-store-location"));
    }

    @Test
    void anSslBundleIsFoundToBeReported() {
        assertThat(KafkaConnection.sslBundleProperty(environment(Map.of("spring.kafka.ssl.bundle", "mine"))))
                .isEqualTo("spring.kafka.ssl.bundle");
        assertThat(KafkaConnection.sslBundleProperty(environment(Map.of()))).isNull();
    }

    private static Map<String, Object> configs(Map<String, Object> properties, Map<String, String> own) {
        return KafkaConnection.producerConfigs(environment(properties), own);
    }

    private static StandardEnvironment environment(Map<String, Object> properties) {
        StandardEnvironment environment = new StandardEnvironment();
        // only the test's own: the embedded broker of another test in this JVM sets spring.kafka.* system properties
        environment.getPropertySources().remove(StandardEnvironment.SYSTEM_PROPERTIES_PROPERTY_SOURCE_NAME);
        environment.getPropertySources().remove(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME);
        environment.getPropertySources().addFirst(new MapPropertySource("test", properties));
        return environment;
    }
}
