package io.github.lockfreelog.benchmarks.cli;

import io.github.lockfreelog.benchmarks.jmh.CostBenchmark;
import io.github.lockfreelog.benchmarks.jmh.VirtualBenchmark;
import io.github.lockfreelog.benchmarks.peers.Peer;
import io.github.lockfreelog.benchmarks.peers.Workload;
import io.github.lockfreelog.benchmarks.results.CostResult;
import io.github.lockfreelog.benchmarks.results.VirtualResult;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Runs the forks of the cost mode ({@link CostBenchmark}) and of the virtual mode ({@link VirtualBenchmark})
 * under JMH, one fork per peer and point, peers taking turns within each round (A, B, C, then A, B, C
 * again), so that a bad minute of the machine falls on all of them. The run's table is rewritten after
 * every round, so an interrupted run keeps what it measured.
 */
final class CostRunner {

    /** The peers the virtual mode runs when {@code --peers} names none; the floor {@value VirtualResult#NO_PEER} follows them. */
    static final List<String> VIRTUAL_PEERS = List.of(Peer.LOCKFREELOG.id(), Peer.LOCKFREELOG_2X64K.id(),
            Peer.LOGBACK_FILE.id());

    private final PrintStream out;

    CostRunner(PrintStream out) {
        this.out = out;
    }

    List<CostResult> runCost(Plan.Cost plan, List<String> peers, Path tsv, String environment)
            throws IOException, RunnerException {
        List<CostResult> results = new ArrayList<>();
        for (int threads : plan.threads()) {
            for (int round = 1; round <= plan.rounds(); round++) {
                out.printf(Locale.ROOT, "%n==== cost: %d thread(s), peers %s, round %d of %d ====%n", threads, peers, round,
                        plan.rounds());
                Collection<RunResult> runs = new Runner(costOptions(plan, peers, threads, round)).run();
                for (RunResult run : runs) {
                    try {
                        results.add(CostResult.of(run));
                    } catch (IllegalArgumentException e) { // its fork failed before its counters were set
                        out.println("Left out of the tables: " + run.getParams().id() + ": " + e.getMessage());
                    }
                }
                CostResult.write(tsv, environment, results);
            }
        }
        return results;
    }

    /** One round at one thread count: a fork per peer, one invocation each, with the forks' heap and settings. */
    static Options costOptions(Plan.Cost plan, List<String> peers, int threads, int round) {
        return new OptionsBuilder()
                .include(CostBenchmark.class.getName() + ".logForAWhile$")
                .param("peer", peers.toArray(String[]::new))
                .param("lineSize", Integer.toString(Workload.DEFAULT_LINE_SIZE))
                .param("warmupMillis", Long.toString(plan.warmupSeconds() * 1000L))
                .param("measureMillis", Long.toString(plan.measureSeconds() * 1000L))
                .param("round", Integer.toString(round))
                .threads(threads)
                .forks(1)
                .warmupIterations(0)
                .measurementIterations(1)
                .timeout(TimeValue.seconds(plan.warmupSeconds() + plan.measureSeconds()
                        + LatencyRunner.FORK_TIMEOUT_MARGIN_SECONDS))
                .jvmArgsAppend(forkJvmArgs())
                .shouldFailOnError(false) // one broken peer must not hide the others
                .build();
    }

    List<VirtualResult> runVirtual(Plan.Virtual plan, List<String> peers, Path tsv, String environment)
            throws IOException, RunnerException {
        List<VirtualResult> results = new ArrayList<>();
        List<String> all = new ArrayList<>(peers);
        all.add(VirtualResult.NO_PEER);
        for (int round = 1; round <= plan.rounds(); round++) {
            out.printf(Locale.ROOT, "%n==== virtual: peers %s, virtual and %d platform threads, round %d of %d ====%n", all,
                    plan.platformThreads(), round, plan.rounds());
            for (RunResult run : new Runner(virtualOptions(plan, all, round)).run()) {
                try {
                    results.add(VirtualResult.of(run));
                } catch (IllegalArgumentException e) {
                    out.println("Left out of the tables: " + run.getParams().id() + ": " + e.getMessage());
                }
            }
            VirtualResult.write(tsv, environment, results);
        }
        return results;
    }

    static Options virtualOptions(Plan.Virtual plan, List<String> peers, int round) {
        return new OptionsBuilder()
                .include(VirtualBenchmark.class.getName() + ".logFromTasks$")
                .param("peer", peers.toArray(String[]::new))
                .param("executor", "virtual", "platform")
                .param("platformThreads", Integer.toString(plan.platformThreads()))
                .param("events", Integer.toString(plan.events()))
                .param("warmupEvents", Integer.toString(plan.warmupEvents()))
                .param("round", Integer.toString(round))
                .threads(1)
                .forks(1)
                .warmupIterations(0)
                .measurementIterations(1)
                .timeout(TimeValue.seconds(LatencyRunner.FORK_TIMEOUT_MARGIN_SECONDS * 3L))
                .jvmArgsAppend(forkJvmArgs())
                .shouldFailOnError(false)
                .build();
    }

    private static String[] forkJvmArgs() {
        List<String> jvmArgs = new ArrayList<>(LatencyRunner.FORK_JVM_ARGS);
        jvmArgs.addAll(LatencyRunner.forkProperties());
        return jvmArgs.toArray(String[]::new);
    }
}
