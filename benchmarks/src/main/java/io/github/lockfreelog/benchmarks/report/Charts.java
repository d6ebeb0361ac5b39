package io.github.lockfreelog.benchmarks.report;

import io.github.lockfreelog.benchmarks.peers.Peer;
import io.github.lockfreelog.benchmarks.peers.Workload;
import io.github.lockfreelog.benchmarks.results.CostResult;
import io.github.lockfreelog.benchmarks.results.Format;
import io.github.lockfreelog.benchmarks.results.LatencyPoint;
import io.github.lockfreelog.benchmarks.results.ThroughputResult;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.knowm.xchart.AnnotationText;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.BitmapEncoder.BitmapFormat;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.CategorySeries;
import org.knowm.xchart.CategorySeries.CategorySeriesRenderStyle;
import org.knowm.xchart.style.Styler.LegendPosition;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * Draws a run's PNG charts with XChart, from its results (so they can be drawn again from a saved
 * run): lines delivered per second by threads and by line size, and latency percentiles. What each
 * shows comes from {@link ChartLines}; here each line is only styled by its role: lockfreelog thick and
 * in its own colour, peers thin, the encode-only reference dashed and grey, apart from the peers.
 */
public final class Charts {

    private static final Color LOCKFREELOG_COLOR = new Color(220, 50, 32);
    private static final Color REFERENCE_COLOR = new Color(120, 120, 120);
    /** Peers' colours: none of them close to lockfreelog's red. */
    private static final Color[] PEER_COLORS = {new Color(31, 119, 180), new Color(44, 160, 44),
        new Color(148, 103, 189), new Color(140, 86, 75), new Color(23, 190, 207), new Color(188, 189, 34),
        new Color(227, 119, 194), new Color(255, 187, 120), new Color(174, 199, 232), new Color(0, 0, 0)};

    private Charts() {
    }

    /**
     * The throughput charts of a run: by threads into {@code png} and, when the results hold a
     * line-size sweep, by line size beside it ({@code throughput} in the name becomes {@code line-size});
     * returns the files written.
     */
    public static List<Path> drawThroughput(List<ThroughputResult> results, Path png, String subtitle) throws IOException {
        List<Path> drawn = new ArrayList<>();
        if (throughputByThreads(results, png, subtitle)) {
            drawn.add(png);
        }
        String name = png.getFileName().toString();
        Path sweep = png.resolveSibling(name.contains("throughput") ? name.replace("throughput", "line-size")
                : name.replaceFirst("(\\.png)?$", "-line-size.png"));
        if (throughputByLineSize(results, sweep, subtitle)) {
            drawn.add(sweep);
        }
        return drawn;
    }

    /**
     * The latency chart of the headline point ({@value LatencyReport#HEADLINE_RATE} events/s, {@value LatencyReport#HEADLINE_THREADS}
     * thread; the run's first point when it has no such point) into {@code png}, or with {@code everyPoint}
     * one chart per rate and thread count beside it ({@code NAME-100k-1t.png}); returns the files written.
     */
    public static List<Path> drawLatency(List<LatencyPoint> points, Path png, String subtitle, boolean everyPoint)
            throws IOException {
        List<Path> drawn = new ArrayList<>();
        if (everyPoint) {
            for (LatencyPoint p : points) {
                Path each = png.resolveSibling(png.getFileName().toString()
                        .replaceFirst("(\\.png)?$", "-" + Format.rate(p.rate()) + "-" + p.threads() + "t.png"));
                if (!drawn.contains(each)) {
                    latencyByPercentile(points, p.rate(), p.threads(), each, subtitle);
                    drawn.add(each);
                }
            }
        } else if (!points.isEmpty()) {
            String lead = Peer.lead(points.stream().map(LatencyPoint::peer).toList());
            boolean headline = LatencyReport.find(points, lead, LatencyReport.HEADLINE_RATE, LatencyReport.HEADLINE_THREADS) != null;
            latencyByPercentile(points, headline ? LatencyReport.HEADLINE_RATE : points.get(0).rate(),
                    headline ? LatencyReport.HEADLINE_THREADS : points.get(0).threads(), png, subtitle);
            drawn.add(png);
        }
        return drawn;
    }

