package io.github.lockfreelog.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * The cost mode's table: per peer and thread count, the process's CPU time per delivered line and the
 * callers' CPU time per call, each the median of the rounds with their range; what each peer lost; and
 * the targets of issue 19 for lockfreelog (reported, never asserted).
 */
final class CostReport {

    static final String REFERENCE = Peer.LOCKFREELOG.id();
    static final String COMPARED = Peer.LOGBACK_FILE.id();
    /** The callers' share of the compared peer's total that lockfreelog's callers may use. */
    static final double CALLER_SHARE = 0.6;

    private final List<CostResult> results;
    /** lockfreelog's peer in these results: {@link #REFERENCE}, or {@code lockfreelog-console} for the console set. */
    private final String lead;

    CostReport(List<CostResult> results) {
        this.results = List.copyOf(results);
        this.lead = Peer.lead(results.stream().map(CostResult::peer).distinct().toList());
    }

    /** The table, and the targets; a run of the console set has no targets (they are the file appender's). */
    String render() {
        if (lead.equals(REFERENCE)) {
            return table() + '\n' + targets();
        }
        return table() + "\nTargets: none for the console set (issue 19's targets are the file appender's).\n"
                + (rounds(lead).stream().anyMatch(r -> r.lines().losing()) ? "  WARNING: " + lead
                        + " itself lost lines; its cost per line is charged to the lines it delivered.\n" : "");
    }

    /** The figure of {@code peer} at {@code threads} over its rounds. */
    Spread spread(String peer, int threads, ToDoubleFunction<CostResult> figure) {
        return Spread.of(rounds(peer, threads).stream().map(figure::applyAsDouble).toList());
    }

    Spread total(String peer, int threads) {
        return spread(peer, threads, CostResult::totalNanosPerLine);
    }

    Spread caller(String peer, int threads) {
        return spread(peer, threads, CostResult::callerNanosPerCall);
    }

    /** The Markdown table: a row per peer, two columns per thread count, and the line check. */
    String table() {
        List<Integer> threads = threadCounts();
        if (threads.isEmpty()) {
            return "No cost results.\n";
        }
        int rounds = results.stream().mapToInt(CostResult::round).max().orElse(0);
        StringBuilder out = new StringBuilder(String.format(Locale.ROOT,
                "### CPU time per line, %d-byte lines (median of %d round%s, min-max; lower is better)%n%n"
                        + "total: the whole process's CPU time over the measured window and the final stop/flush, per line "
                        + "delivered to the file;%ncaller: the calling threads' own CPU time per call. "
                        + "References write nothing: their total is per call.%n%n",
                Workload.DEFAULT_LINE_SIZE, rounds, rounds == 1 ? "" : "s"));
        StringBuilder header = new StringBuilder("| peer");
        StringBuilder rule = new StringBuilder("| ---");
        for (int t : threads) {
            header.append(" | ").append(t).append("t total ns/line (min-max) | ").append(t).append("t caller ns/call (min-max)");
            rule.append(" | ---: | ---:");
        }
        out.append(header).append(" | lines delivered / calls |\n").append(rule).append(" | --- |\n");
        for (String peer : Peer.order(results.stream().map(CostResult::peer).distinct().toList())) {
            boolean reference = Peer.isReference(peer);
            String name = reference ? "*reference: " + peer + "*" : Peer.isLockfreelog(peer) ? "**" + peer + "**" : peer;
            StringBuilder row = new StringBuilder("| ").append(name);
            for (int t : threads) {
                row.append(" | ").append(total(peer, t).text()).append(" | ").append(caller(peer, t).text());
            }
            out.append(row).append(" | ").append(delivery(peer, threads)).append(" |\n");
        }
        return out.toString();
    }

    /** "all", "n/a (writes no file)" or the share lost over the rounds and thread counts ("LOST 72-97 %"). */
    private String delivery(String peer, List<Integer> threads) {
        List<LineCheck> checks = new ArrayList<>();
        threads.forEach(t -> rounds(peer, t).forEach(r -> checks.add(r.lines())));
        if (checks.stream().noneMatch(LineCheck::writesFile)) {
            return "n/a (writes no file)";
        }
        String lost = ChartLines.lossText(checks);
        return lost.isEmpty() ? "all" : lost.replace("lost", "LOST").replace(" of its lines", "");
    }

    /** The targets of issue 19 for lockfreelog at each thread count, by the medians. Reported, not asserted. */
    String targets() {
        StringBuilder out = new StringBuilder("Targets for lockfreelog (reported, not asserted; medians):\n");
        for (int t : threadCounts()) {
            Spread own = total(REFERENCE, t);
            Spread compared = total(COMPARED, t);
            Spread callers = caller(REFERENCE, t);
            double ratio = own.median() / compared.median();
            out.append(verdict(t + "t total CPU per delivered line <= logback-file (immediateFlush=false)", ratio <= 1.0,
                    own, compared, String.format(Locale.ROOT, "%s vs %s ns/line (%s)", Format.nanos(own.median()),
                            Format.nanos(compared.median()), Format.ratio(ratio))));
            double limit = CALLER_SHARE * compared.median();
            out.append(verdict(t + "t caller CPU per call <= 60 % of logback-file's total", callers.median() <= limit,
                    callers, compared, String.format(Locale.ROOT, "%s vs %s ns (%s of its %s)%s",
                            Format.nanos(callers.median()), Format.nanos(limit),
                            Format.fixed(100 * callers.median() / compared.median(), 0) + " %",
                            Format.nanos(compared.median()),
                            own.isEmpty() ? "" : "; lockfreelog's callers pay "
                                    + Format.fixed(100 * callers.median() / own.median(), 0) + " % of its own total")));
        }
        rounds(REFERENCE).stream().filter(r -> r.lines().losing()).findFirst().ifPresent(r -> out.append(
                "  WARNING: lockfreelog itself lost lines; its cost per line is charged to the lines it delivered.\n"));
        return out.toString();
    }

    private static String verdict(String label, boolean met, Spread a, Spread b, String figures) {
        boolean known = !a.isEmpty() && !b.isEmpty();
        return String.format(Locale.ROOT, "  [%s] %-70s %s%n", !known ? "n/a   " : met ? "MET   " : "MISSED", label,
                known ? figures : "(no result)");
    }

    private List<CostResult> rounds(String peer, int threads) {
        return results.stream().filter(r -> r.peer().equals(peer) && r.threads() == threads).toList();
    }

    private List<CostResult> rounds(String peer) {
        return results.stream().filter(r -> r.peer().equals(peer)).toList();
    }

    List<Integer> threadCounts() {
        return results.stream().map(CostResult::threads).distinct().sorted().toList();
    }
}
