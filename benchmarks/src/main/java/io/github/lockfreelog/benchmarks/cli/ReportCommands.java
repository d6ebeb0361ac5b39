package io.github.lockfreelog.benchmarks.cli;

import io.github.lockfreelog.benchmarks.report.Charts;
import io.github.lockfreelog.benchmarks.report.CostReport;
import io.github.lockfreelog.benchmarks.report.LatencyReport;
import io.github.lockfreelog.benchmarks.report.Report;
import io.github.lockfreelog.benchmarks.report.VirtualReport;
import io.github.lockfreelog.benchmarks.results.CostResult;
import io.github.lockfreelog.benchmarks.results.LatencyPoint;
import io.github.lockfreelog.benchmarks.results.LatencyResults;
import io.github.lockfreelog.benchmarks.results.ThroughputResult;
import io.github.lockfreelog.benchmarks.results.VirtualResult;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;

/**
 * The {@code report} and {@code chart} commands (the tables and charts again, from a run's saved {@code .tsv}; a
 * Kafka run's through its {@link Mode}), and the charts a run draws as it ends: a chart that cannot be drawn (no
 * fonts on a bare headless JVM) is reported, never thrown, so the run keeps its tables.
 */
final class ReportCommands {

    private final PrintStream out;

    ReportCommands(PrintStream out) {
        this.out = out;
    }

    void report(Arguments arguments) throws IOException {
        Path tsv = arguments.file(0, "report needs the .tsv file of a run");
        for (Mode mode : Modes.savedRunReaders()) {
            if (mode.reads(tsv)) {
                mode.report(tsv, out);
                return;
            }
        }
        if (CostResult.isCostRun(tsv)) {
            out.print(new CostReport(CostResult.read(tsv)).render());
            return;
        }
        if (VirtualResult.isVirtualRun(tsv)) {
            out.print(VirtualReport.render(VirtualResult.read(tsv)));
            return;
        }
        out.print(LatencyResults.isLatencyRun(tsv) ? new LatencyReport(LatencyResults.read(tsv)).render()
                : new Report(ThroughputResult.read(tsv)).render());
    }

    void chart(Arguments arguments) throws IOException {
        Path tsv = arguments.file(0, "chart needs the .tsv file of a run");
        for (Mode mode : Modes.savedRunReaders()) {
            if (mode.reads(tsv)) {
                mode.chart(tsv, arguments.files.size() > 1 ? Paths.get(arguments.files.get(1)) : null,
                        arguments.docsDirectory(), arguments.label == null ? "" : ", " + arguments.label, out);
                return;
            }
        }
        if (CostResult.isCostRun(tsv)) {
            Path png = arguments.files.size() > 1 ? Paths.get(arguments.files.get(1))
                    : arguments.docsDirectory().resolve("benchmark-cost.png");
            List<CostResult> cost = CostResult.read(tsv);
            drawCostChart(cost, tsv, png, arguments.label == null ? "" : ", " + arguments.label);
            // an OTLP run's delivered records: docs/benchmark-otlp.png
            Charts.drawOtlp(cost, arguments.docsDirectory().resolve("benchmark-otlp.png"),
                    arguments.label == null ? "" : ", " + arguments.label).forEach(p -> out.println("Chart: " + p));
            return;
        }
        boolean latency = LatencyResults.isLatencyRun(tsv);
        Path png = arguments.files.size() > 1 ? Paths.get(arguments.files.get(1))
                : arguments.docsDirectory().resolve(latency ? "benchmark-latency.png" : "benchmark-throughput.png");
        String subtitle = arguments.label == null ? "" : ", " + arguments.label;
        if (latency) {
            drawLatencyCharts(LatencyResults.read(tsv).points(), tsv, png, subtitle, false);
        } else {
            drawThroughputCharts(ThroughputResult.read(tsv), tsv, png, subtitle);
        }
    }

    /** Draws a run's throughput charts; a failure (no fonts on a bare headless JVM) is reported, not thrown. */
    void drawThroughputCharts(List<ThroughputResult> results, Path tsv, Path png, String subtitle) {
        draw("throughput", "charts", tsv, () -> Charts.drawThroughput(results, png, subtitle));
    }

    /** Draws a cost run's chart; a failure is reported, not thrown. */
    void drawCostChart(List<CostResult> results, Path tsv, Path png, String subtitle) {
        draw("cost", "cost chart", tsv, () -> Charts.drawCost(results, png, subtitle));
    }

    /** Draws a run's latency charts; a failure is reported, not thrown. */
    void drawLatencyCharts(List<LatencyPoint> points, Path tsv, Path png, String subtitle, boolean everyPoint) {
        draw("latency", "latency charts", tsv, () -> Charts.drawLatency(points, png, subtitle, everyPoint));
    }

    /** What drawing a chart may throw: XChart's I/O, and on a JVM without fonts its errors of linkage. */
    private interface Drawing {
        List<Path> draw() throws IOException;
    }

    private void draw(String results, String charts, Path tsv, Drawing drawing) {
        try {
            List<Path> drawn = drawing.draw();
            drawn.forEach(p -> out.println("Chart: " + p));
            if (drawn.isEmpty()) {
                out.println("No " + results + " results for a chart in " + tsv);
            }
        } catch (IOException | RuntimeException | LinkageError e) {
            out.println("Could not draw the " + charts + " (" + e + "); redraw later with: chart " + tsv);
        }
    }
}
