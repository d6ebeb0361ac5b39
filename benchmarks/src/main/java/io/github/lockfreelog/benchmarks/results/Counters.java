package io.github.lockfreelog.benchmarks.results;

import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;

/** Reads a benchmark's {@code @AuxCounters} from JMH's results: summed over threads, iterations and forks. */
public final class Counters {

    private Counters() {
    }

    /** The counter {@code name} of {@code run}; an {@link IllegalArgumentException} when the run has none (its fork failed). */
    public static long of(RunResult run, String name) {
        Result<?> result = run.getSecondaryResults().get(name);
        if (result == null) {
            throw new IllegalArgumentException("no counter " + name + " in the results of " + run.getParams().id()
                    + ", have " + run.getSecondaryResults().keySet());
        }
        return Math.round(result.getScore());
    }
}
