package io.github.lockfreelog.autoconfigure.takeover;

import ch.qos.logback.classic.LoggerContext;
import io.github.lockfreelog.autoconfigure.properties.InvalidLockFreeLogPropertyException;
import io.github.lockfreelog.autoconfigure.properties.LockFreeLogKafkaProperties;
import io.github.lockfreelog.autoconfigure.properties.StarterProperties;
import io.github.lockfreelog.logback.LockFreeAppenderBase;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.util.ClassUtils;
import org.springframework.util.StringUtils;

/**
 * The Kafka sink's part of a run ({@code lockfreelog.kafka.*}): typed by core's base class, so that the runtime names
 * no Kafka type and lockfreelog-kafka is loaded only where it is on the class path ({@link StarterKafkaAppender}).
 */
public final class KafkaTakeOver {

    /** Whether lockfreelog-kafka is on the class path: only then is {@link StarterKafkaAppender} loaded. */
    private static final boolean KAFKA_PRESENT = ClassUtils.isPresent(StarterKafkaAppender.APPENDER_CLASS,
            KafkaTakeOver.class.getClassLoader());


    private KafkaTakeOver() {
    }

    /**
     * The Kafka sink's part of a run: on when {@code lockfreelog.kafka.enabled} says so, or, unset, when
     * {@code lockfreelog.kafka.topic} is set. A setting it cannot use, a missing lockfreelog-kafka, or a sink that
     * cannot start leaves the application running without it, with one line that names the property and says why:
     * the log still reaches the file and the console.
     */
    public static void apply(LoggerContext loggerContext, ManagedAppender<LockFreeAppenderBase> kafka, StarterProperties starter,
            ConfigurableEnvironment environment) {
        LockFreeLogKafkaProperties properties = starter.properties().getKafka();
        boolean wanted = (properties.getEnabled() != null) ? properties.getEnabled()
                : StringUtils.hasText(properties.getTopic());
        if (!wanted) {
            kafka.close();
            return;
        }
        org.slf4j.Logger log = RunLog.get();
        if (!KAFKA_PRESENT) {
            kafka.close();
            log.warn("lockfreelog: {} is set, but lockfreelog-kafka (io.github.lockfreelog:lockfreelog-kafka) is not on"
                    + " the class path: the log is not sent to Kafka. Add that dependency, or unset {}.",
                    properties.getEnabled() != null ? "lockfreelog.kafka.enabled" : "lockfreelog.kafka.topic",
                    properties.getEnabled() != null ? "lockfreelog.kafka.enabled" : "lockfreelog.kafka.topic");
            return;
        }
        String bundle = KafkaConnection.sslBundleProperty(environment);
        if (bundle != null) {
            log.warn("lockfreelog: {} names an SSL bundle, which the Kafka sink cannot use (it starts with logging,"
                    + " before any bundle exists): set spring.kafka.ssl.* or lockfreelog.kafka.producer.ssl.* instead.",
                    bundle);
        }
        try {
            String identity = StarterKafkaAppender.identity(loggerContext, starter, environment);
            if (!kafka.resume(identity)) {
                kafka.close();
                kafka.replaceWith(StarterKafkaAppender.start(loggerContext, starter, environment), identity);
            }
        } catch (InvalidLockFreeLogPropertyException ex) {
            kafka.close();
            String what = (ex.getValue() == null) ? " is not set"
                    : "=\"" + ex.getValue() + "\"" + ((ex.getOrigin() != null) ? " (" + ex.getOrigin() + ")" : "")
                            + " is not allowed";
            log.error("lockfreelog: the log is not sent to Kafka: {}{}: expected {}", ex.getProperty(), what,
                    ex.getAllowed());
        } catch (RuntimeException ex) { // whatever else: the application starts without the sink
            kafka.close();
            log.error("lockfreelog: the log is not sent to Kafka: the sink of lockfreelog.kafka.topic={} could not"
                    + " start", properties.getTopic(), ex);
        }
    }
}
