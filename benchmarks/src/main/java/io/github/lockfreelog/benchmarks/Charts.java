package io.github.lockfreelog.benchmarks;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
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
 * PNG charts drawn with XChart from saved results, so they can be redrawn: lines <em>delivered</em>
 * per second (a peer that drops lines is not faster for it) and latency percentiles. What each chart
 * shows is worked out first as a list of {@link Line}s (tested on small fixtures); drawing only styles
 * them by {@link Role}: lockfreelog thick and in its own colour, peers thin, the encode-only reference
 * dashed and grey, apart from the peers.
 */
public final class Charts {

    /** How a line is drawn. */
    enum Role {
        LOCKFREELOG, PEER, REFERENCE
    }

    /**
     * One line of a chart.
     *
     * @param label legend text: the peer, and what it lost or why it is not a peer
     * @param values one value per category; null where the peer has no result (a gap)
     * @param notes one per category, written beside the point ("lost 72 %"); null where there is none
     */
    record Line(String peer, String label, Role role, List<Double> values, List<String> notes) {

        Line(String peer, String label, Role role, List<Double> values) {
            this(peer, label, role, values, Collections.nCopies(values.size(), null));
        }
    }

    private static final Color LOCKFREELOG_COLOR = new Color(220, 50, 32);
    private static final Color REFERENCE_COLOR = new Color(120, 120, 120);
    /** Peers' colours: none of them close to lockfreelog's red. */
    private static final Color[] PEER_COLORS = {new Color(31, 119, 180), new Color(44, 160, 44),
        new Color(148, 103, 189), new Color(140, 86, 75), new Color(23, 190, 207), new Color(188, 189, 34),
        new Color(227, 119, 194), new Color(255, 187, 120), new Color(174, 199, 232), new Color(0, 0, 0)};

    private Charts() {
    }

    /**
     * Lines delivered per second against threads, one line per peer, for the default line size.
     * Returns whether a chart was written (there must be throughput results).
     */
    public static boolean throughputByThreads(List<ThroughputResult> results, Path png, String subtitle)
            throws IOException {
        int lineSize = Workload.DEFAULT_LINE_SIZE;
        Set<Integer> threads = new TreeSet<>();
        results.stream().filter(r -> r.lineSize() == lineSize).forEach(r -> threads.add(r.threads()));
        if (threads.isEmpty()) {
            return false;
        }
        List<Line> lines = delivered(results, threads.stream().map(t -> new Point(t, lineSize)).toList());
        draw(chart("Lines delivered per second by threads (" + lineSize + "-byte lines" + subtitle + ")", "threads",
                DELIVERED_AXIS, false), threads.stream().map(String::valueOf).toList(), lines, png);
        return true;
    }

    /** Lines delivered per second at the sweep's thread count against line size; false without a sweep. */
    public static boolean throughputByLineSize(List<ThroughputResult> results, Path png, String subtitle)
            throws IOException {
        Set<Integer> sizes = new TreeSet<>();
        results.stream().filter(r -> r.threads() == Report.SWEEP_THREADS).forEach(r -> sizes.add(r.lineSize()));
        if (sizes.size() < 2) {
            return false;
        }
        List<Line> lines = delivered(results, sizes.stream().map(s -> new Point(Report.SWEEP_THREADS, s)).toList());
        draw(chart("Lines delivered per second by line size (" + Report.SWEEP_THREADS + " threads" + subtitle + ")",
                "line size, bytes", DELIVERED_AXIS, false), sizes.stream().map(String::valueOf).toList(), lines, png);
        return true;
    }

    /** Latency percentiles (p50 .. max, log scale) at one rate and thread count, one line per peer. */
    public static void latencyByPercentile(List<LatencyPoint> points, long rate, int threads, Path png, String subtitle)
            throws IOException {
        draw(chart("Latency of a logging call at " + Format.rate(rate) + " events/s, " + Format.threads(threads)
                + " (" + Workload.DEFAULT_LINE_SIZE + "-byte lines" + subtitle + ")",
                "percentile", "microseconds from the call's scheduled time (log scale; lower is better)", true),
                LatencyPoint.Percentiles.LABELS, latency(points, rate, threads), png);
    }

    private static final String DELIVERED_AXIS = "million lines delivered per second (calls minus lines lost; higher is better)";

    /** One x position of a throughput chart. */
    record Point(int threads, int lineSize) {
    }

