package io.github.lockfreelog.benchmarks.cli;

import io.github.lockfreelog.benchmarks.peers.Peer;
import io.github.lockfreelog.benchmarks.peers.Workload;
import io.github.lockfreelog.benchmarks.report.LatencyReport;
import io.github.lockfreelog.benchmarks.report.Report;
import java.util.List;

/**
 * What one mode runs: JMH phases (may be none) and a latency plan (may be null), with the defaults
 * of each mode and a rough estimate of how long it takes.
 */
public record Plan(List<Phase> jmh, Latency latency) {

    public static final List<Integer> QUICK_THREADS = List.of(1, 2, 4);
    /** Throughput in full mode: the three of issue 12's targets, then contention well past the CPUs (issue 6's 64). */
    static final List<Integer> FULL_THREADS = List.of(1, 2, 4, 16, 64);
    static final List<Integer> LINE_SIZES = List.of(64, 256, 1024, 4096);
    static final List<Long> LATENCY_RATES = List.of(10_000L, 100_000L, 500_000L);
    static final List<Integer> LATENCY_THREADS = List.of(1, 2, 4);


    /** Seconds a fork takes beyond its schedule: JVM start, configuring the peer, stopping, counting lines. */
    static final int LATENCY_FORK_OVERHEAD_SECONDS = 3;

    /** Seconds a JMH fork takes beyond its iterations (JVM start, stopping the peer, counting a few GB of lines). */
    static final int JMH_FORK_OVERHEAD_SECONDS = 5;

    /** One batch of JMH throughput runs: the thread counts (one JMH run each), line sizes, forks and iterations. */
    record Phase(String label, List<Integer> threads, List<Integer> lineSizes, int forks, int warmupIterations,
            int warmupSeconds, int measurementIterations, int measurementSeconds) {

        /** Rough seconds: iterations plus about {@value #JMH_FORK_OVERHEAD_SECONDS} s per fork. */
        long estimateSeconds(int peers) {
            long perFork = (long) warmupIterations * warmupSeconds + (long) measurementIterations * measurementSeconds
                    + JMH_FORK_OVERHEAD_SECONDS;
            return perFork * forks * peers * threads.size() * lineSizes.size();
        }
    }

    /**
     * Rates (events per second, all threads together), thread counts and times of a latency run.
     * {@code graceSeconds} is how long a caller that fell behind may keep catching up after the schedule ends.
     */
    record Latency(List<Long> rates, List<Integer> threads, int warmupSeconds, int measureSeconds, int graceSeconds,
            int forks) {

        Latency {
            if (forks < 1) {
                throw new IllegalArgumentException("--forks must be at least 1, got " + forks);
            }
        }

        /** Rough seconds, for peers that keep up (a peer that falls behind adds up to the grace). */
        long estimateSeconds(int peers) {
            return (long) rates.size() * threads.size() * peers * forks * (warmupSeconds + measureSeconds + LATENCY_FORK_OVERHEAD_SECONDS);
        }
    }

    /** Seconds a cost or virtual fork takes beyond its own time: JVM start, configuring, stopping, counting lines. */
    static final int COST_FORK_OVERHEAD_SECONDS = 4;

    /**
     * The cost mode: per thread count, {@code rounds} rounds of one fork per peer (peers taking turns in
     * each round), each with {@code warmupSeconds} of warm-up and {@code measureSeconds} measured.
     */
    record Cost(List<Integer> threads, int warmupSeconds, int measureSeconds, int rounds) {

        Cost {
            if (rounds < 1) {
                throw new IllegalArgumentException("--forks (rounds) must be at least 1, got " + rounds);
            }
        }

        long estimateSeconds(int peers) {
            return (long) threads.size() * rounds * peers * (warmupSeconds + measureSeconds + COST_FORK_OVERHEAD_SECONDS);
        }
    }

    /** The cost mode's plan: {@link #QUICK_THREADS}, 3 rounds of 2 s warm-up + 4 s measured; about 17 minutes for 11 peers. */
    static Cost cost(Arguments arguments) {
        return new Cost(orElse(arguments.threads, QUICK_THREADS), orElse(arguments.warmupSeconds, 2),
                orElse(arguments.measureSeconds, 4), orElse(arguments.forks, 3));
    }

