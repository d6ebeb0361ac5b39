package io.github.lockfreelog.benchmarks.jmh;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.lockfreelog.benchmarks.peers.Peer;
import io.github.lockfreelog.benchmarks.results.CostResult;
import io.github.lockfreelog.benchmarks.results.LineCheck;
import java.util.Collection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.OptionsBuilder;

class CostBenchmarkTest {

    /** The rolling pair too: their size limit is never reached, so every measured line is in the live file. */
    @ParameterizedTest
    @ValueSource(strings = {"logback-file", "lockfreelog-rolling", "logback-rolling"})
    void aForkShouldChargeTheMeasuredTrialsCpuToTheLinesInItsFile(String peer) throws Exception {
        // In this JVM (no fork): 2 callers, 0.1 s of warm-up into a first trial, 0.2 s measured into a second.
        Collection<RunResult> runs = new Runner(new OptionsBuilder()
                .include(CostBenchmark.class.getName() + ".logForAWhile$")
                .param("peer", peer).param("warmupMillis", "100").param("measureMillis", "200")
                .param("round", "3")
                .threads(2).forks(0).warmupIterations(0).measurementIterations(1)
                .build()).run();

        CostResult result = CostResult.of(runs.iterator().next());

        assertThat(result.peer()).isEqualTo(peer);
        assertThat(result.threads()).isEqualTo(2);
        assertThat(result.round()).isEqualTo(3);
        assertThat(result.calls()).as("whole loops of both callers").isPositive()
                .matches(c -> c % CostBenchmark.CALLS_PER_CLOCK_READ == 0);
        assertThat(result.lines()).as("the measured trial's file holds the measured calls only, no warm-up line")
                .isEqualTo(new LineCheck(result.calls(), result.calls(), 150 * result.calls(), 0));
        assertThat(result.delivered()).isEqualTo(result.calls());
        assertThat(result.processCpuNanos()).isGreaterThanOrEqualTo(0);
        assertThat(result.callerCpuNanos()).isPositive();
        assertThat(result.windowNanos()).as("at least the measured 0.2 s").isGreaterThanOrEqualTo(200_000_000L);
    }

    @Test
    void theRollingPairRunsOnlyWhenNamed() {
        for (String mode : java.util.List.of("quick", "full", "cost", "virtual", "console", "latency-quick")) {
            assertThat(Peer.defaultIds(mode)).as(mode).doesNotContain("lockfreelog-rolling", "logback-rolling");
        }
        assertThat(Peer.ids()).contains("lockfreelog-rolling", "logback-rolling");
    }
}
