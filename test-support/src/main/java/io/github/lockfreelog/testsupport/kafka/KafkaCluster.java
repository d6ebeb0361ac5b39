package io.github.lockfreelog.testsupport.kafka;

import io.github.lockfreelog.testsupport.ChildJvm;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.Uuid;

/**
 * A real Kafka cluster of {@code n} KRaft nodes, each a process of Kafka's own server main ({@code kafka.Kafka},
 * through {@link KafkaNode}) with its storage formatted by {@code kafka.tools.StorageTool}, as an operator runs
 * them: each node is broker and controller (a quorum of {@code n} voters), listens on ports fixed for the
 * cluster's life, and can be stopped cleanly ({@link #stop}, SIGTERM: a controlled shutdown), killed
 * ({@link #kill}, SIGKILL) and started again ({@link #restart}) on its own log folder.
 *
 * <p>Settings are Kafka's defaults (the transaction log replicated three ways, {@code min.insync.replicas} 2 for
 * it; {@code default.replication.factor} 1), made light for a small machine: 256 MB heaps, the transaction log and
 * consumer offsets of one partition, one network thread. A test adds its own with {@code settings}. Every node is
 * killed when the cluster is closed, and by {@link ChildJvm}'s shutdown hook when the test JVM exits.
 */
public final class KafkaCluster implements AutoCloseable {

    /** Light settings for a small machine; Kafka's defaults otherwise. */
    public static final Map<String, String> LIGHT = Map.ofEntries(Map.entry("transaction.state.log.num.partitions",
            "1"), Map.entry("offsets.topic.num.partitions", "1"), Map.entry("group.initial.rebalance.delay.ms", "0"),
            Map.entry("auto.create.topics.enable", "false"), Map.entry("num.network.threads", "1"),
            Map.entry("num.io.threads", "2"), Map.entry("background.threads", "2"),
            Map.entry("num.recovery.threads.per.data.dir", "1"), Map.entry("num.replica.fetchers", "1"),
            Map.entry("log.cleaner.threads", "1"), Map.entry("log.cleaner.dedupe.buffer.size", "2097152"));

    private static final List<String> JVM = List.of("-Xmx256m", "-Xms64m", "-XX:+UseSerialGC",
            "-XX:TieredStopAtLevel=1", "-Xss512k");

    private final Path folder;
    private final int[] brokerPorts;
    private final Process[] processes;
    private Admin admin;

    private KafkaCluster(Path folder, int nodes) {
        this.folder = folder;
        this.brokerPorts = new int[nodes];
        this.processes = new Process[nodes];
    }

    /**
     * Formats and starts {@code nodes} nodes in {@code folder} with {@link #LIGHT} and {@code settings} (which
     * win), and returns once every node is a registered broker.
     */
    public static KafkaCluster start(int nodes, Path folder, Map<String, String> settings) throws IOException,
            InterruptedException {
        KafkaCluster cluster = new KafkaCluster(folder, nodes);
        try {
            cluster.startAll(settings);
            return cluster;
        } catch (IOException | InterruptedException | RuntimeException e) {
            cluster.close();
            throw e;
        }
    }

