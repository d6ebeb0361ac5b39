package io.github.lockfreelog.benchmarks.kafka;

import io.github.lockfreelog.benchmarks.cli.Arguments;
import io.github.lockfreelog.benchmarks.cli.Plan;
import java.util.List;

/**
 * The kafka mode's plan ({@link KafkaRunner}): per round, thread count and peer a throughput fork (paced at
 * {@code rates.get(0)} in bursts, warm-up then measured; then back to back, measured); then per rate, latency
 * thread count, round and peer a latency fork.
 */
record KafkaPlan(List<Integer> threads, int warmupSeconds, int pacedSeconds, int measureSeconds, List<Long> rates,
        List<Integer> latencyThreads, int latencyWarmupSeconds, int latencyMeasureSeconds, int graceSeconds,
        int rounds) {

    /** Seconds a kafka throughput fork takes beyond its own time: JVM start, two starts and stops of the peer, counting. */
    static final int FORK_OVERHEAD_SECONDS = 10;
    /** Seconds a kafka latency fork takes beyond its schedule: JVM start, the peer's start and stop, counting. */
    static final int LATENCY_OVERHEAD_SECONDS = 8;
    /** The kafka mode's paced rate: the latency points' and the paced trial's, all callers together. */
    static final long RATE = 50_000;

    KafkaPlan {
        if (rounds < 1 || rates.isEmpty() || threads.stream().anyMatch(t -> t < 1)) {
            throw new IllegalArgumentException("--forks (rounds) and --threads must be at least 1, --rates not empty");
        }
    }

    long estimateSeconds(int peers) {
        long throughput = (long) threads.size() * (warmupSeconds + pacedSeconds + measureSeconds + FORK_OVERHEAD_SECONDS);
        long latency = (long) rates.size() * latencyThreads.size() * (latencyWarmupSeconds + latencyMeasureSeconds
                + LATENCY_OVERHEAD_SECONDS);
        return (throughput + latency) * peers * rounds + 15; // and the broker's start
    }

    /**
     * {@code kafka}: 1, 2 and 4 threads, 2 s of warm-up and 3 s measured paced at 50k/s, 5 s measured back to back;
     * latency at 50k events/s from 1 and 4 threads, 2 s warm-up and 5 s measured: about 9 minutes on 2 CPUs.
     * {@code kafka-quick}: 1 and 4 threads, 1 s, 2 s and 3 s; latency from 1 thread, 1 s and 3 s: about 5 minutes.
     * {@code --threads} sets the thread counts of both parts, {@code --warmup} and {@code --measure} the seconds of both.
     */
    static KafkaPlan of(Arguments arguments, boolean quick) {
        List<Integer> latencyThreads = arguments.threads != null ? arguments.threads : quick ? List.of(1) : List.of(1, 4);
        return new KafkaPlan(orElse(arguments.threads, quick ? List.of(1, 4) : Plan.QUICK_THREADS),
                orElse(arguments.warmupSeconds, quick ? 1 : 2), quick ? 2 : 3, orElse(arguments.measureSeconds, quick ? 3 : 5),
                orElse(arguments.rates, List.of(RATE)), latencyThreads, orElse(arguments.warmupSeconds, quick ? 1 : 2),
                orElse(arguments.measureSeconds, quick ? 3 : 5), quick ? 1 : 2, orElse(arguments.forks, 1));
    }

    private static <T> T orElse(T value, T otherwise) {
        return value != null ? value : otherwise;
    }
}
