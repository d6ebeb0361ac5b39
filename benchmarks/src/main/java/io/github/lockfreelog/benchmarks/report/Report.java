package io.github.lockfreelog.benchmarks.report;

import io.github.lockfreelog.benchmarks.peers.Peer;
import io.github.lockfreelog.benchmarks.peers.Workload;
import io.github.lockfreelog.benchmarks.results.Format;
import io.github.lockfreelog.benchmarks.results.LineCheck;
import io.github.lockfreelog.benchmarks.results.ThroughputResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * The throughput tables the runner prints: ops/s and the ratio to lockfreelog per thread count,
 * allocation, lines written against lines accepted, the targets of issue 6 (reported, never
 * asserted) and the line-size sweep. In a run of the console set (no {@code lockfreelog}, but
 * {@code lockfreelog-console}) the ratio is to {@code lockfreelog-console}, and the file appender's
 * targets are left out.
 */
public final class Report {

    static final String REFERENCE = Peer.LOCKFREELOG.id();
    static final String MODE = "thrpt";
    public static final int SWEEP_THREADS = 2;

    private final List<ThroughputResult> results;
    /** The peer the ratios are to: {@link #REFERENCE}, or {@code lockfreelog-console} in a run of the console set. */
    private final String reference;
    /** The format of the peer column of the text tables. */
    private final String peerColumn;

    public Report(List<ThroughputResult> results) {
        this.results = List.copyOf(results);
        this.reference = Peer.lead(results.stream().map(ThroughputResult::peer).filter(Objects::nonNull).toList());
        int width = results.stream().map(ThroughputResult::peer).filter(Objects::nonNull).mapToInt(String::length).max()
                .orElse(0);
        this.peerColumn = "%-" + Math.max(20, width) + "s"; // 20 unless a name is longer (logback-async-console)
    }

    /** Every section that the results have data for. */
    public String render() {
        String sweep = lineSizeTable();
        return throughputTable(Workload.DEFAULT_LINE_SIZE) + '\n' + targets() + (sweep.isEmpty() ? "" : "\n" + sweep);
    }

    /** Throughput and ratio to lockfreelog at each thread count, allocation, and lines written vs accepted. */
    /**
     * "150-byte lines"; where the lines written are of another length (a boot-* workload: Spring Boot's format
     * around the message of a 150-byte classic line), that length too: "150-byte classic lines' message, 166 bytes
     * per written line".
     */
    private String lineText(int lineSize) {
        Spread written = Spread.of(results.stream().filter(r -> r.lineSize() == lineSize && r.lines().written() > 0)
                .map(r -> r.lines().bytesPerLine()).toList());
        if (written.isEmpty() || Math.abs(written.median() - lineSize) < 1) {
            return lineSize + "-byte lines";
        }
        return lineSize + "-byte classic lines' message, " + Format.fixed(written.median(), 0) + " bytes per written line";
    }

    public String throughputTable(int lineSize) {
        List<Integer> threads = threadCounts(lineSize);
        if (threads.isEmpty()) {
            return "No throughput results for " + lineSize + "-byte lines.\n";
        }
        StringBuilder out = new StringBuilder(String.format(Locale.ROOT,
                "Throughput, ops/s (higher is better), %s; x lfl = peer / %s at the same thread count;%n"
                        + "! = the peer lost lines (accepted more than it wrote): its figure is not a speed; see delivered/s.%n",
                lineText(lineSize), reference));
        StringBuilder header = new StringBuilder(String.format(Locale.ROOT, peerColumn, "peer"));
        StringBuilder sub = new StringBuilder(String.format(Locale.ROOT, peerColumn, ""));
        for (int t : threads) {
            header.append(String.format(Locale.ROOT, " | %18s", t + (t == 1 ? " thread " : " threads")));
            sub.append(String.format(Locale.ROOT, " | %9s %8s", "ops/s", "x lfl"));
        }
        header.append(String.format(Locale.ROOT, " | %9s | %s", "B/op", "lines written / accepted"));
        sub.append(String.format(Locale.ROOT, " | %9s |", "@" + threads.get(0) + "t"));
        out.append(header).append('\n').append(sub).append('\n').append("-".repeat(header.length())).append('\n');
        for (String peer : peers(lineSize)) {
            StringBuilder row = new StringBuilder(String.format(Locale.ROOT, peerColumn, peer));
            List<String> losses = new ArrayList<>();
            long accepted = 0;
            long written = 0;
            boolean writesFile = true;
            for (int t : threads) {
                ThroughputResult r = find(peer, t, lineSize);
                if (r == null) {
                    row.append(String.format(Locale.ROOT, " | %9s %8s", "-", "-"));
                    continue;
                }
                LineCheck lines = r.lines();
                String ops = Format.si(r.opsPerSecond()) + (lines.losing() ? "!" : "");
                row.append(String.format(Locale.ROOT, " | %9s %8s", ops, Format.ratio(ratio(peer, reference, t, lineSize))));
                writesFile &= lines.writesFile();
                accepted += lines.accepted();
                written += lines.written();
                if (lines.losing()) {
                    losses.add(String.format(Locale.ROOT, "%dt %s/%s (-%s%%, ~%s delivered/s)", t, Format.si(lines.written()),
                            Format.si(lines.accepted()), Format.fixed(lines.lostPercent(), 1),
                            Format.si(r.opsPerSecond() * lines.deliveredFraction())));
                }
            }
            ThroughputResult first = find(peer, threads.get(0), lineSize);
            double allocated = first == null ? Double.NaN : first.bytesPerOp();
            String linesText = !writesFile ? "n/a (writes no file)" : !losses.isEmpty() ? "LOST " + String.join(", ", losses)
                    : "ok " + Format.si(written) + " / " + Format.si(accepted);
            row.append(String.format(Locale.ROOT, " | %9s | %s", Double.isNaN(allocated) ? "-" : Format.fixed(allocated, 1),
                    linesText));
            out.append(row).append('\n');
        }
        return out.toString();
    }

