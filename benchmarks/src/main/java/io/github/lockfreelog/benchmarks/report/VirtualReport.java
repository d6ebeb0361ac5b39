package io.github.lockfreelog.benchmarks.report;

import io.github.lockfreelog.benchmarks.peers.Peer;
import io.github.lockfreelog.benchmarks.results.Format;
import io.github.lockfreelog.benchmarks.results.TaskLatency;
import io.github.lockfreelog.benchmarks.results.VirtualResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The virtual mode's table, from its forks' {@link VirtualResult}s. */
public final class VirtualReport {

    private VirtualReport() {
    }

    /** The virtual mode's table: a row per peer and executor, each figure the median of the rounds with its range. */
    public static String render(List<VirtualResult> results) {
        if (results.isEmpty()) {
            return "No virtual-thread results.\n";
        }
        StringBuilder out = new StringBuilder(String.format(Locale.ROOT,
                "### One event per task: a new virtual thread per event, or a fixed pool of platform threads (%s events per fork)%n%n"
                        + "allocation: %s.%n"
                        + "waits: lockfreelog's AppenderStatistics (waits for a free buffer, waitMaxNanos), measured batch only.%n"
                        + "task, ms: a timed batch of as many events, each task from its submit to the end of its log call"
                        + " (wherever it waited: a pool's queue or the appender), median / 99th percentile / longest.%n%n"
                        + "| peer | threads | B/event (min-max) | waits | longest wait, us | task, ms | events/s"
                        + " | lines written / events |%n"
                        + "| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |%n",
                Format.si(results.get(0).events()), VirtualResult.ALLOCATION_SOURCE));
        List<String> keys = new ArrayList<>();
        for (String peer : peers(results)) {
            for (VirtualResult r : results) {
                String key = peer + "\t" + r.executor();
                if (r.peer().equals(peer) && !keys.contains(key)) {
                    keys.add(key);
                }
            }
        }
        for (String key : keys) {
            String peer = key.split("\t")[0];
            String executor = key.split("\t")[1];
            List<VirtualResult> rounds = results.stream().filter(r -> r.peer().equals(peer) && r.executor().equals(executor))
                    .toList();
            Spread bytes = Spread.of(rounds.stream().map(VirtualResult::bytesPerEvent).toList());
            boolean lockFree = rounds.stream().allMatch(r -> r.waits() >= 0);
            Spread waits = Spread.of(rounds.stream().map(r -> (double) r.waits()).toList());
            Spread longest = Spread.of(rounds.stream().map(r -> r.waitMaxNanos() / 1000.0).toList());
            Spread rate = Spread.of(rounds.stream().map(r -> r.wallNanos() > 0 ? r.events() * 1e9 / r.wallNanos() : Double.NaN)
                    .toList());
            String name = peer.equals(VirtualResult.NO_PEER) ? "*reference: none (the executor alone, logs nothing)*" : peer;
            out.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s | %s |%n", name, executor,
                    bytes.isEmpty() ? "not measured (Java 21+ only)" : bytes.text(),
                    lockFree ? Format.nanos(waits.median()) : "n/a", lockFree ? longestText(longest) : "n/a",
                    taskText(rounds), Format.si(rate.median()), lines(rounds)));
        }
        return out.toString();
    }

    /** The timed batch's median, 99th percentile and longest, in ms, each the median of the rounds. */
    private static String taskText(List<VirtualResult> rounds) {
        return millis(rounds, TaskLatency::p50Nanos) + " / " + millis(rounds, TaskLatency::p99Nanos) + " / "
                + millis(rounds, TaskLatency::maxNanos);
    }

    private static String millis(List<VirtualResult> rounds, java.util.function.ToLongFunction<TaskLatency> figure) {
        double median = Spread.of(rounds.stream().map(r -> figure.applyAsLong(r.tasks()) / 1e6).toList()).median();
        return String.format(Locale.ROOT, median < 10 ? "%.2f" : "%,.0f", median);
    }

    private static String longestText(Spread longest) {
        String median = Format.micros(Math.round(longest.median() * 1000));
        return longest.count() == 1 ? median : median + " (" + Format.micros(Math.round(longest.min() * 1000)) + "-"
                + Format.micros(Math.round(longest.max() * 1000)) + ")";
    }

    private static String lines(List<VirtualResult> rounds) {
        if (rounds.stream().noneMatch(r -> r.lines().writesFile())) {
            return "n/a (writes no file)";
        }
        String lost = ChartLines.lossText(rounds.stream().map(VirtualResult::lines).toList());
        long dropped = rounds.stream().mapToLong(VirtualResult::dropped).filter(d -> d > 0).sum();
        return (lost.isEmpty() ? "all" : lost.replace("lost", "LOST").replace(" of its lines", ""))
                + (dropped > 0 ? " (" + dropped + " dropped and counted by the appender)" : "");
    }

    private static List<String> peers(List<VirtualResult> results) {
        List<String> ordered = new ArrayList<>(Peer.order(results.stream().map(VirtualResult::peer)
                .filter(p -> !p.equals(VirtualResult.NO_PEER)).distinct().toList()));
        if (results.stream().anyMatch(r -> r.peer().equals(VirtualResult.NO_PEER))) {
            ordered.add(VirtualResult.NO_PEER);
        }
        return ordered;
    }
}