    /**
     * The cost mode's chart: the process's CPU time per delivered line (median of the rounds) against
     * threads, one line per peer; returns the files written (none without results).
     */
    public static List<Path> drawCost(List<CostResult> results, Path png, String subtitle) throws IOException {
        CostReport report = new CostReport(results);
        List<Integer> threads = report.threadCounts();
        if (threads.isEmpty()) {
            return List.of();
        }
        draw(chart("CPU time per delivered line by threads (" + report.lineText() + ", whole process"
                + subtitle + ")", "threads", "ns of CPU per line delivered (median of the rounds; lower is better)", false),
                threads.stream().map(String::valueOf).toList(), ChartLines.cost(results, threads), png);
        return List.of(png);
    }

    /**
     * The OTLP set's chart of a cost run: records delivered to the receiver per second against threads, one line per
     * OTLP peer; returns the files written (none without OTLP results).
     */
    public static List<Path> drawOtlp(List<CostResult> results, Path png, String subtitle) throws IOException {
        if (!OtlpCostReport.applies(results)) {
            return List.of();
        }
        OtlpCostReport report = new OtlpCostReport(results);
        List<Integer> threads = new CostReport(results).threadCounts();
        draw(chart("OTLP records delivered per second by threads (" + Workload.DEFAULT_LINE_SIZE + "-byte lines' message"
                + subtitle + ")", "threads", "thousand records delivered per second (median; higher is better)", false), threads.stream().map(String::valueOf).toList(),
                ChartLines.otlp(report, threads), png);
        return List.of(png);
    }

    /**
     * Lines delivered per second against threads, one line per peer, for the default line size.
     * Returns whether a chart was written (there must be throughput results).
     */
    private static boolean throughputByThreads(List<ThroughputResult> results, Path png, String subtitle)
            throws IOException {
        int lineSize = Workload.DEFAULT_LINE_SIZE;
        Set<Integer> threads = new TreeSet<>();
        results.stream().filter(r -> r.lineSize() == lineSize).forEach(r -> threads.add(r.threads()));
        if (threads.isEmpty()) {
            return false;
        }
        List<ChartLines.Line> lines = ChartLines.delivered(results, threads.stream().map(t -> new ChartLines.Point(t, lineSize)).toList());
        draw(chart("Lines delivered per second by threads (" + lineSize + "-byte lines" + subtitle + ")", "threads",
                DELIVERED_AXIS, false), threads.stream().map(String::valueOf).toList(), lines, png);
        return true;
    }

    /** Lines delivered per second at the sweep's thread count against line size; false without a sweep. */
    private static boolean throughputByLineSize(List<ThroughputResult> results, Path png, String subtitle)
            throws IOException {
        Set<Integer> sizes = new TreeSet<>();
        results.stream().filter(r -> r.threads() == Report.SWEEP_THREADS).forEach(r -> sizes.add(r.lineSize()));
        if (sizes.size() < 2) {
            return false;
        }
        List<ChartLines.Line> lines = ChartLines.delivered(results, sizes.stream().map(s -> new ChartLines.Point(Report.SWEEP_THREADS, s)).toList());
        draw(chart("Lines delivered per second by line size (" + Report.SWEEP_THREADS + " threads" + subtitle + ")",
                "line size, bytes", DELIVERED_AXIS, false), sizes.stream().map(String::valueOf).toList(), lines, png);
        return true;
    }

    /** Latency percentiles (p50 .. max, log scale) at one rate and thread count, one line per peer. */
    private static void latencyByPercentile(List<LatencyPoint> points, long rate, int threads, Path png, String subtitle)
            throws IOException {
        draw(chart("Latency of a logging call at " + Format.rate(rate) + " events/s, " + Format.threads(threads)
                + " (" + Workload.DEFAULT_LINE_SIZE + "-byte lines" + subtitle + ")",
                "percentile", "microseconds from the call's scheduled time (log scale; lower is better)", true),
                LatencyPoint.Percentiles.LABELS, ChartLines.latency(points, rate, threads), png);
    }

    private static final String DELIVERED_AXIS = "million lines delivered per second (calls minus lines lost; higher is better)";