    /** Throughput of {@code peer} divided by that of {@code reference}; NaN when either is missing. */
    public double ratio(String peer, String reference, int threads, int lineSize) {
        ThroughputResult a = find(peer, threads, lineSize);
        ThroughputResult b = find(reference, threads, lineSize);
        return a == null || b == null || b.opsPerSecond() == 0 ? Double.NaN : a.opsPerSecond() / b.opsPerSecond();
    }

    /** The targets of issue 6 for lockfreelog, each marked MET, MISSED or n/a. Reported, not asserted. */
    public String targets() {
        if (results.stream().anyMatch(r -> r.peer() != null && Peer.ids().contains(r.peer())
                && Peer.of(r.peer()).isSpringBoot())) {
            return "Targets: none in throughput for a boot-* run (issue 27's are CPU per delivered line and allocation, in"
                    + " the cost mode, and the Boot application's bursts, in the boot-app mode).\n" + losingWarning(reference);
        }
        if (!reference.equals(REFERENCE)) {
            int size = Workload.DEFAULT_LINE_SIZE;
            StringBuilder out = new StringBuilder("Targets for " + reference + " (issue 20; reported, not asserted;"
                    + " x lfl is to " + reference + "):\n");
            for (int t : new int[] {2, 4}) {
                out.append(target(t + "t  >= 3x logback-console", ratio(reference, Peer.LOGBACK_CONSOLE.id(), t, size), 3.0,
                        find(Peer.LOGBACK_CONSOLE.id(), t, size)));
            }
            out.append("  (and at 100k events/s from 1 thread a p99.9 at most half of logback-console's: see the latency"
                    + " table)\n");
            return out + losingWarning(reference);
        }
        int size = Workload.DEFAULT_LINE_SIZE;
        StringBuilder out = new StringBuilder("Targets for lockfreelog (reported, not asserted):\n");
        for (int t : new int[] {1, 2}) {
            out.append(target(t + "t  >= 0.85x encode-only", ratio(REFERENCE, Peer.ENCODE_ONLY.id(), t, size), 0.85, null));
            out.append(target(t + "t  >= 2x logback-file (immediateFlush=false)",
                    ratio(REFERENCE, Peer.LOGBACK_FILE.id(), t, size), 2.0, find(Peer.LOGBACK_FILE.id(), t, size)));
            out.append(target(t + "t  above logback-async", ratio(REFERENCE, Peer.LOGBACK_ASYNC.id(), t, size),
                    Math.nextUp(1.0), find(Peer.LOGBACK_ASYNC.id(), t, size)));
            out.append(target(t + "t  >= 1.2x log4j2-mmap", ratio(REFERENCE, Peer.LOG4J2_MMAP.id(), t, size), 1.2,
                    find(Peer.LOG4J2_MMAP.id(), t, size)));
        }
        out.append(target("64t >= 0.9x its own 2-thread figure", ratio64To2(size), 0.9, null));
        out.append(allocationTarget(size));
        out.append(losingWarning(REFERENCE));
        return out.toString();
    }

    /** A warning when {@code peer} (lockfreelog's) lost lines; empty when it kept them all. */
    private String losingWarning(String peer) {
        Set<String> losing = new TreeSet<>();
        results.stream().filter(r -> r.peer().equals(peer) && r.lines().losing())
                .forEach(r -> losing.add(r.threads() + "t " + MODE));
        return losing.isEmpty() ? "" : "  WARNING: " + peer + " itself lost lines at " + losing
                + "; its throughput figures there are not valid.\n";
    }

