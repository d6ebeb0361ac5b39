package io.github.lockfreelog.benchmarks;

import io.github.lockfreelog.benchmarks.JmhResults.Result;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Turns JMH results and the line {@link Ledger} into the tables the runner prints: throughput and
 * the ratio to lockfreelog per thread count, lines written against lines accepted, the targets of
 * issue 6 (reported, never asserted), latency percentiles and the line-size sweep.
 */
public final class Report {

    static final String REFERENCE = Peer.LOCKFREELOG.id();
    static final String THROUGHPUT = "thrpt";
    static final String SAMPLE = "sample";
    static final int SWEEP_THREADS = 2;

    private final List<Result> results;
    private final Map<String, Ledger.Entry> ledger;

    public Report(List<Result> results, Map<String, Ledger.Entry> ledger) {
        this.results = List.copyOf(results);
        this.ledger = Map.copyOf(ledger);
    }

    /** Every section that the results have data for. */
    public String render() {
        StringBuilder out = new StringBuilder();
        out.append(throughputTable(Workload.DEFAULT_LINE_SIZE));
        out.append('\n').append(targets());
        String latency = latencyTables(Workload.DEFAULT_LINE_SIZE);
        if (!latency.isEmpty()) {
            out.append('\n').append(latency);
        }
        String sweep = lineSizeTable();
        if (!sweep.isEmpty()) {
            out.append('\n').append(sweep);
        }
        return out.toString();
    }

