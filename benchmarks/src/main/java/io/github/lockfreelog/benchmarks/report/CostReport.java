package io.github.lockfreelog.benchmarks.report;

import io.github.lockfreelog.benchmarks.peers.Peer;
import io.github.lockfreelog.benchmarks.peers.Workload;
import io.github.lockfreelog.benchmarks.results.CostResult;
import io.github.lockfreelog.benchmarks.results.Format;
import io.github.lockfreelog.benchmarks.results.LineCheck;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * The cost mode's table: per peer and thread count, the process's CPU time per delivered line and the
 * callers' CPU time per call, each the median of the rounds with their range; what each peer lost; and
 * the targets of issue 19 for lockfreelog (reported, never asserted).
 */
public final class CostReport {

    static final String REFERENCE = Peer.LOCKFREELOG.id();
    static final String COMPARED = Peer.LOGBACK_FILE.id();
    /** The callers' share of the compared peer's total that lockfreelog's callers may use. */
    static final double CALLER_SHARE = 0.6;

    private final List<CostResult> results;
    /** lockfreelog's peer in these results: {@link #REFERENCE}, or {@code lockfreelog-console} for the console set. */
    private final String lead;

    public CostReport(List<CostResult> results) {
        this.results = List.copyOf(results);
        this.lead = Peer.lead(results.stream().map(CostResult::peer).distinct().toList());
    }

    /**
     * The table, and the targets; a run of the console set has no targets (they are the file appender's). A run
     * of a {@code boot-*} workload: the table, the caller's allocation and issue 27's targets against Spring
     * Boot's own appenders.
     */
    public String render() {
        return renderOwn() + (OtlpCostReport.applies(results) ? new OtlpCostReport(results).render() : "");
    }