    /**
     * Per peer, lines delivered per second at each point: JMH's calls per second times the share of
     * the calls whose lines reached the file (written / accepted; warm-up included, as the file holds
     * it). A peer that lost lines is labelled with how many, over the points drawn.
     */
    static List<Line> delivered(List<ThroughputResult> results, List<Point> points) {
        List<Line> lines = new ArrayList<>();
        for (String peer : Peer.order(results.stream().map(ThroughputResult::peer).toList())) {
            List<Double> values = new ArrayList<>();
            List<String> notes = new ArrayList<>();
            List<LineCheck> checks = new ArrayList<>();
            for (Point point : points) {
                ThroughputResult r = results.stream().filter(x -> x.peer().equals(peer) && x.threads() == point.threads()
                        && x.lineSize() == point.lineSize()).findFirst().orElse(null);
                if (r != null) {
                    checks.add(r.lines());
                }
                values.add(r == null ? null : r.opsPerSecond() * r.lines().deliveredFraction() / 1e6);
                notes.add(r != null && r.lines().losing() ? "lost " + percent(r.lines()) + " %" : null);
            }
            if (values.stream().anyMatch(v -> v != null)) {
                Line line = line(peer, checks, values);
                lines.add(new Line(peer, line.label(), line.role(), values, notes));
            }
        }
        return lines;
    }

    /** Per peer, its percentiles in microseconds at one rate and thread count. */
    static List<Line> latency(List<LatencyPoint> points, long rate, int threads) {
        List<Line> lines = new ArrayList<>();
        for (LatencyPoint p : LatencyReport.rows(points, rate, threads)) {
            List<Double> values = p.latency().values().stream().map(nanos -> Math.max(nanos, 1) / 1000.0).toList();
            Line line = line(p.peer(), List.of(p.lines()), values);
            lines.add(p.behind()
                    ? new Line(p.peer(), line.label() + " (fell behind the rate: lower bounds)", line.role(), values)
                    : line);
        }
        return lines;
    }

    private static Line line(String peer, List<LineCheck> entries, List<Double> values) {
        if (peer.equals(Peer.ENCODE_ONLY.id())) {
            return new Line(peer, peer + " (reference, not a peer: encoding alone, writes nothing)", Role.REFERENCE, values);
        }
        String lost = lossText(entries);
        return new Line(peer, lost.isEmpty() ? peer : peer + " (" + lost + ")",
                peer.equals(Report.REFERENCE) ? Role.LOCKFREELOG : Role.PEER, values);
    }

    /** "lost 41 % of its lines", or a range over several points ("lost 72-97 % ..."); empty when nothing was lost. */
    static String lossText(List<LineCheck> entries) {
        LineCheck least = null;
        LineCheck most = null;
        for (LineCheck entry : entries) {
            if (entry.losing()) {
                least = least == null || entry.lostPercent() < least.lostPercent() ? entry : least;
                most = most == null || entry.lostPercent() > most.lostPercent() ? entry : most;
            }
        }
        if (most == null) {
            return "";
        }
        String lowest = percent(least);
        String highest = percent(most);
        return "lost " + (lowest.equals(highest) ? lowest : lowest + "-" + highest) + " % of its lines";
    }

    /** Share of lines lost in whole percent, but never "100" for a peer that kept some lines, nor "0" for one that lost some. */
    private static String percent(LineCheck entry) {
        double percent = entry.lostPercent();
        if (percent >= 99.5 && percent < 100) {
            return String.format(Locale.ROOT, "%.1f", Math.min(Math.floor(percent * 10) / 10, 99.9));
        }
        if (percent >= 1) {
            return String.format(Locale.ROOT, "%.0f", percent);
        }
        return percent >= 0.1 ? String.format(Locale.ROOT, "%.1f", percent) : "<0.1";
    }

    private static CategoryChart chart(String title, String xTitle, String yTitle, boolean logarithmic) {
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

    private static void draw(CategoryChart chart, List<String> categories, List<Line> lines, Path png) throws IOException {
        List<Color> colors = new ArrayList<>();
        int peer = 0;
        for (Line line : lines) {
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
    private static void annotate(CategoryChart chart, List<Line> lines, List<Color> colors) {
        double top = lines.stream().flatMap(l -> l.values().stream()).filter(v -> v != null).mapToDouble(v -> v).max()
                .orElse(0);
        int annotated = 0;
        for (int l = 0; l < lines.size(); l++) {
            Line line = lines.get(l);
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
