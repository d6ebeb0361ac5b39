package io.github.lockfreelog.benchmarks.results;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.HdrHistogram.HistogramLogWriter;

/**
 * Saves and reads a latency run: one row per {@link LatencyPoint} in {@code NAME-latency.tsv}, with
 * the points whose fork failed as rows without a histogram, and every point's histogram in
 * HdrHistogram's own log format ({@code NAME-latency.hlog}, written by {@link HistogramLogWriter},
 * read back by {@link HistogramLogReader}, and by HdrHistogram's log processor), tagged as its row says.
 */
public final class LatencyResults {

    /** A whole run: the machine it ran on, the points measured, and those whose fork gave no result. */
    public record Run(String environment, List<LatencyPoint> points, List<Failure> failures) {
    }

    /** A point whose fork failed or ran out of time: the tables list it as such rather than leave it out. */
    public record Failure(String peer, long rate, int threads) {
    }

    /** The histogram column of a failed point. */
    static final String NO_HISTOGRAM = "none";

    private LatencyResults() {
    }

    /** {@code results/quick-X-latency.tsv} -> {@code results/quick-X-latency.hlog}. */
    public static Path histogramsFor(Path tsv) {
        return tsv.resolveSibling(tsv.getFileName().toString().replaceFirst("\\.tsv$", "") + ".hlog");
    }

    /** Whether {@code tsv} holds a latency run rather than a throughput run. */
    public static boolean isLatencyRun(Path tsv) {
        return tsv.getFileName().toString().endsWith("-latency.tsv");
    }

    /** Saves {@code run}: each failure as a row without a histogram, its counts all 0. */
    public static void write(Run run, Path tsv) throws IOException {
        List<LatencyPoint> rows = new ArrayList<>(run.points());
        for (Failure f : run.failures()) {
            rows.add(new LatencyPoint(f.peer(), f.rate(), f.threads(), 0, 0, 0, 0, 0, 0,
                    new LatencyPoint.Percentiles(0, 0, 0, 0, 0, 0, 0), new LineCheck(0, 0, 0, 0), NO_HISTOGRAM,
                    new Disturbances(-1, -1, -1)));
        }
        Tsv.write(tsv, run.environment(), rows);
    }

    public static Run read(Path tsv) throws IOException {
        List<LatencyPoint> points = new ArrayList<>();
        List<Failure> failures = new ArrayList<>();
        for (LatencyPoint p : Tsv.read(tsv, LatencyPoint.class)) {
            if (p.histogram().equals(NO_HISTOGRAM)) {
                failures.add(new Failure(p.peer(), p.rate(), p.threads()));
            } else {
                points.add(p);
            }
        }
        return new Run(Tsv.comment(tsv), points, failures);
    }

    /** Every histogram of a run's log, by its tag. */
    public static Map<String, Histogram> readHistograms(Path hlog) throws IOException {
        Map<String, Histogram> histograms = new LinkedHashMap<>();
        try (HistogramLogReader reader = new HistogramLogReader(hlog.toFile())) {
            for (EncodableHistogram h; (h = reader.nextIntervalHistogram()) != null; ) {
                histograms.put(h.getTag(), (Histogram) h);
            }
        }
        return histograms;
    }

    /** Starts a run's histogram log: its format version and column legend. */
    public static void startHistogramLog(Path hlog) throws IOException {
        try (PrintStream out = new PrintStream(new FileOutputStream(hlog.toFile()), true, StandardCharsets.UTF_8)) {
            HistogramLogWriter writer = new HistogramLogWriter(out);
            writer.outputComment("lockfreelog latency points: nanoseconds from each call's scheduled time to its return");
            writer.outputLogFormatVersion();
            writer.outputLegend();
        }
    }

    /** Appends one point's histogram to the run's log, tagged {@code tag}, over its measured window (epoch millis). */
    public static void appendHistogram(Path hlog, String tag, Histogram histogram, long startMillis, long endMillis)
            throws IOException {
        Histogram tagged = histogram.copy();
        tagged.setTag(tag);
        tagged.setStartTimeStamp(startMillis);
        tagged.setEndTimeStamp(endMillis);
        try (PrintStream out = new PrintStream(new FileOutputStream(hlog.toFile(), true), true, StandardCharsets.UTF_8)) {
            new HistogramLogWriter(out).outputIntervalHistogram(tagged);
        }
    }
}
