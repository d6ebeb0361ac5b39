package io.github.lockfreelog.benchmarks;

import io.github.lockfreelog.benchmarks.JmhResults.Result;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.BitmapEncoder.BitmapFormat;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.CategorySeries.CategorySeriesRenderStyle;
import org.knowm.xchart.style.Styler.LegendPosition;

/** PNG charts drawn from JMH JSON with XChart, so they can be redrawn from saved results. */
public final class Charts {

    private Charts() {
    }

    /**
     * Throughput against threads, one line per peer, for the default line size; a peer that lost
     * lines is labelled so. Returns whether a chart was written (there must be throughput results).
     */
    public static boolean throughputByThreads(List<Result> results, Map<String, Ledger.Entry> ledger, Path png,
            String subtitle) throws IOException {
        int lineSize = Workload.DEFAULT_LINE_SIZE;
        Set<Integer> threads = new TreeSet<>();
        Set<String> peers = new LinkedHashSet<>();
        for (Result r : results) {
            if (r.mode().equals(Report.THROUGHPUT) && r.lineSize() == lineSize) {
                threads.add(r.threads());
                peers.add(r.peer());
            }
        }
        if (threads.isEmpty()) {
            return false;
        }
        List<String> categories = threads.stream().map(String::valueOf).toList();
        CategoryChart chart = chart("Throughput by threads (" + lineSize + "-byte lines" + subtitle + ")",
                "threads", "million lines per second (higher is better)");
        for (String peer : Report.order(peers)) {
            List<Double> values = new ArrayList<>();
            boolean lost = false;
            for (int t : threads) {
                values.add(find(results, peer, t, lineSize));
                lost |= losing(ledger, peer, t, lineSize);
            }
            chart.addSeries(lost ? peer + " (lost lines!)" : peer, categories, values);
        }
        write(chart, png);
        return true;
    }

    /** Throughput at the sweep's thread count against line size, one line per peer; false without a sweep. */
    public static boolean throughputByLineSize(List<Result> results, Map<String, Ledger.Entry> ledger, Path png,
            String subtitle) throws IOException {
        Set<Integer> sizes = new TreeSet<>();
        Set<String> peers = new LinkedHashSet<>();
        for (Result r : results) {
            if (r.mode().equals(Report.THROUGHPUT) && r.threads() == Report.SWEEP_THREADS) {
                sizes.add(r.lineSize());
                peers.add(r.peer());
            }
        }
        if (sizes.size() < 2) {
            return false;
        }
        List<String> categories = sizes.stream().map(String::valueOf).toList();
        CategoryChart chart = chart("Throughput by line size (" + Report.SWEEP_THREADS + " threads" + subtitle + ")",
                "line size, bytes", "million lines per second (higher is better)");
        for (String peer : Report.order(peers)) {
            List<Double> values = new ArrayList<>();
            boolean lost = false;
            for (int size : sizes) {
                values.add(find(results, peer, Report.SWEEP_THREADS, size));
                lost |= losing(ledger, peer, Report.SWEEP_THREADS, size);
            }
            chart.addSeries(lost ? peer + " (lost lines!)" : peer, categories, values);
        }
        write(chart, png);
        return true;
    }

    private static CategoryChart chart(String title, String xTitle, String yTitle) {
        System.setProperty("java.awt.headless", "true");
        CategoryChart chart = new CategoryChartBuilder().width(1100).height(650).title(title)
                .xAxisTitle(xTitle).yAxisTitle(yTitle).build();
        chart.getStyler().setDefaultSeriesRenderStyle(CategorySeriesRenderStyle.Line);
        chart.getStyler().setOverlapped(true); // every series at the same x positions
        chart.getStyler().setLegendPosition(LegendPosition.OutsideE);
        chart.getStyler().setYAxisMin(0.0);
        chart.getStyler().setMarkerSize(7);
        return chart;
    }

    /** Ops/s of one configuration in millions; null (a gap in the line) when missing. */
    private static Double find(List<Result> results, String peer, int threads, int lineSize) {
        for (Result r : results) {
            if (r.mode().equals(Report.THROUGHPUT) && r.peer().equals(peer) && r.threads() == threads
                    && r.lineSize() == lineSize) {
                return r.opsPerSecond() / 1e6;
            }
        }
        return null;
    }

    private static boolean losing(Map<String, Ledger.Entry> ledger, String peer, int threads, int lineSize) {
        Ledger.Entry entry = Ledger.find(ledger, Report.THROUGHPUT, peer, threads, lineSize);
        return entry != null && entry.losing();
    }

    private static void write(CategoryChart chart, Path png) throws IOException {
        Path parent = png.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        try (OutputStream out = Files.newOutputStream(png)) {
            BitmapEncoder.saveBitmap(chart, out, BitmapFormat.PNG);
        }
    }
}