    private void startAll(Map<String, String> settings) throws IOException, InterruptedException {
        int nodes = brokerPorts.length;
        int[] controllerPorts = new int[nodes];
        for (int i = 0; i < nodes; i++) {
            brokerPorts[i] = freePort();
            controllerPorts[i] = freePort();
        }
        String voters = java.util.stream.IntStream.range(0, nodes).mapToObj(i -> i + "@localhost:" + controllerPorts[i])
                .collect(Collectors.joining(","));
        Files.writeString(folder.resolve("logback-node.xml"), "<configuration><appender name=\"OUT\""
                + " class=\"ch.qos.logback.core.ConsoleAppender\"><encoder><pattern>%d %p [%t] %c{1} %m%n</pattern>"
                + "</encoder></appender><root level=\"WARN\"><appender-ref ref=\"OUT\"/></root></configuration>");
        String clusterId = Uuid.randomUuid().toString();
        List<Process> formats = new ArrayList<>();
        for (int i = 0; i < nodes; i++) {
            Map<String, String> config = new LinkedHashMap<>(LIGHT);
            config.put("process.roles", "broker,controller");
            config.put("node.id", Integer.toString(i));
            config.put("controller.quorum.voters", voters);
            config.put("listeners", "PLAINTEXT://localhost:" + brokerPorts[i] + ",CONTROLLER://localhost:"
                    + controllerPorts[i]);
            config.put("advertised.listeners", "PLAINTEXT://localhost:" + brokerPorts[i]);
            config.put("controller.listener.names", "CONTROLLER");
            config.put("inter.broker.listener.name", "PLAINTEXT");
            config.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
            config.put("log.dirs", folder.resolve("node-" + i).toString());
            config.putAll(settings);
            StringBuilder text = new StringBuilder();
            config.forEach((key, value) -> text.append(key).append('=').append(value).append('\n'));
            Files.writeString(properties(i), text, StandardCharsets.UTF_8);
            formats.add(ChildJvm.startQuiet("kafka.tools.StorageTool", jvm(), List.of("format", "-t", clusterId,
                    "-c", properties(i).toString()), log(i)));
        }
        for (int i = 0; i < nodes; i++) {
            Process format = formats.get(i);
            if (!format.waitFor(120, TimeUnit.SECONDS) || format.exitValue() != 0) {
                throw new IOException("node " + i + " could not be formatted: " + Files.readString(log(i)));
            }
        }
        for (int i = 0; i < nodes; i++) {
            processes[i] = launch(i);
        }
        admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapOf(brokerPorts),
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 10_000, AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG,
                5_000));
        for (int i = 0; i < nodes; i++) {
            awaitRegistered(i, Duration.ofSeconds(120));
        }
    }

    private List<String> jvm() {
        List<String> jvm = new ArrayList<>(JVM);
        jvm.add("-Dlogback.configurationFile=" + folder.resolve("logback-node.xml"));
        return jvm;
    }

    private Process launch(int node) throws IOException {
        return ChildJvm.startQuiet(KafkaNode.class.getName(), jvm(), List.of(properties(node).toString()), log(node));
    }

    private Path properties(int node) {
        return folder.resolve("node-" + node + ".properties");
    }

    /** The node's standard output and error, every life of it appended. */
    public Path log(int node) {
        return folder.resolve("node-" + node + ".log");
    }

    /** Every node's address, those down included (a client that starts while one is down still finds the others). */
    public String bootstrap() {
        return bootstrapOf(brokerPorts);
    }

    private static String bootstrapOf(int[] ports) {
        return java.util.Arrays.stream(ports).mapToObj(port -> "localhost:" + port).collect(Collectors.joining(","));
    }

    /** How many nodes the cluster has. */
    public int size() {
        return brokerPorts.length;
    }

    /** An admin client of the cluster's (the cluster closes it). */
    public Admin admin() {
        return admin;
    }

    /** Whether node {@code node}'s process runs. */
    public boolean isRunning(int node) {
        return processes[node] != null && processes[node].isAlive();
    }

    /**
     * CPU time node {@code node}'s process has used since it started (user and system, from {@code /proc}), in
     * milliseconds; -1 where {@code /proc} is absent or the node is down.
     */
    public long cpuMillis(int node) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(processes[node].pid()), "stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) * 10; // utime, stime in ticks of 10 ms
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** Stops node {@code node} cleanly (SIGTERM: Kafka's controlled shutdown moves its leaders first) and waits. */
    public void stop(int node) throws InterruptedException {
        processes[node].destroy();
        if (!processes[node].waitFor(120, TimeUnit.SECONDS)) {
            processes[node].destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            throw new IllegalStateException("node " + node + " did not stop within 120 s of SIGTERM; killed");
        }
    }

    /** Kills node {@code node} with SIGKILL and waits for its death. */
    public void kill(int node) throws InterruptedException {
        processes[node].destroyForcibly().waitFor(30, TimeUnit.SECONDS);
    }

    /** Starts node {@code node} again on its log folder and ports, and returns once it is a registered broker. */
    public void restart(int node) throws IOException, InterruptedException {
        if (isRunning(node)) {
            throw new IllegalStateException("node " + node + " still runs");
        }
        processes[node] = launch(node);
        awaitRegistered(node, Duration.ofSeconds(120));
    }

    private void awaitRegistered(int node, Duration within) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        String last = "";
        while (System.nanoTime() < deadline) {
            if (!processes[node].isAlive()) {
                throw new IOException("node " + node + " died at start: " + tail(node));
            }
            try {
                Collection<Node> nodes = admin.describeCluster().nodes().get(10, TimeUnit.SECONDS);
                if (nodes.stream().anyMatch(n -> n.id() == node)) {
                    return;
                }
                last = nodes.toString();
            } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
                last = e.toString();
            }
            Thread.sleep(200);
        }
        throw new IOException("node " + node + " not registered within " + within + " (" + last + "): " + tail(node));
    }

    private String tail(int node) {
        try {
            String text = Files.readString(log(node));
            return text.substring(Math.max(0, text.length() - 4_000));
        } catch (IOException e) {
            return e.toString();
        }
    }

    /** Creates {@code topic} with one partition, {@code replicas} replicas and the topic settings {@code configs}. */
    public void createTopic(String topic, int replicas, Map<String, String> configs) throws Exception {
        admin.createTopics(List.of(new NewTopic(topic, 1, (short) replicas).configs(configs))).all()
                .get(60, TimeUnit.SECONDS);
        awaitLeader(topic, Duration.ofSeconds(60));
    }

    /** Partition 0 of {@code topic} as the cluster describes it now. */
    public TopicPartitionInfo partition(String topic) throws Exception {
        TopicDescription description = admin.describeTopics(List.of(topic)).allTopicNames().get(10, TimeUnit.SECONDS)
                .get(topic);
        return description.partitions().get(0);
    }

    /** The node that leads partition 0 of {@code topic}, once it has a leader (waits up to {@code within}). */
    public int awaitLeader(String topic, Duration within) throws Exception {
        long deadline = System.nanoTime() + within.toNanos();
        Exception last = null;
        while (System.nanoTime() < deadline) {
            try {
                Node leader = partition(topic).leader();
                if (leader != null && leader.id() >= 0) {
                    return leader.id();
                }
            } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
                last = e; // not there yet
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException("no leader for " + topic + " within " + within, last);
    }

    /**
     * Waits until every replica of every partition of {@code topics} is in sync again (after a node came back), up to
     * {@code within}.
     */
    public void awaitInSync(Set<String> topics, Duration within) throws Exception {
        long deadline = System.nanoTime() + within.toNanos();
        String state = "";
        while (System.nanoTime() < deadline) {
            Map<String, TopicDescription> described = admin.describeTopics(topics).allTopicNames()
                    .get(10, TimeUnit.SECONDS);
            boolean inSync = described.values().stream().flatMap(d -> d.partitions().stream())
                    .allMatch(p -> p.isr().size() == p.replicas().size());
            if (inSync) {
                return;
            }
            state = described.toString();
            Thread.sleep(500);
        }
        throw new IllegalStateException("not in sync within " + within + ": " + state);
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private void killAll() {
        for (Process process : processes) {
            if (process != null) {
                process.destroyForcibly();
            }
        }
        for (Process process : processes) {
            try {
                if (process != null) {
                    process.waitFor(30, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Kills every node (their folders stay, for the test's temporary folder to remove). */
    @Override
    public void close() {
        if (admin != null) {
            admin.close(Duration.ofSeconds(5));
        }
        killAll();
    }
}
