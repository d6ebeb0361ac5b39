package io.github.lockfreelog.benchmarks.kafka;

import io.github.lockfreelog.benchmarks.peers.Workload;
import io.github.lockfreelog.benchmarks.results.Format;
import io.github.lockfreelog.benchmarks.results.LineCheck;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The kafka mode's tables in Markdown: delivered records per second by peer and threads, then per thread count what
 * each peer accepted and delivered and what it cost (the process's and the broker's CPU per delivered record, the
 * caller's CPU per call back to back and paced), then the targets, printed and never asserted. With several
 * rounds, each peer and thread count shows the round with the median delivered rate.
 */
public final class KafkaReport {

    static final String LEAD = KafkaPeer.LOCKFREELOG_KAFKA.id();
    /** The peer lockfreelog's delivered rate is compared with. */
    static final String RIVAL = KafkaPeer.LOGBACK_KAFKA_ASYNC.id();
    /** The caller's CPU per call is compared with the file appender's. */
    static final String FILE = KafkaPeer.LOCKFREELOG_FILE.id();
    static final double DELIVERED_TARGET = 2.0;
    static final double CALLER_CPU_TARGET = 1.1;

    private static final Pattern WAITS = Pattern.compile("\\bwaits=(\\d+)");

    private final List<KafkaResult> results;

    KafkaReport(List<KafkaResult> results) {
        this.results = List.copyOf(results);
    }

    String render() {
        if (results.isEmpty()) {
            return "No Kafka throughput results.\n";
        }
        StringBuilder out = new StringBuilder();
        out.append(deliveredTable()).append('\n');
        for (int threads : threadCounts()) {
            out.append(detailTable(threads)).append('\n');
        }
        out.append(targets());
        return out.toString();
    }

    /** The heading and explanation above the latency tables of a kafka run. */
    static String latencyHeading() {
        return "### Kafka: the caller's latency at a paced rate\n\nAs the latency mode measures it (PacedLoop: from each"
                + " call's scheduled time to its return), after one call that is not timed. \"lines written\" is the"
                + " records in the peer's topic (the file reference: lines in its file), warm-up included; LOST there"
                + " means not in the topic when the fork ended, as NOT DELIVERED above.\n\n";
    }

    String deliveredTable() {
        List<Integer> threads = threadCounts();
        KafkaResult first = results.get(0);
        StringBuilder out = new StringBuilder(String.format(Locale.ROOT, "### Kafka: delivered records per second%n%n"
                + "Records in the peer's topic (read_committed) per second, from the first call of %s s back to back until"
                + " the peer's stop returned (what it still held delivered by then; every stop is given %d s); higher is"
                + " better. %d-byte lines, a fresh topic of 1 partition per fork, %s%s. NOT DELIVERED: calls whose record"
                + " was not in the topic when the fork ended (dropped, or still buffered when the stop's %d s ran out;"
                + " lockfreelog-kafka keeps those in its journal for its next start, and its details in the run's output say"
                + " so).%n%n", seconds(first.measureMillis()), KafkaFork.STOP_SECONDS,
                Workload.DEFAULT_LINE_SIZE, "each peer's producer defaults (acks=all with kafka-clients 4)",
                rounds() > 1 ? ", the median of " + rounds() + " rounds" : "", KafkaFork.STOP_SECONDS));
        out.append("| peer |");
        threads.forEach(t -> out.append(' ').append(Format.threads(t)).append(" |"));
        out.append("\n| --- |").append(" ---: |".repeat(threads.size())).append('\n');
        for (String peer : peers()) {
            out.append("| ").append(label(peer)).append(" |");
            for (int t : threads) {
                KafkaResult r = pick(peer, t);
                out.append(' ').append(r == null ? "-" : Format.si(r.deliveredPerSecond()) + lossNote(r)).append(" |");
            }
            out.append('\n');
        }
        return out.toString();
    }

    String detailTable(int threads) {
        StringBuilder out = new StringBuilder(String.format(Locale.ROOT, "### Kafka, %s%n%n", Format.threads(threads)));
        KafkaResult any = results.stream().filter(r -> r.threads() == threads).findFirst().orElseThrow();
        out.append(String.format(Locale.ROOT, "Accepted/s: calls per second over the callers' loop. Until delivered: from"
                + " the first call to the return of the peer's stop. CPU per record: the logging JVM's whole CPU time over"
                + " that span per delivered record; the broker's likewise. Caller CPU per call: the calling threads' own"
                + " CPU time per call, back to back, and paced (bursts of %d calls at %s calls/s all callers together,"
                + " %s s measured after %s s of warm-up), the paced trial's records / calls (warm-up included) beside"
                + " it.%n%n", KafkaFork.BURST,
                Format.rate(any.pacedRate()), seconds(any.pacedMillis()), seconds(any.warmupMillis())));
        out.append("| peer | calls | records in the topic | accepted/s | delivered/s | until delivered | CPU per record,"
                + " ns | broker CPU per record, ns | caller CPU per call, ns, back to back | caller CPU per call, ns, paced"
                + " | paced: records / calls |\n");
        out.append("| --- |").append(" ---: |".repeat(10)).append('\n');
        for (String peer : peers()) {
            KafkaResult r = pick(peer, threads);
            if (r == null) {
                continue;
            }
            List<String> cells = new ArrayList<>();
            cells.add(label(peer));
            cells.add(Format.si(r.calls()));
            cells.add(Format.si(r.lines().written()) + lossNote(r));
            cells.add(Format.si(r.acceptedPerSecond()));
            cells.add(Format.si(r.deliveredPerSecond()));
            cells.add(Format.fixed(r.deliveryNanos() / 1e9, 2) + " s");
            cells.add(Format.nanos(r.processNanosPerRecord()));
            cells.add(Format.nanos(r.brokerNanosPerRecord()));
            cells.add(Format.nanos(r.callerNanosPerCall()));
            cells.add(Format.nanos(r.pacedCallerNanosPerCall()));
            cells.add(checkText(r.paced()));
            out.append("| ").append(String.join(" | ", cells)).append(" |\n");
        }
        return out.toString();
    }

    /** The targets at each thread count: printed, never asserted. */
    String targets() {
        StringBuilder out = new StringBuilder("### Kafka: targets (printed, never asserted)\n\n");
        out.append("| threads | delivered/s, " + LEAD + " / " + RIVAL + " (target >= " + Format.ratio(DELIVERED_TARGET)
                + ") | caller CPU per call, paced, " + LEAD + " / " + FILE + " (target <= " + Format.ratio(CALLER_CPU_TARGET)
                + ") | " + LEAD + "'s callers waited for room in the paced trial |\n");
        out.append("| ---: | ---: | ---: | ---: |\n");
        for (int t : threadCounts()) {
            KafkaResult lead = pick(LEAD, t);
            KafkaResult rival = pick(RIVAL, t);
            KafkaResult file = pick(FILE, t);
            double delivered = lead == null || rival == null ? Double.NaN
                    : lead.deliveredPerSecond() / rival.deliveredPerSecond();
            double caller = lead == null || file == null ? Double.NaN
                    : lead.pacedCallerNanosPerCall() / file.pacedCallerNanosPerCall();
            out.append(String.format(Locale.ROOT, "| %d | %s%s | %s%s | %s |%n", t, Format.ratio(delivered),
                    verdict(delivered, delivered >= DELIVERED_TARGET), Format.ratio(caller),
                    verdict(caller, caller <= CALLER_CPU_TARGET), lead == null ? "-" : waits(lead.pacedDetails())));
        }
        return out.toString();
    }

    private static String verdict(double ratio, boolean met) {
        return Double.isNaN(ratio) ? "" : met ? " (met)" : " (NOT met)";
    }

    /** lockfreelog's {@code waits=N} among a peer's details, "-" when absent. */
    static String waits(String details) {
        Matcher m = WAITS.matcher(details == null ? "" : details);
        return m.find() ? m.group(1) + " times" : "-";
    }

    /** The round with the median delivered rate (the lower middle one of an even count); null when none. */
    KafkaResult pick(String peer, int threads) {
        List<KafkaResult> rows = new ArrayList<>(results.stream().filter(r -> r.peer().equals(peer) && r.threads() == threads)
                .toList());
        if (rows.isEmpty()) {
            return null;
        }
        rows.sort(Comparator.comparingDouble(KafkaResult::deliveredPerSecond));
        return rows.get((rows.size() - 1) / 2);
    }

    List<Integer> threadCounts() {
        return List.copyOf(new TreeSet<>(results.stream().map(KafkaResult::threads).toList()));
    }

    List<String> peers() {
        return KafkaPeer.order(results.stream().map(KafkaResult::peer).distinct().toList());
    }

    private int rounds() {
        return results.stream().mapToInt(KafkaResult::round).max().orElse(1);
    }

    static String label(String peer) {
        if (peer.equals(LEAD)) {
            return "**" + peer + "**";
        }
        if (peer.equals(FILE)) {
            return "*reference, not a Kafka peer: " + peer + " (a file)*";
        }
        return peer;
    }

    private static String lossNote(KafkaResult r) {
        if (r.lines().losing()) {
            return " (NOT DELIVERED " + Format.si(r.lines().lost()) + ", " + percent(r.lines()) + " %)";
        }
        return r.extra() > 0 ? " (" + Format.si(r.extra()) + " EXTRA)" : "";
    }

    /** "all 150k", "NOT DELIVERED 3.0 % (4.5k of 150k)", "150k (12 EXTRA)". */
    static String checkText(LineCheck check) {
        if (check.losing()) {
            return String.format(Locale.ROOT, "NOT DELIVERED %s %% (%s of %s)", percent(check), Format.si(check.lost()),
                    Format.si(check.accepted()));
        }
        if (check.written() > check.accepted()) {
            return Format.si(check.written()) + " (" + Format.si(check.written() - check.accepted()) + " EXTRA)";
        }
        return "all " + Format.si(check.written());
    }

    /** The share lost, one decimal, but "<0.1" rather than "0.0" for a peer that lost some. */
    static String percent(LineCheck check) {
        double percent = check.lostPercent();
        return percent < 0.05 ? "<0.1" : Format.fixed(percent, 1);
    }

    private static String seconds(long millis) {
        return millis % 1000 == 0 ? Long.toString(millis / 1000) : Format.fixed(millis / 1000.0, 1);
    }
}