    private String renderOwn() {
        if (isBootRun()) {
            return table() + '\n' + allocation() + '\n' + bootTargets();
        }
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
                "### CPU time per line, %s (median of %d round%s, min-max; lower is better)%n%n"
                        + "total: the whole process's CPU time over the measured window and the final stop/flush, per line "
                        + "delivered to the file;%ncaller: the calling threads' own CPU time per call. "
                        + "References write nothing: their total is per call.%n%n",
                lineText(), rounds, rounds == 1 ? "" : "s"));
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

    /** Whether these results are of a {@code boot-*} workload. */
    boolean isBootRun() {
        return results.stream().anyMatch(r -> Workload.Kind.of(r.workload()).isBoot());
    }

    /**
     * "150-byte lines" for the classic workload; for a boot-* workload, its name and the bytes per line its
     * peers delivered (Spring Boot's format makes the lines as long as it makes them), e.g. "workload boot-ecs,
     * 402 bytes per delivered line".
     */
    String lineText() {
        List<String> workloads = results.stream().map(CostResult::workload).distinct().toList();
        if (workloads.stream().noneMatch(w -> Workload.Kind.of(w).isBoot())) {
            return Workload.DEFAULT_LINE_SIZE + "-byte lines";
        }
        Spread bytes = Spread.of(results.stream().filter(r -> r.lines().writesFile() && r.lines().written() > 0)
                .map(r -> r.lines().bytesPerLine()).toList());
        return "workload " + String.join(", ", workloads)
                + (bytes.isEmpty() ? "" : ", " + Format.fixed(bytes.median(), 0) + " bytes per delivered line");
    }

    /**
     * Bytes the callers allocated on their own threads per call, per peer and thread count (median of the
     * rounds); Logback's front end (the logging event) is {@code logback-nop}'s figure, so what a peer allocates
     * of its own is its figure less that one.
     */
    String allocation() {
        List<Integer> threads = threadCounts();
        StringBuilder out = new StringBuilder("### Allocation on the calling thread, bytes per call (median of the rounds)\n\n"
                + "ThreadMXBean's allocated bytes of each caller over its measured loop. logback-nop is Logback's front end"
                + " alone (the event it builds);\na peer's own allocation on the caller's path is its figure less"
                + " logback-nop's (the last column, at the most threads).\n\n");
        StringBuilder header = new StringBuilder("| peer");
        StringBuilder rule = new StringBuilder("| ---");
        for (int t : threads) {
            header.append(" | ").append(t).append("t B/call");
            rule.append(" | ---:");
        }
        out.append(header).append(" | own B/call (less logback-nop) |\n").append(rule).append(" | ---: |\n");
        int most = threads.isEmpty() ? 0 : threads.get(threads.size() - 1);
        double floor = spread(Peer.LOGBACK_NOP.id(), most, CostResult::callerBytesPerCall).median();
        for (String peer : Peer.order(results.stream().map(CostResult::peer).distinct().toList())) {
            StringBuilder row = new StringBuilder("| ").append(Peer.isLockfreelog(peer) ? "**" + peer + "**" : peer);
            for (int t : threads) {
                row.append(" | ").append(bytes(spread(peer, t, CostResult::callerBytesPerCall)));
            }
            double own = spread(peer, most, CostResult::callerBytesPerCall).median() - floor;
            row.append(" | ").append(Double.isNaN(own) ? "-" : Format.fixed(own, 1)).append(" |\n");
            out.append(row);
        }
        return out.toString();
    }

    private static String bytes(Spread spread) {
        return spread.isEmpty() || Double.isNaN(spread.median()) ? "-" : Format.fixed(spread.median(), 1);
    }

    /**
     * Issue 27's targets for a boot-* run, by the medians (reported, never asserted): lockfreelog's total CPU per
     * delivered line against Spring Boot's FILE appender (at most 0.5x; 0.6x with the ecs format) and
     * lockfreelog's console against Spring Boot's CONSOLE (at most 0.35x; 0.6x with ecs); and no allocation of
     * lockfreelog's own on the caller's path (its bytes per call no more than logback-nop's).
     */
    String bootTargets() {
        boolean ecs = results.stream().anyMatch(r -> r.workload().equals(Workload.Kind.BOOT_ECS.id()));
        StringBuilder out = new StringBuilder("Targets of issue 27 (reported, not asserted; medians):\n");
        for (int t : threadCounts()) {
            out.append(bootRatio(t, Peer.LOCKFREELOG.id(), Peer.SPRING_BOOT_FILE.id(), ecs ? 0.6 : 0.5));
            out.append(bootRatio(t, Peer.LOCKFREELOG_CONSOLE.id(), Peer.SPRING_BOOT_CONSOLE.id(), ecs ? 0.6 : 0.35));
            Spread floor = spread(Peer.LOGBACK_NOP.id(), t, CostResult::callerBytesPerCall);
            for (String peer : List.of(Peer.LOCKFREELOG.id(), Peer.LOCKFREELOG_CONSOLE.id())) {
                Spread own = spread(peer, t, CostResult::callerBytesPerCall);
                if (own.isEmpty()) {
                    continue;
                }
                double extra = own.median() - floor.median();
                out.append(verdict(t + "t " + peer + ": no allocation of its own on the caller's thread", extra < 1.0, own,
                        floor, String.format(Locale.ROOT, "%s vs logback-nop %s B/call (%s B of its own)",
                                Format.fixed(own.median(), 1), Format.fixed(floor.median(), 1), Format.fixed(extra, 1))));
            }
        }
        for (String peer : List.of(Peer.LOCKFREELOG.id(), Peer.LOCKFREELOG_CONSOLE.id())) {
            if (rounds(peer).stream().anyMatch(r -> r.lines().losing())) {
                out.append("  WARNING: ").append(peer).append(" itself lost lines; its cost per line is charged to the lines"
                        + " it delivered.\n");
            }
        }
        return out.toString();
    }

    private String bootRatio(int threads, String own, String boot, double limit) {
        Spread mine = total(own, threads);
        Spread theirs = total(boot, threads);
        if (mine.isEmpty() && theirs.isEmpty()) {
            return "";
        }
        double ratio = mine.median() / theirs.median();
        return verdict(String.format(Locale.ROOT, "%dt %s total CPU per delivered line <= %s x %s", threads, own,
                Format.fixed(limit, 2), boot), ratio <= limit, mine, theirs, String.format(Locale.ROOT,
                "%s vs %s ns/line (%s)", Format.nanos(mine.median()), Format.nanos(theirs.median()), Format.ratio(ratio)));
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

    static String verdict(String label, boolean met, Spread a, Spread b, String figures) {
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
