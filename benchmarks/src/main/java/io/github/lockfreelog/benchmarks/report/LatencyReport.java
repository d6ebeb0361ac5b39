package io.github.lockfreelog.benchmarks.report;

import io.github.lockfreelog.benchmarks.peers.Peer;
import io.github.lockfreelog.benchmarks.results.Disturbances;
import io.github.lockfreelog.benchmarks.results.Format;
import io.github.lockfreelog.benchmarks.results.LatencyPoint;
import io.github.lockfreelog.benchmarks.results.LatencyResults;
import io.github.lockfreelog.benchmarks.results.LineCheck;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * Markdown tables of a latency run, one per rate and thread count: the percentiles of every peer
 * in microseconds, and the line check. The encode-only appender comes last, marked as a reference
 * (what encoding alone costs), not as a peer. The same text is printed and written to a {@code .md}.
 */
public final class LatencyReport {

    /** The latency point the README shows and the docs' latency chart draws: 100k events/s from 1 thread. */
    public static final long HEADLINE_RATE = 100_000;
    public static final int HEADLINE_THREADS = 1;

    static final String REFERENCE = Peer.ENCODE_ONLY.id();

    private final List<LatencyPoint> points;
    private final List<LatencyResults.Failure> failures;

    public LatencyReport(LatencyResults.Run run) {
        this.points = List.copyOf(run.points());
        this.failures = List.copyOf(run.failures());
    }

    public String render() {
        if (points.isEmpty() && failures.isEmpty()) {
            return "No latency results.\n";
        }
        StringBuilder out = new StringBuilder();
        for (long rate : rates()) {
            for (int threads : threads(rate)) {
                out.append(table(rate, threads)).append('\n');
            }
        }
        return out.toString();
    }

    /** One rate and thread count: a heading, how it was measured, and one row per peer. */
    public String table(long rate, int threads) {
        List<LatencyPoint> rows = rows(points, rate, threads);
        StringBuilder out = new StringBuilder(String.format(Locale.ROOT, "### Latency at %s events/s, %d %s%n%n",
                Format.rate(rate), threads, threads == 1 ? "thread" : "threads"));
        if (rows.isEmpty()) {
            out.append("Microseconds from each call's scheduled time to its return (lower is better).\n\n");
        } else {
            LatencyPoint first = rows.get(0);
            out.append(String.format(Locale.ROOT,
                    "Microseconds from each call's scheduled time to its return (lower is better); %s s measured after"
                            + " %s s of warm-up, %d-byte lines.%n%n",
                    seconds(first.measureMillis()), seconds(first.warmupMillis()), first.lineSize()));
        }
        out.append("| peer | ").append(String.join(" | ", LatencyPoint.Percentiles.LABELS))
                .append(" | calls measured | lines written / calls | GC pauses, CPU steal, callers preempted (measured window); forks |\n");
        out.append("| --- |").append(" ---: |".repeat(LatencyPoint.Percentiles.LABELS.size() + 1)).append(" --- | --- |\n");
        for (LatencyPoint p : rows) {
            List<String> cells = new ArrayList<>();
            cells.add(label(p.peer()));
            p.latency().values().forEach(nanos -> cells.add(Format.micros(nanos)));
            cells.add(Format.si(p.measured()));
            cells.add(linesText(p));
            String spread = spread(points, p);
            cells.add(p.disturbances().text() + (spread.isEmpty() ? "" : "; median of " + spread));
            out.append("| ").append(String.join(" | ", cells)).append(" |\n");
        }
        for (LatencyResults.Failure f : failures) {
            if (f.rate() == rate && f.threads() == threads && find(points, f.peer(), rate, threads) == null) {
                out.append("| ").append(label(f.peer())).append(" |").append(" - |".repeat(LatencyPoint.Percentiles.LABELS.size() + 1))
                        .append(" FAILED: its fork gave no result (see the run's output) | - |\n");
            }
        }
        return out.toString();
    }

