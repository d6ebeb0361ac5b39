package io.github.lockfreelog.benchmarks.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.lockfreelog.benchmarks.jmh.LatencyBenchmark;
import io.github.lockfreelog.benchmarks.results.LatencyPoint;
import io.github.lockfreelog.benchmarks.results.LatencyResults;
import io.github.lockfreelog.benchmarks.results.LineCheck;
import java.nio.file.Path;
import java.util.Collection;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.OptionsBuilder;

class LatencyRunnerTest {

    @Test
    void aPointShouldBeReadFromTheForksCountersAndItsHistogramInTheRunsLog(@TempDir Path directory) throws Exception {
        Path hlog = directory.resolve("run-latency.hlog");
        LatencyResults.startHistogramLog(hlog);
        System.setProperty(LatencyBenchmark.HISTOGRAMS_PROPERTY, hlog.toString());
        // In this JVM (no fork): 10k events/s from 2 callers, 0.1 s of warm-up and 0.3 s measured.
        Collection<RunResult> runs = new Runner(new OptionsBuilder()
                .include(LatencyBenchmark.class.getName() + ".callOnSchedule$")
                .param("peer", "logback-file").param("rate", "10000").param("warmupMillis", "100")
                .param("measureMillis", "300").param("graceMillis", "1000").param("round", "2")
                .threads(2).forks(0).warmupIterations(0).measurementIterations(1)
                .build()).run();
        Map<String, Histogram> histograms = LatencyResults.readHistograms(hlog);

        assertThat(histograms).containsOnlyKeys("logback-file-10k-2t-2");
        LatencyPoint point = LatencyRunner.point(runs.iterator().next(), histograms.get("logback-file-10k-2t-2"),
                "logback-file-10k-2t-2");

        assertThat(point.peer()).isEqualTo("logback-file");
        assertThat(point.threads()).isEqualTo(2);
        assertThat(point.made() + point.missed()).as("every call of 0.4 s at 10k/s, of both callers").isEqualTo(4_000);
        assertThat(point.latency().count()).as("those due in the measured 0.3 s").isEqualTo(3_000);
        assertThat(point.measured() + point.missed()).isEqualTo(3_000);
        assertThat(point.lines()).isEqualTo(new LineCheck(point.made(), point.made(), 150 * point.made(), 0));
        assertThat(point.disturbances().gcPauses()).as("sampled over the window").isGreaterThanOrEqualTo(0);
        assertThat(point.latency().p50()).isPositive().isLessThanOrEqualTo(point.latency().max());
    }
}
