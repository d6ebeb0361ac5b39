package io.github.lockfreelog.benchmarks.results;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.lockfreelog.benchmarks.jmh.AppenderBenchmark;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

class ThroughputResultTest {

    @Test
    void aJmhRunShouldReportTheLinesItsPeerWroteThroughItsCounters() throws Exception {
        // In this JVM (no fork), two threads, a few hundred milliseconds: only the counters are checked.
        Collection<RunResult> runs = new Runner(new OptionsBuilder()
                .include(AppenderBenchmark.class.getName() + ".log$")
                .param("peer", "logback-file")
                .mode(Mode.Throughput).timeUnit(TimeUnit.SECONDS)
                .threads(2).forks(0)
                .warmupIterations(1).warmupTime(TimeValue.milliseconds(100))
                .measurementIterations(3).measurementTime(TimeValue.milliseconds(200))
                .build()).run();

        assertThat(runs).hasSize(1);
        ThroughputResult result = ThroughputResult.of(runs.iterator().next());

        assertThat(result.peer()).isEqualTo("logback-file");
        assertThat(result.threads()).isEqualTo(2);
        assertThat(result.lineSize()).isEqualTo(150);
        assertThat(result.opsPerSecond()).isPositive();
        assertThat(result.bytesPerOp()).as("no -prof gc").isNaN();
        LineCheck lines = result.lines();
        // 0.1 s of warm-up and 3 x 0.2 s measured (M calls): the fork made M plus the warm-up's calls. Counted
        // once per iteration instead, the sum would be at least 2 M (M/3 + 2M/3 + M, plus the warm-up thrice).
        long measured = (long) (result.opsPerSecond() * 0.6);
        assertThat(lines.accepted()).as("calls of both threads, warm-up included, counted once")
                .isBetween((long) (measured * 0.99), 2 * measured);
        assertThat(lines.written()).isEqualTo(lines.accepted());
        assertThat(lines.bytes()).isEqualTo(150 * lines.written());
        assertThat(lines.nulBytes()).isZero();
    }

    @Test
    void resultsShouldReadBackAsTheyWereSaved(@TempDir Path directory) throws IOException {
        List<ThroughputResult> results = List.of(
                new ThroughputResult("lockfreelog", 4, 150, 2_370_000.5, 41_000.25, 123.4, new LineCheck(9, 9, 1350, 0)),
                new ThroughputResult("encode-only", 4, 150, 3_510_000, Double.NaN, 776.3, new LineCheck(9, -1, 0, 0)));
        Path tsv = directory.resolve("quick-x.tsv");

        ThroughputResult.write(tsv, "quick mode, 2 CPUs", results);

        assertThat(ThroughputResult.read(tsv)).isEqualTo(results);
        assertThat(Tsv.comment(tsv)).isEqualTo("quick mode, 2 CPUs");
        assertThat(Files.readAllLines(tsv).get(1)).startsWith("peer\tthreads\tlineSize\topsPerSecond");
    }
}