    /** The peer's label: lockfreelog (and lockfreelog-console) in bold, the encode-only appender marked as a reference. */
    static String label(String peer) {
        if (Peer.isLockfreelog(peer)) {
            return "**" + peer + "**";
        }
        if (peer.equals(REFERENCE)) {
            return "*reference, not a peer: " + peer + " (encoding alone, writes nothing)*";
        }
        if (peer.equals(Peer.KAFKA_FILE_REFERENCE)) {
            return "*reference, not a Kafka peer: " + peer + " (a file)*";
        }
        return peer;
    }

    /** What was written against calls made, and whether the peer kept up with the rate. */
    static String linesText(LatencyPoint p) {
        LineCheck lines = p.lines();
        String text;
        if (!lines.writesFile()) {
            text = "n/a (writes no file)";
        } else if (lines.losing()) {
            text = String.format(Locale.ROOT, "LOST %s %% (%s of %s)", Format.fixed(lines.lostPercent(), 1),
                    Format.si(lines.lost()), Format.si(lines.accepted()));
        } else {
            text = "all " + Format.si(lines.written());
        }
        if (lines.nulBytes() > 0) {
            text += ", " + lines.nulBytes() + " NUL bytes";
        }
        if (p.behind()) {
            text += "; BEHIND: " + Format.si(p.missed()) + " calls never made, percentiles are lower bounds";
        }
        return text;
    }

    /** The points of one rate and thread count: peers in the order of {@link Peer}, the reference last. */
    static List<LatencyPoint> rows(List<LatencyPoint> points, long rate, int threads) {
        List<String> peers = points.stream().filter(p -> p.rate() == rate && p.threads() == threads)
                .map(LatencyPoint::peer).toList();
        List<LatencyPoint> rows = new ArrayList<>();
        for (String peer : Peer.order(peers)) {
            rows.add(find(points, peer, rate, threads));
        }
        return rows;
    }

    /**
     * The peer's point at this rate and thread count; when it was measured by several forks, the
     * fork with the median p99.9 (the lower of the two middle ones for an even count), so that one
     * fork the machine disturbed (see {@link Disturbances}) does not decide the row.
     */
    static LatencyPoint find(List<LatencyPoint> points, String peer, long rate, int threads) {
        List<LatencyPoint> forks = forks(points, peer, rate, threads);
        if (forks.isEmpty()) {
            return null;
        }
        forks.sort(Comparator.comparingLong((LatencyPoint p) -> p.latency().p999()));
        return forks.get((forks.size() - 1) / 2);
    }

    /** Every fork's point for this peer, rate and thread count, in the order measured. */
    static List<LatencyPoint> forks(List<LatencyPoint> points, String peer, long rate, int threads) {
        List<LatencyPoint> forks = new ArrayList<>();
        for (LatencyPoint p : points) {
            if (p.peer().equals(peer) && p.rate() == rate && p.threads() == threads) {
                forks.add(p);
            }
        }
        return forks;
    }

    /** "3 forks, p99.9 0.8-15.7 ms": the spread the median row was chosen from; empty for one fork. */
    static String spread(List<LatencyPoint> points, LatencyPoint row) {
        List<LatencyPoint> forks = forks(points, row.peer(), row.rate(), row.threads());
        if (forks.size() < 2) {
            return "";
        }
        long low = forks.stream().mapToLong(p -> p.latency().p999()).min().orElse(0);
        long high = forks.stream().mapToLong(p -> p.latency().p999()).max().orElse(0);
        return forks.size() + " forks, p99.9 " + Format.micros(low) + "-" + Format.micros(high) + " us";
    }

    private Set<Long> rates() {
        Set<Long> rates = new TreeSet<>();
        points.forEach(p -> rates.add(p.rate()));
        failures.forEach(f -> rates.add(f.rate()));
        return rates;
    }

    private Set<Integer> threads(long rate) {
        Set<Integer> threads = new TreeSet<>();
        points.stream().filter(p -> p.rate() == rate).forEach(p -> threads.add(p.threads()));
        failures.stream().filter(f -> f.rate() == rate).forEach(f -> threads.add(f.threads()));
        return threads;
    }

    private static String seconds(long millis) {
        return millis % 1000 == 0 ? Long.toString(millis / 1000) : Format.fixed(millis / 1000.0, 1);
    }
}