    /** Throughput and ratio to lockfreelog at each thread count, allocation, and lines written vs accepted. */
    public String throughputTable(int lineSize) {
        List<Integer> threads = threadCounts(THROUGHPUT, lineSize);
        List<String> peers = peers(THROUGHPUT, lineSize);
        if (threads.isEmpty()) {
            return "No throughput results for " + lineSize + "-byte lines.\n";
        }
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT,
                "Throughput, ops/s (higher is better), %d-byte lines; x lfl = peer / lockfreelog at the same thread count;%n"
                        + "! = the peer lost lines (accepted more than it wrote): its figure is not a speed; see delivered/s.%n",
                lineSize));
        StringBuilder header = new StringBuilder(String.format(Locale.ROOT, "%-20s", "peer"));
        for (int t : threads) {
            header.append(String.format(Locale.ROOT, " | %18s", t + (t == 1 ? " thread " : " threads")));
        }
        header.append(String.format(Locale.ROOT, " | %9s | %s", "B/op", "lines written / accepted"));
        StringBuilder sub = new StringBuilder(String.format(Locale.ROOT, "%-20s", ""));
        for (int ignored : threads) {
            sub.append(String.format(Locale.ROOT, " | %9s %8s", "ops/s", "x lfl"));
        }
        sub.append(String.format(Locale.ROOT, " | %9s |", "@" + threads.get(0) + "t"));
        out.append(header).append('\n').append(sub).append('\n');
        out.append("-".repeat(header.length())).append('\n');
        for (String peer : peers) {
            StringBuilder row = new StringBuilder(String.format(Locale.ROOT, "%-20s", peer));
            for (int t : threads) {
                Result r = find(THROUGHPUT, peer, t, lineSize);
                if (r == null) {
                    row.append(String.format(Locale.ROOT, " | %9s %8s", "-", "-"));
                    continue;
                }
                Ledger.Entry entry = Ledger.find(ledger, THROUGHPUT, peer, t, lineSize);
                String ops = si(r.opsPerSecond()) + (entry != null && entry.losing() ? "!" : "");
                row.append(String.format(Locale.ROOT, " | %9s %8s", ops, ratioText(ratio(peer, REFERENCE, t, lineSize))));
            }
            Result first = find(THROUGHPUT, peer, threads.get(0), lineSize);
            double allocated = first == null ? Double.NaN : first.allocatedBytesPerOp();
            row.append(String.format(Locale.ROOT, " | %9s | %s", Double.isNaN(allocated) ? "-" : fixed(allocated, 1),
                    linesText(THROUGHPUT, peer, threads, lineSize)));
            out.append(row).append('\n');
        }
        return out.toString();
    }

    /** Throughput of {@code peer} divided by that of {@code reference}; NaN when either is missing. */
    public double ratio(String peer, String reference, int threads, int lineSize) {
        Result a = find(THROUGHPUT, peer, threads, lineSize);
        Result b = find(THROUGHPUT, reference, threads, lineSize);
        if (a == null || b == null || b.opsPerSecond() == 0) {
            return Double.NaN;
        }
        return a.opsPerSecond() / b.opsPerSecond();
    }

    /** The targets of issue 6 for lockfreelog, each marked MET, MISSED or n/a. Reported, not asserted. */
    public String targets() {
        int size = Workload.DEFAULT_LINE_SIZE;
        StringBuilder out = new StringBuilder("Targets for lockfreelog (reported, not asserted):\n");
        for (int t : new int[] {1, 2}) {
            out.append(target(t + "t  >= 0.85x encode-only", ratio(REFERENCE, Peer.ENCODE_ONLY.id(), t, size), 0.85, t));
            out.append(target(t + "t  >= 2x logback-file (immediateFlush=false)",
                    ratio(REFERENCE, Peer.LOGBACK_FILE.id(), t, size), 2.0, t, Peer.LOGBACK_FILE.id()));
            out.append(target(t + "t  above logback-async", ratio(REFERENCE, Peer.LOGBACK_ASYNC.id(), t, size),
                    Math.nextUp(1.0), t, Peer.LOGBACK_ASYNC.id()));
            out.append(target(t + "t  >= 1.2x log4j2-mmap", ratio(REFERENCE, Peer.LOG4J2_MMAP.id(), t, size), 1.2, t,
                    Peer.LOG4J2_MMAP.id()));
        }
        out.append(target("64t >= 0.9x its own 2-thread figure", selfScaling(64, 2, size), 0.9, 64));
        out.append(allocationTarget(size));
        Set<String> losing = new TreeSet<>();
        for (Ledger.Entry entry : ledger.values()) {
            if (entry.peer().equals(REFERENCE) && entry.losing()) {
                losing.add(entry.threads() + "t " + entry.mode());
            }
        }
        if (!losing.isEmpty()) {
            out.append("  WARNING: lockfreelog itself lost lines at ").append(losing)
                    .append("; its throughput figures there are not valid.\n");
        }
        return out.toString();
    }

    /**
     * One target line. When a compared peer lost lines, its raw figure is not a speed: the verdict
     * then uses the lines it delivered per second (ops/s times written/accepted) and says so.
     */
    private String target(String label, double value, double threshold, int threads, String... lossCheckedPeers) {
        double judged = value;
        StringBuilder note = new StringBuilder();
        for (String peer : lossCheckedPeers) {
            Ledger.Entry entry = Ledger.find(ledger, THROUGHPUT, peer, threads, Workload.DEFAULT_LINE_SIZE);
            if (entry != null && entry.losing() && !Double.isNaN(value)) {
                judged = value / entry.deliveredFraction();
                note.append(String.format(Locale.ROOT, "  (%s lost %s%% of its lines; vs the lines it delivered: %s)",
                        peer, fixed(100.0 * entry.lost() / entry.accepted(), 1), ratioText(judged)));
            }
        }
        String verdict = Double.isNaN(judged) ? "n/a   " : judged >= threshold ? "MET   " : "MISSED";
        return String.format(Locale.ROOT, "  [%s] %-45s %s%s%n", verdict, label,
                Double.isNaN(value) ? "(no result)" : ratioText(value), note);
    }

    private double selfScaling(int high, int low, int lineSize) {
        Result a = find(THROUGHPUT, REFERENCE, high, lineSize);
        Result b = find(THROUGHPUT, REFERENCE, low, lineSize);
        return a == null || b == null ? Double.NaN : a.opsPerSecond() / b.opsPerSecond();
    }

    private String allocationTarget(int lineSize) {
        StringBuilder deltas = new StringBuilder();
        boolean met = true;
        boolean any = false;
        for (int t : threadCounts(THROUGHPUT, lineSize)) {
            Result own = find(THROUGHPUT, REFERENCE, t, lineSize);
            Result ceiling = find(THROUGHPUT, Peer.ENCODE_ONLY.id(), t, lineSize);
            if (own == null || ceiling == null || Double.isNaN(own.allocatedBytesPerOp())
                    || Double.isNaN(ceiling.allocatedBytesPerOp())) {
                continue;
            }
            double delta = own.allocatedBytesPerOp() - ceiling.allocatedBytesPerOp();
            any = true;
            met &= delta < 1.0; // JMH's normalised allocation has sub-byte noise
            deltas.append(deltas.length() == 0 ? "" : ", ").append(t).append("t: ").append(fixed(delta, 2));
        }
        String verdict = !any ? "n/a   " : met ? "MET   " : "MISSED";
        return String.format(Locale.ROOT, "  [%s] %-45s %s%n", verdict, "0 B/op allocated beyond encode-only",
                any ? "B/op beyond encode-only " + deltas : "(run with -prof gc)");
    }

    /** p50/p99/p99.9/p99.99 in nanoseconds per thread count, from SampleTime runs. */
    public String latencyTables(int lineSize) {
        List<Integer> threads = threadCounts(SAMPLE, lineSize);
        if (threads.isEmpty()) {
            return "";
        }
        String[] keys = {"50.0", "99.0", "99.9", "99.99"};
        StringBuilder out = new StringBuilder(String.format(Locale.ROOT,
                "Latency of one call, ns (SampleTime, lower is better), %d-byte lines%n", lineSize));
        StringBuilder header = new StringBuilder(String.format(Locale.ROOT, "%-20s", "peer"));
        for (int t : threads) {
            header.append(String.format(Locale.ROOT, " | %-31s", t + (t == 1 ? " thread" : " threads")
                    + ": p50/p99/p99.9/p99.99"));
        }
        out.append(header).append('\n').append("-".repeat(header.length())).append('\n');
        for (String peer : peers(SAMPLE, lineSize)) {
            StringBuilder row = new StringBuilder(String.format(Locale.ROOT, "%-20s", peer));
            for (int t : threads) {
                Result r = find(SAMPLE, peer, t, lineSize);
                List<String> cells = new ArrayList<>();
                for (String key : keys) {
                    cells.add(r == null ? "-" : si(r.percentileNanos(key)));
                }
                Ledger.Entry entry = Ledger.find(ledger, SAMPLE, peer, t, lineSize);
                row.append(String.format(Locale.ROOT, " | %-31s",
                        String.join("/", cells) + (entry != null && entry.losing() ? " !" : "")));
            }
            out.append(row).append('\n');
        }
        return out.toString();
    }

    /** Throughput at {@value #SWEEP_THREADS} threads for each line size, with MB/s of complete lines. */
    public String lineSizeTable() {
        Set<Integer> sizes = new TreeSet<>();
        for (Result r : results) {
            if (r.mode().equals(THROUGHPUT) && r.threads() == SWEEP_THREADS) {
                sizes.add(r.lineSize());
            }
        }
        if (sizes.size() < 2) {
            return "";
        }
        StringBuilder out = new StringBuilder(String.format(Locale.ROOT,
                "Line-size sweep at %d threads: ops/s, x lfl, MB/s written (line size asked -> bytes per written line)%n",
                SWEEP_THREADS));
        StringBuilder header = new StringBuilder(String.format(Locale.ROOT, "%-20s", "peer"));
        for (int size : sizes) {
            header.append(String.format(Locale.ROOT, " | %-24s", size + " B" + actualSize(size)));
        }
        out.append(header).append('\n').append("-".repeat(header.length())).append('\n');
        Set<String> peers = new LinkedHashSet<>();
        for (int size : sizes) {
            peers.addAll(peers(THROUGHPUT, size));
        }
        for (String peer : order(peers)) {
            StringBuilder row = new StringBuilder(String.format(Locale.ROOT, "%-20s", peer));
            for (int size : sizes) {
                Result r = find(THROUGHPUT, peer, SWEEP_THREADS, size);
                if (r == null) {
                    row.append(String.format(Locale.ROOT, " | %-24s", "-"));
                    continue;
                }
                Ledger.Entry entry = Ledger.find(ledger, THROUGHPUT, peer, SWEEP_THREADS, size);
                double bytesPerLine = entry != null && entry.bytesPerLine() > 0 ? entry.bytesPerLine() : size;
                String cell = si(r.opsPerSecond()) + (entry != null && entry.losing() ? "!" : "") + " "
                        + ratioText(ratio(peer, REFERENCE, SWEEP_THREADS, size)) + " "
                        + fixed(r.opsPerSecond() * bytesPerLine / 1e6, 0) + "MB/s";
                row.append(String.format(Locale.ROOT, " | %-24s", cell));
            }
            out.append(row).append('\n');
        }
        return out.toString();
    }

    private String actualSize(int size) {
        for (Ledger.Entry entry : ledger.values()) {
            if (entry.lineSize() == size && entry.threads() == SWEEP_THREADS && entry.bytesPerLine() > 0) {
                long actual = Math.round(entry.bytesPerLine());
                return actual == size ? "" : " (->" + actual + ")";
            }
        }
        return "";
    }

    private String linesText(String mode, String peer, List<Integer> threads, int lineSize) {
        long accepted = 0;
        long written = 0;
        boolean anyEntry = false;
        boolean noFile = false;
        List<String> losses = new ArrayList<>();
        for (int t : threads) {
            Ledger.Entry entry = Ledger.find(ledger, mode, peer, t, lineSize);
            if (entry == null) {
                continue;
            }
            anyEntry = true;
            if (entry.written() < 0) {
                noFile = true;
                continue;
            }
            accepted += entry.accepted();
            written += entry.written();
            if (entry.losing()) {
                Result r = find(mode, peer, t, lineSize);
                String delivered = r == null ? "" : ", ~" + si(r.opsPerSecond() * entry.deliveredFraction()) + " delivered/s";
                losses.add(String.format(Locale.ROOT, "%dt %s/%s (-%s%%%s)", t, si(entry.written()), si(entry.accepted()),
                        fixed(100.0 * entry.lost() / entry.accepted(), 1), delivered));
            }
        }
        if (!anyEntry) {
            return "? (no ledger)";
        }
        if (noFile) {
            return "n/a (writes no file)";
        }
        if (!losses.isEmpty()) {
            return "LOST " + String.join(", ", losses);
        }
        return "ok " + si(written) + " / " + si(accepted);
    }

    private Result find(String mode, String peer, int threads, int lineSize) {
        for (Result r : results) {
            if (r.mode().equals(mode) && r.peer().equals(peer) && r.threads() == threads && r.lineSize() == lineSize) {
                return r;
            }
        }
        return null;
    }

    private List<Integer> threadCounts(String mode, int lineSize) {
        Set<Integer> threads = new TreeSet<>();
        for (Result r : results) {
            if (r.mode().equals(mode) && r.lineSize() == lineSize) {
                threads.add(r.threads());
            }
        }
        return new ArrayList<>(threads);
    }

    private List<String> peers(String mode, int lineSize) {
        Set<String> peers = new LinkedHashSet<>();
        for (Result r : results) {
            if (r.mode().equals(mode) && r.lineSize() == lineSize) {
                peers.add(r.peer());
            }
        }
        return order(peers);
    }

    /** Peers in the order of {@link Peer}, unknown ones after them. */
    static List<String> order(Set<String> peers) {
        List<String> ordered = new ArrayList<>();
        for (String id : Peer.ids()) {
            if (peers.contains(id)) {
                ordered.add(id);
            }
        }
        for (String id : peers) {
            if (!ordered.contains(id)) {
                ordered.add(id);
            }
        }
        return ordered;
    }

    /** As {@link #order}, with the encode-only reference after the peers: it is a yardstick, not one of them. */
    static List<String> orderReferenceLast(Set<String> peers) {
        List<String> ordered = order(peers);
        if (ordered.remove(Peer.ENCODE_ONLY.id())) {
            ordered.add(Peer.ENCODE_ONLY.id());
        }
        return ordered;
    }

    static String ratioText(double ratio) {
        return Double.isNaN(ratio) ? "-" : fixed(ratio, 2) + "x";
    }

    /** 1234567 -> "1.23M"; 12345 -> "12.3k"; 123 -> "123". */
    static String si(double value) {
        if (Double.isNaN(value)) {
            return "-";
        }
        double abs = Math.abs(value);
        if (abs >= 1e9) {
            return fixed(value / 1e9, 2) + "G";
        }
        if (abs >= 1e6) {
            return fixed(value / 1e6, 2) + "M";
        }
        if (abs >= 1e4) {
            return fixed(value / 1e3, 1) + "k";
        }
        return fixed(value, abs >= 100 || value == Math.rint(value) ? 0 : 1);
    }

    /** An events-per-second rate as it names a point: 10000 -> "10k", 2500 -> "2.5k", 1000000 -> "1M". */
    static String rate(long perSecond) {
        if (perSecond >= 1_000_000 && perSecond % 100_000 == 0) {
            return compact(perSecond / 1e6) + "M";
        }
        if (perSecond >= 1_000 && perSecond % 100 == 0) {
            return compact(perSecond / 1e3) + "k";
        }
        return Long.toString(perSecond);
    }

    /** 2.0 -> "2", 2.5 -> "2.5". */
    static String compact(double value) {
        return value == Math.rint(value) ? Long.toString((long) value) : fixed(value, 1);
    }

    static String fixed(double value, int decimals) {
        return String.format(Locale.ROOT, "%." + decimals + "f", value);
    }
}
