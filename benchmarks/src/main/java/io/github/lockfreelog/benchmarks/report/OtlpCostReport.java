package io.github.lockfreelog.benchmarks.report;

import io.github.lockfreelog.benchmarks.peers.Peer;
import io.github.lockfreelog.benchmarks.results.CostResult;
import io.github.lockfreelog.benchmarks.results.Format;
import io.github.lockfreelog.benchmarks.results.LineCheck;
import java.util.List;
import java.util.Locale;

/**
 * The OTLP set's part of a cost run: per OTLP peer and thread count, records delivered to the receiver per second
 * (records the receiver counted over the window from the measured calls' start to the stop's return, which delivers
 * what the peer still held), the process's CPU time per delivered record and the callers' CPU time per call, each the
 * median of the rounds; then issue 37's targets, printed and never asserted: lockfreelog-otlp's delivered records per
 * second at least 2x the OpenTelemetry appender's, and its callers' CPU per call within 1.2x of the file appender's
 * ({@code lockfreelog}, the classic pattern: the same time, level, thread, logger and message as text).
 */
public final class OtlpCostReport {

    static final String LEAD = Peer.LOCKFREELOG_OTLP.id();
    static final double DELIVERED_TARGET = 2.0;
    static final double CALLER_TARGET = 1.2;

    private final List<CostResult> results;
    private final CostReport report;

    OtlpCostReport(List<CostResult> results) {
        this.results = List.copyOf(results);
        this.report = new CostReport(results);
    }

    /** Whether the results hold an OTLP peer. */
    public static boolean applies(List<CostResult> results) {
        return results.stream().anyMatch(r -> Peer.ids().contains(r.peer()) && Peer.of(r.peer()).sendsOtlp());
    }

    /** Records delivered per second of one fork: what the receiver counted over the window to the stop's return. */
    static double deliveredPerSecond(CostResult r) {
        return r.windowNanos() > 0 ? r.delivered() * 1e9 / r.windowNanos() : Double.NaN;
    }

    Spread delivered(String peer, int threads) {
        return report.spread(peer, threads, OtlpCostReport::deliveredPerSecond);
    }

    List<String> otlpPeers() {
        return Peer.order(results.stream().map(CostResult::peer).distinct()
                .filter(id -> Peer.ids().contains(id) && Peer.of(id).sendsOtlp()).toList());
    }

    String render() {
        List<Integer> threads = report.threadCounts();
        StringBuilder out = new StringBuilder(String.format(Locale.ROOT, "%n### OTLP: records delivered to the receiver"
                + " (median of the rounds, min-max)%n%ndelivered/s: records the receiver counted / the window from the"
                + " measured calls' start until the stop returned (everything held delivered);%ntotal: the logging JVM's"
                + " CPU time over that window per delivered record; caller: the callers' CPU time per call.%n%n"));
        StringBuilder header = new StringBuilder("| peer");
        StringBuilder rule = new StringBuilder("| ---");
        for (int t : threads) {
            header.append(" | ").append(t).append("t delivered/s | ").append(t).append("t total ns/record | ").append(t)
                    .append("t caller ns/call");
            rule.append(" | ---: | ---: | ---:");
        }
        out.append(header).append(" | delivered / calls |\n").append(rule).append(" | --- |\n");
        for (String peer : otlpPeers()) {
            StringBuilder row = new StringBuilder("| ").append(peer.equals(LEAD) ? "**" + peer + "**" : peer);
            for (int t : threads) {
                Spread d = delivered(peer, t);
                row.append(" | ").append(d.isEmpty() ? "-" : Format.si(d.median()) + " (" + Format.si(d.min()) + "-"
                        + Format.si(d.max()) + ")").append(" | ").append(report.total(peer, t).text()).append(" | ")
                        .append(report.caller(peer, t).text());
            }
            List<LineCheck> checks = results.stream().filter(r -> r.peer().equals(peer)).map(CostResult::lines).toList();
            String lost = ChartLines.lossText(checks);
            out.append(row).append(" | ").append(lost.isEmpty() ? "all" : lost.replace("lost", "NOT DELIVERED")
                    .replace(" of its lines", "")).append(" |\n");
        }
        out.append("\nTargets (issue 37), printed, not asserted:\n");
        for (String other : otlpPeers()) {
            if (other.equals(LEAD)) {
                continue;
            }
            for (int t : threads) {
                Spread own = delivered(LEAD, t);
                Spread their = delivered(other, t);
                double ratio = own.median() / their.median();
                out.append(verdict(String.format(Locale.ROOT, "%dt delivered/s >= %.0fx %s", t, DELIVERED_TARGET, other),
                        ratio >= DELIVERED_TARGET, own, their, Format.si(own.median()) + " vs " + Format.si(their.median())
                                + " = " + Format.ratio(ratio)));
            }
        }
        for (int t : threads) {
            Spread own = report.caller(LEAD, t);
            Spread file = report.caller(Peer.LOCKFREELOG.id(), t);
            double ratio = own.median() / file.median();
            out.append(verdict(String.format(Locale.ROOT, "%dt caller CPU per call <= %.1fx lockfreelog (file)", t,
                    CALLER_TARGET), ratio <= CALLER_TARGET, own, file, Format.nanos(own.median()) + " vs "
                    + Format.nanos(file.median()) + " ns = " + Format.ratio(ratio)));
        }
        return out.toString();
    }

    private static String verdict(String label, boolean met, Spread a, Spread b, String figures) {
        return CostReport.verdict(label, met, a, b, figures);
    }
}
