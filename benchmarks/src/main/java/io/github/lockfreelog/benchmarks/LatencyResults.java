package io.github.lockfreelog.benchmarks;

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
 * the points whose fork failed as rows marked {@code failed}, and every point's histogram in
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

    private LatencyResults() {
    }

    /** {@code results/quick-X-latency.tsv} -> {@code results/quick-X-latency.hlog}. */
    static Path histogramsFor(Path tsv) {
        return tsv.resolveSibling(tsv.getFileName().toString().replaceFirst("\\.tsv$", "") + ".hlog");
    }

    /** Whether {@code tsv} holds a latency run rather than a throughput run. */
    static boolean isLatencyRun(Path tsv) {
        return tsv.getFileName().toString().endsWith("-latency.tsv");
    }

    public static void write(Run run, Path tsv) throws IOException {
        List<Map<String, String>> rows = new ArrayList<>();
        run.points().forEach(p -> rows.add(row(p)));
        for (Failure f : run.failures()) {
            Map<String, String> row = row(new LatencyPoint(f.peer(), f.rate(), f.threads(), 0, 0, 0, 0, 0, 0,
                    new LatencyPoint.Percentiles(0, 0, 0, 0, 0, 0, 0), new LineCheck(0, 0, 0, 0), "-",
                    new Disturbances(-1, -1, -1)));
            row.put("failed", "true");
            rows.add(row);
        }
        Tsv.write(tsv, run.environment(), rows);
    }

    public static Run read(Path tsv) throws IOException {
        List<LatencyPoint> points = new ArrayList<>();
        List<Failure> failures = new ArrayList<>();
        for (Map<String, String> row : Tsv.read(tsv)) {
            if (Boolean.parseBoolean(row.get("failed"))) {
                failures.add(new Failure(row.get("peer"), Long.parseLong(row.get("rate")), Integer.parseInt(row.get("threads"))));
            } else {
                points.add(point(row));
            }
        }
        return new Run(Tsv.comment(tsv), points, failures);
    }

    /** Every histogram of a run's log, by its tag. */
    static Map<String, Histogram> readHistograms(Path hlog) throws IOException {
        Map<String, Histogram> histograms = new LinkedHashMap<>();
        try (HistogramLogReader reader = new HistogramLogReader(hlog.toFile())) {
            for (EncodableHistogram h; (h = reader.nextIntervalHistogram()) != null; ) {
                histograms.put(h.getTag(), (Histogram) h);
            }
        }
        return histograms;
    }

    /** Starts a run's histogram log: its format version and column legend. */
    static void startHistogramLog(Path hlog) throws IOException {
        try (PrintStream out = new PrintStream(new FileOutputStream(hlog.toFile()), true, StandardCharsets.UTF_8)) {
            HistogramLogWriter writer = new HistogramLogWriter(out);
            writer.outputComment("lockfreelog latency points: nanoseconds from each call's scheduled time to its return");
            writer.outputLogFormatVersion();
            writer.outputLegend();
        }
    }

    /** Appends one point's histogram to the run's log, tagged {@code tag}, over its measured window (epoch millis). */
    static void appendHistogram(Path hlog, String tag, Histogram histogram, long startMillis, long endMillis)
            throws IOException {
        Histogram tagged = histogram.copy();
        tagged.setTag(tag);
        tagged.setStartTimeStamp(startMillis);
        tagged.setEndTimeStamp(endMillis);
        try (PrintStream out = new PrintStream(new FileOutputStream(hlog.toFile(), true), true, StandardCharsets.UTF_8)) {
            new HistogramLogWriter(out).outputIntervalHistogram(tagged);
        }
    }

    private static Map<String, String> row(LatencyPoint p) {
        Map<String, String> row = new LinkedHashMap<>();
        row.put("peer", p.peer());
        row.put("rate", Long.toString(p.rate()));
        row.put("threads", Integer.toString(p.threads()));
        row.put("lineSize", Integer.toString(p.lineSize()));
        row.put("warmupMillis", Long.toString(p.warmupMillis()));
        row.put("measureMillis", Long.toString(p.measureMillis()));
        row.put("made", Long.toString(p.made()));
        row.put("measured", Long.toString(p.measured()));
        row.put("missed", Long.toString(p.missed()));
        List<Long> values = p.latency().values();
        for (int i = 0; i < values.size(); i++) {
            row.put(LatencyPoint.Percentiles.LABELS.get(i) + "Nanos", Long.toString(values.get(i)));
        }
        row.put("count", Long.toString(p.latency().count()));
        row.put("accepted", Long.toString(p.lines().accepted()));
        row.put("written", Long.toString(p.lines().written()));
        row.put("bytes", Long.toString(p.lines().bytes()));
        row.put("nulBytes", Long.toString(p.lines().nulBytes()));
        Disturbances d = p.disturbances();
        row.put("gcPauses", Long.toString(d.gcPauses()));
        row.put("gcPauseMillis", Long.toString(d.gcPauseMillis()));
        row.put("stealMillis", Long.toString(d.stealMillis()));
        row.put("callerPreemptions", Long.toString(d.callerPreemptions()));
        row.put("callerWaitMicros", Long.toString(d.callerWaitMicros()));
        row.put("histogram", p.histogram());
        row.put("failed", "false");
        return row;
    }

    private static LatencyPoint point(Map<String, String> row) {
        List<Long> values = LatencyPoint.Percentiles.LABELS.stream().map(label -> number(row, label + "Nanos")).toList();
        return new LatencyPoint(row.get("peer"), number(row, "rate"), (int) number(row, "threads"),
                (int) number(row, "lineSize"), number(row, "warmupMillis"), number(row, "measureMillis"),
                number(row, "made"), number(row, "measured"), number(row, "missed"),
                LatencyPoint.Percentiles.of(values, number(row, "count")),
                new LineCheck(number(row, "accepted"), number(row, "written"), number(row, "bytes"), number(row, "nulBytes")),
                row.get("histogram"), new Disturbances(number(row, "gcPauses"), number(row, "gcPauseMillis"),
                        number(row, "stealMillis"), number(row, "callerPreemptions"), number(row, "callerWaitMicros")));
    }

    private static long number(Map<String, String> row, String column) {
        String value = row.get(column);
        if (value == null) {
            throw new IllegalArgumentException("no column " + column + " in a latency row, have " + row.keySet());
        }
        return Long.parseLong(value);
    }
}
