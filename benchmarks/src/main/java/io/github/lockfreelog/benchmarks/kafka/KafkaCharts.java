package io.github.lockfreelog.benchmarks.kafka;

import io.github.lockfreelog.benchmarks.peers.Workload;
import io.github.lockfreelog.benchmarks.report.ChartLines;
import io.github.lockfreelog.benchmarks.report.Charts;
import io.github.lockfreelog.benchmarks.results.LatencyPoint;
import io.github.lockfreelog.benchmarks.results.LineCheck;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The kafka mode's charts, drawn with the report package's {@link Charts}: records delivered by threads, and latency. */
final class KafkaCharts {

    private KafkaCharts() {
    }

    /** Draws the run's charts; a failure (no fonts on a bare headless JVM) is reported, not thrown. */
    static void draw(List<KafkaResult> throughput, List<LatencyPoint> points, Path tsv, Path deliveredPng,
            Path latencyPng, String subtitle, PrintStream out) {
        try {
            List<Path> drawn = new ArrayList<>(drawDelivered(throughput, deliveredPng, subtitle));
            if (latencyPng != null) {
                drawn.addAll(Charts.drawLatency(points, latencyPng, subtitle, true));
            }
            drawn.forEach(p -> out.println("Chart: " + p));
        } catch (IOException | RuntimeException | LinkageError e) {
            out.println("Could not draw the charts (" + e + "); redraw later with: chart " + tsv);
        }
    }

    /**
     * The kafka mode's chart: records delivered per second against threads, one line per Kafka peer (the file
     * reference is not drawn: it writes no topic); returns the files written (none without results).
     */
    static List<Path> drawDelivered(List<KafkaResult> results, Path png, String subtitle) throws IOException {
        KafkaReport report = new KafkaReport(results.stream().filter(r -> KafkaPeer.of(r.peer()).isKafka()).toList());
        List<Integer> threads = report.threadCounts();
        if (threads.isEmpty()) {
            return List.of();
        }
        Charts.draw(Charts.chart("Records delivered to Kafka per second by threads (" + Workload.DEFAULT_LINE_SIZE
                + "-byte lines" + subtitle + ")", "threads", "thousand records in the topic per second, until the stop"
                + " returned (higher is better)", false), threads.stream().map(String::valueOf).toList(),
                lines(report, threads), png);
        return List.of(png);
    }

    /**
     * Per Kafka peer, thousands of records delivered per second at each thread count (the round {@link KafkaReport}
     * shows); a peer with records not delivered is labelled with how many.
     */
    static List<ChartLines.Line> lines(KafkaReport report, List<Integer> threads) {
        List<ChartLines.Line> lines = new ArrayList<>();
        for (String peer : report.peers()) {
            List<Double> values = new ArrayList<>();
            List<String> notes = new ArrayList<>();
            List<LineCheck> checks = new ArrayList<>();
            for (int t : threads) {
                KafkaResult r = report.pick(peer, t);
                if (r != null) {
                    checks.add(r.lines());
                }
                values.add(r == null ? null : r.deliveredPerSecond() / 1e3);
                notes.add(r != null && r.lines().losing() ? "not delivered " + ChartLines.percent(r.lines()) + " %" : null);
            }
            if (values.stream().anyMatch(v -> v != null)) {
                // "lost 60 % of its lines" -> "60 % of its records not delivered": dropped, or not within the stop's time
                String lost = ChartLines.lossText(checks).replace("lost ", "").replace(" of its lines",
                        " of its records not delivered");
                lines.add(new ChartLines.Line(peer, lost.isEmpty() ? peer : peer + " (" + lost + ")",
                        peer.equals(KafkaReport.LEAD) ? ChartLines.Role.LOCKFREELOG : ChartLines.Role.PEER, values, notes));
            }
        }
        return lines;
    }
}
