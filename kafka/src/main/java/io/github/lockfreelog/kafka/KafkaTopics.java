package io.github.lockfreelog.kafka;

import io.github.lockfreelog.sink.RecordSink;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.CreateTopicsOptions;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.admin.DescribeConfigsOptions;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * The sink's topic administration, once per sink before its first producer (as Kafka Connect's {@code TopicAdmin}
 * does for its offsets topic): the topic must exist (the sink never creates it); its {@code max.message.bytes}
 * bounds the producer's {@code batch.size}; the position topic is created, compacted, with the replication of a
 * cluster ({@link #positionReplicas}) when missing; and a topic made beforehand that keeps the events or the
 * positions less safely than the sink would get one WARN each. Every call bounded by {@code max.block.ms}, all
 * asked at once (one round trip before the drainer can deliver).
 */
final class KafkaTopics {

    /**
     * The position topic's settings when the sink creates it: compacted, and short. A busy sink commits a position
     * record and a commit marker many times a second: compaction only cleans closed segments (Kafka's default
     * closes one at 1 GiB or after 7 days) and keeps markers {@code delete.retention.ms} (1 day) after that, so the
     * topic would grow by gigabytes a day. An hourly segment and markers kept one hour bound it to about an hour or
     * two of commits, which is what a start reads.
     */
    static final Map<String, String> POSITION_TOPIC_CONFIG = Map.of(
            TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT,
            TopicConfig.SEGMENT_MS_CONFIG, String.valueOf(TimeUnit.HOURS.toMillis(1)),
            TopicConfig.DELETE_RETENTION_MS_CONFIG, String.valueOf(TimeUnit.HOURS.toMillis(1)));
    /** The replication a cluster of three or more brokers gives the position topic (as Kafka Connect's offsets topic). */
    static final int CLUSTER_REPLICAS = 3;
    /** The {@code min.insync.replicas} of a position topic of three replicas or more. */
    static final int CLUSTER_MIN_INSYNC = 2;

    private final SlotSettings slot;
    private final long maxBlockMillis;

    KafkaTopics(SlotSettings slot) {
        this.slot = slot;
        this.maxBlockMillis = slot.maxBlockMillis();
    }

    /**
     * The position topic's replication factor: the one set ({@code positionReplication} above 0, or -1: the
     * broker's {@code default.replication.factor}), else as many brokers as there are, up to three; {@code brokers}
     * 0 when unknown (the broker's default then).
     */
    static Optional<Short> positionReplicas(short set, int brokers) {
        if (set > 0) {
            return Optional.of(set);
        }
        if (set < 0 || brokers <= 0) {
            return Optional.empty();
        }
        return Optional.of((short) Math.min(CLUSTER_REPLICAS, brokers));
    }

    /** The position topic's settings when the sink creates it with {@code replicas} (empty: the broker's default). */
    Map<String, String> positionTopicConfig(Optional<Short> replicas) {
        Map<String, String> config = new HashMap<>(POSITION_TOPIC_CONFIG);
        if (replicas.isPresent() && replicas.get() >= CLUSTER_REPLICAS) {
            config.put(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG, String.valueOf(CLUSTER_MIN_INSYNC));
        }
        config.putAll(slot.positionTopicConfig());
        return config;
    }

    /**
     * Checks the topics (above); returns the topic's {@code max.message.bytes} (its own, or the broker's
     * {@code message.max.bytes}), 0 when it cannot be read (a client without the DescribeConfigs right may still
     * write).
     */
    int check() throws IOException {
        // each call bounded by max.block.ms, and the client closed without waiting: with the broker out of reach
        // a call left pending would hold the close (and the drainer) for default.api.timeout.ms
        Admin admin = Admin.create(slot.filtered(AdminClientConfig.configNames()));
        int timeoutMs = (int) Math.min(Integer.MAX_VALUE, maxBlockMillis);
        String topic = slot.topic();
        String positions = slot.positionTopic();
        try {
            List<String> names = positions == null ? List.of(topic) : List.of(topic, positions);
            List<ConfigResource> resources = new ArrayList<>();
            names.forEach(name -> resources.add(new ConfigResource(ConfigResource.Type.TOPIC, name)));
            Map<ConfigResource, KafkaFuture<Config>> configs = admin.describeConfigs(resources,
                    new DescribeConfigsOptions().timeoutMs(timeoutMs)).values();
            Map<String, KafkaFuture<TopicDescription>> described = admin.describeTopics(names,
                    new DescribeTopicsOptions().timeoutMs(timeoutMs)).topicNameValues();
            KafkaFuture<Collection<Node>> nodes = admin.describeCluster(new DescribeClusterOptions().timeoutMs(timeoutMs))
                    .nodes();
            TopicDescription logTopic;
            try {
                logTopic = described.get(topic).get(maxBlockMillis, TimeUnit.MILLISECONDS);
            } catch (ExecutionException e) {
                if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                    throw new RecordSink.RefusedException("the topic " + topic + " does not exist: create it, or set "
                            + slot.names().of("topic") + " to one that does", e.getCause());
                }
                if (e.getCause() instanceof AuthorizationException denied) {
                    throw new KafkaAdvice(slot).failure("describing topic " + topic, denied, -1);
                }
                throw new IOException("could not describe topic " + topic + ": " + e.getCause(), e.getCause());
            }
            int brokers = brokers(nodes);
            Config logConfig = config(configs.get(resources.get(0)));
            warnIfWeaker("the topic " + topic, logTopic, logConfig, Math.min(CLUSTER_REPLICAS, brokers), "its");
            int maxMessageBytes = maxMessageBytes(logConfig);
            if (positions != null) {
                checkPositionTopic(admin, described.get(positions), configs.get(resources.get(1)), brokers, timeoutMs);
            }
            return maxMessageBytes;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while checking topic " + topic, e);
        } catch (TimeoutException e) {
            throw new IOException("Kafka did not answer within max.block.ms (" + maxBlockMillis + " ms) about topic "
                    + topic, e);
        } finally {
            admin.close(Duration.ZERO);
        }
    }

    /** Creates the position topic when it is missing, or checks the one made beforehand. */
    private void checkPositionTopic(Admin admin, KafkaFuture<TopicDescription> described, KafkaFuture<Config> configs,
            int brokers, int timeoutMs) throws IOException, InterruptedException, TimeoutException {
        String positions = slot.positionTopic();
        Optional<Short> replicas = positionReplicas(slot.positionReplication(), brokers);
        TopicDescription existing = null;
        try {
            existing = described.get(maxBlockMillis, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof UnknownTopicOrPartitionException)) {
                return; // no right to describe it, say: the sink works with it as it is, and its read will tell
            }
        }
        if (existing != null) {
            Config config = config(configs);
            warnIfWeaker("the position topic " + positions, existing, config, replicas.map(Short::intValue).orElse(0),
                    "each instance's");
            ConfigEntry policy = config == null ? null : config.get(TopicConfig.CLEANUP_POLICY_CONFIG);
            if (policy != null && policy.value() != null && !policy.value().contains(TopicConfig.CLEANUP_POLICY_COMPACT)) {
                slot.status().warn("the position topic " + positions + " has cleanup.policy=" + policy.value() + ": its"
                        + " retention deletes the position of a journal that delivered nothing for longer, and a crash"
                        + " right after that journal's next commit would send that batch again; set"
                        + " cleanup.policy=compact on it", null);
            }
            return;
        }
        try {
            admin.createTopics(List.of(new NewTopic(positions, Optional.of(1), replicas)
                    .configs(positionTopicConfig(replicas))), new CreateTopicsOptions().timeoutMs(timeoutMs)).all()
                    .get(maxBlockMillis, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof TopicExistsException) {
                return; // another instance made it meanwhile, as this one would have
            }
            String message = "could not create the position topic " + positions + " (" + e.getCause()
                    + "): create it with cleanup.policy=compact and the replication of the topic " + slot.topic()
                    + ", or set " + slot.names().of("positionTopic") + " to one that exists, or "
                    + slot.names().of("positionTopicReplicationFactor") + " to what the cluster allows";
            // refused (no right to create topics, a policy, too few brokers): an ERROR; no answer: an outage
            throw e.getCause() instanceof RetriableException ? new IOException(message, e.getCause())
                    : new RecordSink.RefusedException(message, e.getCause());
        }
    }

    /**
     * One WARN when {@code what}, made beforehand, keeps its records on fewer brokers than {@code wanted}, or
     * acknowledges a write ({@code acks=all}) once a single broker has it ({@code min.insync.replicas} 1 with
     * several replicas): a broker lost with its disk then loses what it alone held.
     */
    private void warnIfWeaker(String what, TopicDescription description, Config config, int wanted, String whose) {
        if (description == null || description.partitions().isEmpty()) {
            return;
        }
        int replicas = description.partitions().get(0).replicas().size();
        List<String> weaker = new ArrayList<>();
        if (wanted > 0 && replicas < wanted) {
            weaker.add("replication factor " + replicas + " on a cluster that allows " + wanted);
        }
        ConfigEntry minInsync = config == null ? null : config.get(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG);
        int insync = minInsync == null || minInsync.value() == null ? 0 : parse(minInsync.value());
        if (insync == 1 && replicas >= CLUSTER_REPLICAS) {
            weaker.add("min.insync.replicas=1 with " + replicas + " replicas: the sink's producer writes with acks=all,"
                    + " which then takes one broker's copy as enough");
        }
        if (!weaker.isEmpty()) {
            slot.status().warn(what + " has " + String.join(" and ", weaker) + ": a broker lost with its disk can take "
                    + whose + " latest records with it (for the position topic: a batch sent again after a crash);"
                    + " give it replication.factor " + Math.max(wanted, Math.min(replicas, CLUSTER_REPLICAS))
                    + " and min.insync.replicas " + CLUSTER_MIN_INSYNC + " (docs/kafka.md, \"What a cluster needs\")", null);
        }
    }

    /** How many brokers the cluster has; 0 when it could not be told. */
    private int brokers(KafkaFuture<Collection<Node>> nodes) throws InterruptedException {
        try {
            return nodes.get(maxBlockMillis, TimeUnit.MILLISECONDS).size();
        } catch (ExecutionException | TimeoutException e) {
            return 0;
        }
    }

    /** The configuration described, or {@code null} when it could not be read. */
    private Config config(KafkaFuture<Config> future) throws InterruptedException {
        try {
            return future == null ? null : future.get(maxBlockMillis, TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            return null;
        }
    }

    private int maxMessageBytes(Config config) {
        ConfigEntry entry = config == null ? null : config.get(TopicConfig.MAX_MESSAGE_BYTES_CONFIG);
        int bytes = entry == null || entry.value() == null ? 0 : parse(entry.value());
        if (bytes == 0) {
            slot.status().info("could not read the max.message.bytes of topic " + slot.topic() + ": the producer's"
                    + " batch.size, unless given, is Kafka's own " + SlotProducer.KAFKA_BATCH_SIZE);
        }
        return bytes;
    }

    private static int parse(String value) {
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