    /**
     * One target line. When the compared peer lost lines, its raw figure is not a speed: the verdict
     * then uses the lines it delivered per second (ops/s times written/accepted) and says so.
     */
    private String target(String label, double value, double threshold, ThroughputResult compared) {
        double judged = value;
        String note = "";
        if (compared != null && compared.lines().losing() && !Double.isNaN(value)) {
            judged = value / compared.lines().deliveredFraction();
            note = String.format(Locale.ROOT, "  (%s lost %s%% of its lines; vs the lines it delivered: %s)",
                    compared.peer(), Format.fixed(compared.lines().lostPercent(), 1), Format.ratio(judged));
        }
        String verdict = Double.isNaN(judged) ? "n/a   " : judged >= threshold ? "MET   " : "MISSED";
        return String.format(Locale.ROOT, "  [%s] %-45s %s%s%n", verdict, label,
                Double.isNaN(value) ? "(no result)" : Format.ratio(value), note);
    }

    private double ratio64To2(int lineSize) {
        ThroughputResult a = find(REFERENCE, 64, lineSize);
        ThroughputResult b = find(REFERENCE, 2, lineSize);
        return a == null || b == null ? Double.NaN : a.opsPerSecond() / b.opsPerSecond();
    }

    private String allocationTarget(int lineSize) {
        List<String> deltas = new ArrayList<>();
        boolean met = true;
        for (int t : threadCounts(lineSize)) {
            ThroughputResult own = find(REFERENCE, t, lineSize);
            ThroughputResult ceiling = find(Peer.ENCODE_ONLY.id(), t, lineSize);
            if (own == null || ceiling == null || Double.isNaN(own.bytesPerOp()) || Double.isNaN(ceiling.bytesPerOp())) {
                continue;
            }
            double delta = own.bytesPerOp() - ceiling.bytesPerOp();
            met &= delta < 1.0; // JMH's normalised allocation has sub-byte noise
            deltas.add(t + "t: " + Format.fixed(delta, 2));
        }
        String verdict = deltas.isEmpty() ? "n/a   " : met ? "MET   " : "MISSED";
        return String.format(Locale.ROOT, "  [%s] %-45s %s%n", verdict, "0 B/op allocated beyond encode-only",
                deltas.isEmpty() ? "(run with -prof gc)" : "B/op beyond encode-only " + String.join(", ", deltas));
    }

    /** Throughput at {@value #SWEEP_THREADS} threads for each line size, with MB/s of complete lines. */
    public String lineSizeTable() {
        Set<Integer> sizes = new TreeSet<>();
        results.stream().filter(r -> r.threads() == SWEEP_THREADS).forEach(r -> sizes.add(r.lineSize()));
        if (sizes.size() < 2) {
            return "";
        }
        StringBuilder out = new StringBuilder(String.format(Locale.ROOT,
                "Line-size sweep at %d threads: ops/s, x lfl, MB/s written (line size asked -> bytes per written line)%n",
                SWEEP_THREADS));
        StringBuilder header = new StringBuilder(String.format(Locale.ROOT, peerColumn, "peer"));
        for (int size : sizes) {
            header.append(String.format(Locale.ROOT, " | %-24s", size + " B" + actualSize(size)));
        }
        out.append(header).append('\n').append("-".repeat(header.length())).append('\n');
        for (String peer : Peer.order(results.stream().filter(r -> r.threads() == SWEEP_THREADS).map(ThroughputResult::peer)
                .toList())) {
            StringBuilder row = new StringBuilder(String.format(Locale.ROOT, peerColumn, peer));
            for (int size : sizes) {
                ThroughputResult r = find(peer, SWEEP_THREADS, size);
                String cell = "-";
                if (r != null) {
                    double bytesPerLine = r.lines().bytesPerLine() > 0 ? r.lines().bytesPerLine() : size;
                    cell = Format.si(r.opsPerSecond()) + (r.lines().losing() ? "!" : "") + " "
                            + Format.ratio(ratio(peer, reference, SWEEP_THREADS, size)) + " "
                            + Format.fixed(r.opsPerSecond() * bytesPerLine / 1e6, 0) + "MB/s";
                }
                row.append(String.format(Locale.ROOT, " | %-24s", cell));
            }
            out.append(row).append('\n');
        }
        return out.toString();
    }

    private String actualSize(int size) {
        return results.stream().filter(r -> r.lineSize() == size && r.threads() == SWEEP_THREADS
                        && r.lines().bytesPerLine() > 0)
                .map(r -> Math.round(r.lines().bytesPerLine())).filter(actual -> actual != size)
                .findFirst().map(actual -> " (->" + actual + ")").orElse("");
    }

    ThroughputResult find(String peer, int threads, int lineSize) {
        return results.stream().filter(r -> r.peer().equals(peer) && r.threads() == threads && r.lineSize() == lineSize)
                .findFirst().orElse(null);
    }

    private List<Integer> threadCounts(int lineSize) {
        return results.stream().filter(r -> r.lineSize() == lineSize).map(ThroughputResult::threads).distinct().sorted()
                .toList();
    }

    private List<String> peers(int lineSize) {
        return Peer.order(results.stream().filter(r -> r.lineSize() == lineSize).map(ThroughputResult::peer)
                .filter(Objects::nonNull).toList());
    }
}
