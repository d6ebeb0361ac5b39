package io.github.lockfreelog.benchmarks.report;

import io.github.lockfreelog.benchmarks.peers.Peer;
import io.github.lockfreelog.benchmarks.results.CostResult;
import io.github.lockfreelog.benchmarks.results.LatencyPoint;
import io.github.lockfreelog.benchmarks.results.LineCheck;
import io.github.lockfreelog.benchmarks.results.ThroughputResult;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * What each chart shows, worked out before anything is drawn: one {@link Line} per peer, with the
 * values at each category, a legend label that says what the peer lost or why it is not a peer, and
 * the {@link Role} that {@link Charts} styles it by. A peer that accepts calls faster than it writes
 * them is not faster for it: throughput lines plot the lines it delivered.
 */
public final class ChartLines {

    /** How a line is drawn. */
    public enum Role {
        LOCKFREELOG, PEER, REFERENCE
    }

    /**
     * One line of a chart.
     *
     * @param label legend text: the peer, and what it lost or why it is not a peer
     * @param values one value per category; null where the peer has no result (a gap)
     * @param notes one per category, written beside the point ("lost 72 %"); null where there is none
     */
    public record Line(String peer, String label, Role role, List<Double> values, List<String> notes) {

        Line(String peer, String label, Role role, List<Double> values) {
            this(peer, label, role, values, Collections.nCopies(values.size(), null));
        }
    }

    /** One x position of a throughput chart. */
    public record Point(int threads, int lineSize) {
    }

    /**
     * Per peer, lines delivered per second at each point: JMH's calls per second times the share of
     * the calls whose lines reached the file (written / accepted; warm-up included, as the file holds
     * it). A peer that lost lines is labelled with how many, over the points drawn.
     */
    static List<Line> delivered(List<ThroughputResult> results, List<Point> points) {
        List<Line> lines = new ArrayList<>();
        String lead = Peer.lead(results.stream().map(ThroughputResult::peer).toList());
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
                Line line = line(peer, checks, values, lead);
                lines.add(new Line(peer, line.label(), line.role(), values, notes));
            }
        }
        return lines;
    }

    /**
     * Per peer, the median over its rounds of the process's CPU time per delivered line, in ns, at each
     * thread count; a peer that lost lines is labelled with how many (its figure is per line it wrote).
     */
    static List<Line> cost(List<CostResult> results, List<Integer> threads) {
        CostReport report = new CostReport(results);
        List<Line> lines = new ArrayList<>();
        String lead = Peer.lead(results.stream().map(CostResult::peer).distinct().toList());
        for (String peer : Peer.order(results.stream().map(CostResult::peer).distinct().toList())) {
            List<Double> values = new ArrayList<>();
            for (int t : threads) {
                Spread total = report.total(peer, t);
                values.add(total.isEmpty() ? null : total.median());
            }
            if (values.stream().anyMatch(v -> v != null)) {
                lines.add(line(peer, results.stream().filter(r -> r.peer().equals(peer)).map(CostResult::lines).toList(),
                        values, lead));
            }
        }
        return lines;
    }

    /** Per OTLP peer of a cost run, thousands of records delivered to the receiver per second (median of the rounds). */
    static List<Line> otlp(OtlpCostReport report, List<Integer> threads) {
        List<Line> lines = new ArrayList<>();
        for (String peer : report.otlpPeers()) {
            List<Double> values = new ArrayList<>();
            for (int t : threads) {
                Spread delivered = report.delivered(peer, t);
                values.add(delivered.isEmpty() ? null : delivered.median() / 1e3);
            }
            lines.add(new Line(peer, peer, peer.equals(OtlpCostReport.LEAD) ? Role.LOCKFREELOG : Role.PEER, values));
        }
        return lines;
    }

    /** Per peer, its percentiles in microseconds at one rate and thread count. */
    static List<Line> latency(List<LatencyPoint> points, long rate, int threads) {
        List<Line> lines = new ArrayList<>();
        List<LatencyPoint> rows = LatencyReport.rows(points, rate, threads);
        String lead = Peer.lead(rows.stream().map(LatencyPoint::peer).toList());
        for (LatencyPoint p : rows) {
            List<Double> values = p.latency().values().stream().map(nanos -> Math.max(nanos, 1) / 1000.0).toList();
            Line line = line(p.peer(), List.of(p.lines()), values, lead);
            lines.add(p.behind()
                    ? new Line(p.peer(), line.label() + " (fell behind the rate: lower bounds)", line.role(), values)
                    : line);
        }
        return lines;
    }

    static Line line(String peer, List<LineCheck> entries, List<Double> values) {
        return line(peer, entries, values, Report.REFERENCE);
    }

    /** A peer's line, drawn as lockfreelog's when it is {@code lead} (lockfreelog, or lockfreelog-console for the console set). */
    static Line line(String peer, List<LineCheck> entries, List<Double> values, String lead) {
        if (peer.equals(Peer.ENCODE_ONLY.id())) {
            return new Line(peer, peer + " (reference, not a peer: encoding alone, writes nothing)", Role.REFERENCE, values);
        }
        if (peer.equals(Peer.LOGBACK_NOP.id())) {
            return new Line(peer, peer + " (reference, not a peer: Logback's front end alone, writes nothing)",
                    Role.REFERENCE, values);
        }
        if (peer.equals(Peer.KAFKA_FILE_REFERENCE)) {
            return new Line(peer, peer + " (reference, not a Kafka peer: the same engine writing a file)", Role.REFERENCE,
                    values);
        }
        String lost = lossText(entries);
        return new Line(peer, lost.isEmpty() ? peer : peer + " (" + lost + ")",
                peer.equals(lead) ? Role.LOCKFREELOG : Role.PEER, values);
    }

    /** "lost 41 % of its lines", or a range over several points ("lost 72-97 % ..."); empty when nothing was lost. */
    public static String lossText(List<LineCheck> entries) {
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
    public static String percent(LineCheck entry) {
        double percent = entry.lostPercent();
        if (percent >= 99.5 && percent < 100) {
            return String.format(Locale.ROOT, "%.1f", Math.min(Math.floor(percent * 10) / 10, 99.9));
        }
        if (percent >= 1) {
            return String.format(Locale.ROOT, "%.0f", percent);
        }
        return percent >= 0.1 ? String.format(Locale.ROOT, "%.1f", percent) : "<0.1";
    }
}