    /** A line chart over categories, styled as every chart of the runs; {@code logarithmic} for the y axis. */
    public static CategoryChart chart(String title, String xTitle, String yTitle, boolean logarithmic) {
        System.setProperty("java.awt.headless", "true");
        CategoryChart chart = new CategoryChartBuilder().width(1100).height(760).title(title)
                .xAxisTitle(xTitle).yAxisTitle(yTitle).build();
        chart.getStyler().setDefaultSeriesRenderStyle(CategorySeriesRenderStyle.Line);
        chart.getStyler().setOverlapped(true); // every series at the same x positions
        chart.getStyler().setLegendPosition(LegendPosition.OutsideS);
        chart.getStyler().setMarkerSize(7);
        chart.getStyler().setAnnotationTextFont(new Font(Font.SANS_SERIF, Font.BOLD, 12));
        if (logarithmic) {
            chart.getStyler().setYAxisLogarithmic(true);
            chart.getStyler().setYAxisDecimalPattern("#,##0.#"); // 1,000 rather than 1E3
        } else {
            chart.getStyler().setYAxisMin(0.0);
        }
        return chart;
    }

    /** Draws {@code lines} on {@code chart} over {@code categories}, each styled by its role, into {@code png}. */
    public static void draw(CategoryChart chart, List<String> categories, List<ChartLines.Line> lines, Path png) throws IOException {
        List<Color> colors = new ArrayList<>();
        int peer = 0;
        for (ChartLines.Line line : lines) {
            CategorySeries series = chart.addSeries(line.label(), categories, line.values());
            Color color = switch (line.role()) {
                case LOCKFREELOG -> LOCKFREELOG_COLOR;
                case REFERENCE -> REFERENCE_COLOR;
                case PEER -> PEER_COLORS[peer++ % PEER_COLORS.length];
            };
            colors.add(color);
            series.setLineColor(color);
            series.setMarkerColor(color);
            switch (line.role()) {
                case LOCKFREELOG -> {
                    series.setLineWidth(4.5f);
                    series.setMarker(SeriesMarkers.CIRCLE);
                }
                case REFERENCE -> {
                    series.setLineStyle(new BasicStroke(2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f,
                            new float[] {9f, 7f}, 0f));
                    series.setMarker(SeriesMarkers.NONE);
                }
                case PEER -> series.setLineWidth(1.5f);
            }
        }
        annotate(chart, lines, colors);
        Path parent = png.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        try (OutputStream out = Files.newOutputStream(png)) {
            BitmapEncoder.saveBitmap(chart, out, BitmapFormat.PNG);
        }
    }

    /**
     * Writes each line's notes above its points, in the line's colour; the notes of the k-th annotated
     * line sit k steps higher, so that two lossy peers with close values stay readable. XChart spans n
     * categories over x = 0..n, so category i is centred at i + 0.5; y is in the data's units (linear
     * axes only, where notes are used).
     */
    private static void annotate(CategoryChart chart, List<ChartLines.Line> lines, List<Color> colors) {
        double top = lines.stream().flatMap(l -> l.values().stream()).filter(v -> v != null).mapToDouble(v -> v).max()
                .orElse(0);
        int annotated = 0;
        for (int l = 0; l < lines.size(); l++) {
            ChartLines.Line line = lines.get(l);
            double lift = top * (0.03 + 0.04 * annotated);
            boolean any = false;
            for (int i = 0; i < line.notes().size(); i++) {
                String note = line.notes().get(i);
                Double value = line.values().get(i);
                if (note != null && value != null) {
                    chart.addAnnotation(new ColoredText(chart, colors.get(l), note, i + 0.5, value + lift));
                    any = true;
                }
            }
            annotated += any ? 1 : 0;
        }
    }

    /** XChart colours all annotation text alike; this one paints in its own colour. */
    private static final class ColoredText extends AnnotationText {
        private final CategoryChart chart;
        private final Color color;

        ColoredText(CategoryChart chart, Color color, String text, double x, double y) {
            super(text, x, y, false);
            this.chart = chart;
            this.color = color;
        }

        @Override
        public void paint(Graphics2D g) {
            Color before = chart.getStyler().getAnnotationTextFontColor();
            chart.getStyler().setAnnotationTextFontColor(color);
            super.paint(g);
            chart.getStyler().setAnnotationTextFontColor(before);
        }
    }

}