    /**
     * The virtual mode: {@code events} measured events (after {@code warmupEvents}) per fork, per peer, from
     * a new virtual thread each and from a pool of {@code platformThreads}; {@code rounds} rounds.
     */
    record Virtual(int events, int warmupEvents, int platformThreads, int rounds) {

        Virtual {
            if (rounds < 1 || events < 1) {
                throw new IllegalArgumentException("--forks and --events must be at least 1, got " + rounds + ", " + events);
            }
        }
    }

    static Virtual virtual(Arguments arguments) {
        int events = orElse(arguments.events, 500_000);
        return new Virtual(events, Math.max(1, events / 2), orElse(arguments.threads, List.of(4)).get(0),
                orElse(arguments.forks, 1));
    }

    long estimateSeconds(int peers) {
        return jmh.stream().mapToLong(p -> p.estimateSeconds(peers)).sum()
                + (latency == null ? 0 : latency.estimateSeconds(peers));
    }

    /**
     * The plan of a mode ({@code quick}, {@code latency-quick}, {@code latency}, {@code full}, {@code console}),
     * or null for another command.
     */
    static Plan of(Arguments arguments) {
        return switch (arguments.command) {
            case "quick" -> quick(arguments);
            case "latency-quick" -> latencyQuick(arguments);
            case "console" -> console(arguments);
            case "latency" -> new Plan(List.of(), latencyPoints(arguments));
            case "full" -> full(arguments);
            default -> null;
        };
    }

    /** Throughput at 1, 2 and 4 threads: 1 fork, 2 x 1 s warm-up, 3 x 1 s measured. */
    static Plan quick(Arguments arguments) {
        return new Plan(List.of(new Phase("throughput", orElse(arguments.threads, QUICK_THREADS),
                List.of(Workload.DEFAULT_LINE_SIZE), orElse(arguments.forks, 1), 2, 1, 3, 1)), null);
    }

    /**
     * The console set ({@link Peer#writesPipe()}): {@link #quick}'s throughput (1, 2 and 4 threads) and then
     * {@link #latencyQuick}'s point (100k events/s from 1 thread), in one run; about 4 minutes for its 5 peers.
     */
    static Plan console(Arguments arguments) {
        return new Plan(quick(arguments).jmh(), latencyQuick(arguments).latency());
    }

    /** The headline point only: 100k events/s from 1 thread, every peer. */
    static Plan latencyQuick(Arguments arguments) {
        return new Plan(List.of(), new Latency(orElse(arguments.rates, List.of(LatencyReport.HEADLINE_RATE)),
                orElse(arguments.threads, List.of(LatencyReport.HEADLINE_THREADS)), orElse(arguments.warmupSeconds, 3),
                orElse(arguments.measureSeconds, 5), 2, orElse(arguments.forks, 1)));
    }

    /**
     * Throughput at {@link #FULL_THREADS}, the line-size sweep, and the latency points; sized to end
     * within 45 minutes on 2 CPUs with every peer. JMH's {@code SampleTime} mode is not part of it: it
     * times calls made back to back, which hides every stall behind one sample (coordinated omission);
     * the paced latency forks replace it.
     */
    static Plan full(Arguments arguments) {
        int forks = orElse(arguments.forks, 1);
        return new Plan(List.of(
                new Phase("throughput", orElse(arguments.threads, FULL_THREADS), List.of(Workload.DEFAULT_LINE_SIZE),
                        forks, 2, 2, 4, 2),
                new Phase("line-size", List.of(Report.SWEEP_THREADS), LINE_SIZES, forks, 2, 1, 3, 1)),
                latencyPoints(arguments));
    }

    private static Latency latencyPoints(Arguments arguments) {
        return new Latency(orElse(arguments.rates, LATENCY_RATES), orElse(arguments.threads, LATENCY_THREADS),
                orElse(arguments.warmupSeconds, 2), orElse(arguments.measureSeconds, 5), 2, orElse(arguments.forks, 1));
    }

    private static <T> T orElse(T value, T otherwise) {
        return value != null ? value : otherwise;
    }
}
