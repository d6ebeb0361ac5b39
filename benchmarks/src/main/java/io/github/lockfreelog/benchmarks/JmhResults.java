package io.github.lockfreelog.benchmarks;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Reads the JSON that JMH writes ({@code -rf json}) into one {@link Result} per benchmark configuration. */
public final class JmhResults {

    /** Secondary metric of {@code -prof gc}: bytes allocated per operation. */
    static final String ALLOCATION_METRIC = "gc.alloc.rate.norm";

    /**
     * One configuration's result.
     *
     * @param mode JMH's short label: {@code thrpt}, {@code sample}, ...
     * @param peer the {@code peer} parameter ({@code ""} if absent)
     * @param lineSize the {@code lineSize} parameter ({@code 0} if absent)
     * @param score ops per time unit, or time per op, as {@code unit} says
     * @param percentiles latency percentiles of a {@code sample} run, keyed as JMH writes them ({@code "99.9"}, ...)
     * @param allocatedBytesPerOp {@value #ALLOCATION_METRIC}, or NaN without {@code -prof gc}
     */
    public record Result(String benchmark, String mode, int threads, int forks, String peer, int lineSize,
            double score, double scoreError, String unit, Map<String, Double> percentiles,
            double allocatedBytesPerOp) {

        /** Score converted to operations per second (throughput results only). */
        public double opsPerSecond() {
            return score * perSecond(unit);
        }

        /** A percentile in nanoseconds, or NaN when absent. */
        public double percentileNanos(String key) {
            Double value = percentiles.get(key);
            return value == null ? Double.NaN : value * nanosPer(unit);
        }
    }

    private JmhResults() {
    }

    public static List<Result> read(Path json) throws IOException {
        JsonNode root;
        try {
            root = JsonMapper.builder().build().readTree(json.toFile());
        } catch (JacksonException e) {
            throw new IOException("not JMH JSON: " + json + ": " + e.getOriginalMessage(), e);
        }
        if (root == null || !root.isArray()) {
            throw new IOException("not JMH JSON (want an array of results): " + json);
        }
        List<Result> results = new ArrayList<>();
        for (JsonNode node : root) {
            results.add(parse(node));
        }
        return results;
    }

    static Result parse(JsonNode node) {
        JsonNode params = node.path("params");
        JsonNode primary = node.path("primaryMetric");
        Map<String, Double> percentiles = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> entry : primary.path("scorePercentiles").properties()) {
            percentiles.put(entry.getKey(), entry.getValue().asDouble());
        }
        double allocated = Double.NaN;
        for (Map.Entry<String, JsonNode> entry : node.path("secondaryMetrics").properties()) {
            // JMH before 1.36 prefixed profiler metrics with a middle dot.
            String name = entry.getKey().startsWith("\u00b7") ? entry.getKey().substring(1) : entry.getKey();
            if (name.equals(ALLOCATION_METRIC)) {
                allocated = entry.getValue().path("score").asDouble(Double.NaN);
            }
        }
        return new Result(node.path("benchmark").asString(""), node.path("mode").asString(""),
                node.path("threads").asInt(1), node.path("forks").asInt(1), params.path("peer").asString(""),
                params.path("lineSize").asInt(0), primary.path("score").asDouble(Double.NaN),
                primary.path("scoreError").asDouble(Double.NaN), primary.path("scoreUnit").asString(""),
                Collections.unmodifiableMap(percentiles), allocated);
    }

    /** Factor from JMH's throughput unit ({@code ops/s}, {@code ops/ms}, ...) to per second. */
    static double perSecond(String unit) {
        String per = unit.contains("/") ? unit.substring(unit.indexOf('/') + 1) : unit;
        return switch (per) {
            case "s" -> 1;
            case "ms" -> 1e3;
            case "us" -> 1e6;
            case "ns" -> 1e9;
            case "min" -> 1.0 / 60;
            default -> Double.NaN;
        };
    }

    /** Factor from JMH's time-per-op unit ({@code ns/op}, {@code us/op}, ...) to nanoseconds. */
    static double nanosPer(String unit) {
        String time = unit.contains("/") ? unit.substring(0, unit.indexOf('/')) : unit;
        return switch (time) {
            case "ns" -> 1;
            case "us" -> 1e3;
            case "ms" -> 1e6;
            case "s" -> 1e9;
            default -> Double.NaN;
        };
    }
}
