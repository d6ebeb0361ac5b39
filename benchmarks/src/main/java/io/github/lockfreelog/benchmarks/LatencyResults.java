package io.github.lockfreelog.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The JSON of a latency run: what the machine was, and one object per {@link LatencyPoint}.
 *
 * <pre>
 * {"kind": "lockfreelog-latency", "environment": "...", "points": [
 *   {"peer": "lockfreelog", "rate": 100000, "threads": 1, "lineSize": 150, "warmupMillis": 3000,
 *    "measureMillis": 6000, "made": 900000, "measured": 600000, "missed": 0,
 *    "latencyNanos": {"p50": 310, "p90": 11400, "p99": ..., "p99.9": ..., "p99.99": ..., "max": ..., "count": 600000},
 *    "lines": {"accepted": 900000, "written": 900000, "lost": 0, "bytes": ..., "nulBytes": 0, "details": "..."},
 *    "histogram": "HISTFAAA..."}],
 *  "failed": [{"peer": "log4j2-async", "rate": 500000, "threads": 4}]}
 * </pre>
 *
 * A fork writes one point object into its own file; the runner gathers them into the run's file.
 */
public final class LatencyResults {

    static final String KIND = "lockfreelog-latency";

    private static final JsonMapper MAPPER = JsonMapper.builder().build();

    /** A whole run: the points measured, and those whose fork gave no result. */
    public record Run(String environment, List<LatencyPoint> points, List<Failure> failures) {
    }

    /** A point whose fork failed or ran out of time: the tables list it as such rather than leave it out. */
    public record Failure(String peer, long rate, int threads) {
    }

    private LatencyResults() {
    }

    /** Whether {@code json} holds a latency run (rather than JMH's results). */
    public static boolean isLatencyRun(Path json) throws IOException {
        return tree(json).path("kind").asString("").equals(KIND);
    }

    public static Run read(Path json) throws IOException {
        JsonNode root = tree(json);
        if (!root.path("kind").asString("").equals(KIND)) {
            throw new IOException("not a latency run (want \"kind\": \"" + KIND + "\"): " + json);
        }
        List<LatencyPoint> points = new ArrayList<>();
        for (JsonNode node : root.path("points")) {
            points.add(point(node));
        }
        List<Failure> failures = new ArrayList<>();
        for (JsonNode node : root.path("failed")) {
            failures.add(new Failure(node.path("peer").asString(""), node.path("rate").asLong(), node.path("threads").asInt()));
        }
        return new Run(root.path("environment").asString(""), points, failures);
    }

    public static void write(Run run, Path json) throws IOException {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("kind", KIND);
        root.put("environment", run.environment());
        ArrayNode points = root.putArray("points");
        run.points().forEach(p -> points.add(node(p)));
        ArrayNode failed = root.putArray("failed");
        for (Failure f : run.failures()) {
            failed.addObject().put("peer", f.peer()).put("rate", f.rate()).put("threads", f.threads());
        }
        writeTree(root, json);
    }

    static LatencyPoint readPoint(Path json) throws IOException {
        return point(tree(json));
    }

    static void writePoint(LatencyPoint point, Path json) throws IOException {
        writeTree(node(point), json);
    }

    private static ObjectNode node(LatencyPoint p) {
        ObjectNode node = MAPPER.createObjectNode();
        node.put("peer", p.peer());
        node.put("rate", p.rate());
        node.put("threads", p.threads());
        node.put("lineSize", p.lineSize());
        node.put("warmupMillis", p.warmupMillis());
        node.put("measureMillis", p.measureMillis());
        node.put("made", p.made());
        node.put("measured", p.measured());
        node.put("missed", p.missed());
        ObjectNode latency = node.putObject("latencyNanos");
        List<Long> values = p.latency().values();
        for (int i = 0; i < values.size(); i++) {
            latency.put(LatencyPoint.Percentiles.LABELS.get(i), values.get(i));
        }
        latency.put("count", p.latency().count());
        ObjectNode lines = node.putObject("lines");
        lines.put("accepted", p.lines().accepted());
        lines.put("written", p.lines().written());
        lines.put("lost", p.lines().lost());
        lines.put("bytes", p.lines().bytes());
        lines.put("nulBytes", p.lines().nulBytes());
        lines.put("details", p.lines().details());
        node.put("histogram", p.histogram());
        ObjectNode disturbances = node.putObject("disturbances");
        disturbances.put("gcPauses", p.disturbances().gcPauses());
        disturbances.put("gcPauseMillis", p.disturbances().gcPauseMillis());
        disturbances.put("stealMillis", p.disturbances().stealMillis());
        disturbances.put("callerPreemptions", p.disturbances().callerPreemptions());
        disturbances.put("callerWaitMicros", p.disturbances().callerWaitMicros());
        return node;
    }

    private static LatencyPoint point(JsonNode node) {
        JsonNode l = node.path("latencyNanos");
        LatencyPoint.Percentiles latency = new LatencyPoint.Percentiles(l.path("p50").asLong(), l.path("p90").asLong(),
                l.path("p99").asLong(), l.path("p99.9").asLong(), l.path("p99.99").asLong(), l.path("max").asLong(),
                l.path("count").asLong());
        String peer = node.path("peer").asString("");
        long rate = node.path("rate").asLong();
        int threads = node.path("threads").asInt();
        int lineSize = node.path("lineSize").asInt();
        JsonNode lines = node.path("lines");
        Ledger.Entry entry = new Ledger.Entry(LatencyPoint.ledgerMode(rate), peer, threads, lineSize,
                lines.path("accepted").asLong(), lines.path("written").asLong(), lines.path("bytes").asLong(),
                lines.path("nulBytes").asLong(), lines.path("details").asString(""));
        return new LatencyPoint(peer, rate, threads, lineSize, node.path("warmupMillis").asLong(),
                node.path("measureMillis").asLong(), node.path("made").asLong(), node.path("measured").asLong(),
                node.path("missed").asLong(), latency,
                entry, node.path("histogram").asString(""), disturbances(node.path("disturbances")));
    }

    private static Disturbances disturbances(JsonNode node) {
        if (node.isMissingNode() || node.isNull()) {
            return Disturbances.UNKNOWN;
        }
        return new Disturbances(node.path("gcPauses").asLong(-1), node.path("gcPauseMillis").asLong(-1),
                node.path("stealMillis").asLong(-1), node.path("callerPreemptions").asLong(-1),
                node.path("callerWaitMicros").asLong(-1));
    }

    private static JsonNode tree(Path json) throws IOException {
        try {
            JsonNode root = MAPPER.readTree(json.toFile());
            if (root == null) {
                throw new IOException("empty JSON file: " + json);
            }
            return root;
        } catch (JacksonException e) {
            throw new IOException("not JSON: " + json + ": " + e.getOriginalMessage(), e);
        }
    }

    private static void writeTree(JsonNode node, Path json) throws IOException {
        Path parent = json.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        try {
            MAPPER.writerWithDefaultPrettyPrinter().writeValue(json.toFile(), node);
        } catch (JacksonException e) {
            throw new IOException("could not write " + json + ": " + e.getOriginalMessage(), e);
        }
    }
}
