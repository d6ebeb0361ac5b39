package io.github.lockfreelog.benchmarks.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.lockfreelog.benchmarks.peers.Workload;
import io.github.lockfreelog.benchmarks.results.CostResult;
import io.github.lockfreelog.benchmarks.results.Format;
import io.github.lockfreelog.benchmarks.results.LatencyFixtures;
import io.github.lockfreelog.benchmarks.results.LatencyPoint;
import io.github.lockfreelog.benchmarks.results.LineCheck;
import io.github.lockfreelog.benchmarks.results.ThroughputResult;
import java.util.List;
import org.junit.jupiter.api.Test;

class ScalingRunnerTest {

    @Test
    void threadCountsShouldDoubleFromOneAndEndAtTwiceTheCpus() {
        assertThat(ScalingRunner.threads(1)).containsExactly(1, 2);
        assertThat(ScalingRunner.threads(2)).containsExactly(1, 2, 4);
        assertThat(ScalingRunner.threads(3)).containsExactly(1, 2, 4, 6);
        assertThat(ScalingRunner.threads(16)).containsExactly(1, 2, 4, 8, 16, 32);
    }

    @Test
    void tablesShouldHoldEachPartsFigureByThreadsAndPeerAndADashWhereNoneWasMeasured() {
        LineCheck allWritten = new LineCheck(1_000, 1_000, 150_000, 0);
        LineCheck halfWritten = new LineCheck(1_000, 500, 75_000, 0);
        List<ThroughputResult> throughput = List.of(
                new ThroughputResult("lockfreelog", 1, Workload.DEFAULT_LINE_SIZE, 4_000_000, 0, 0, allWritten),
                new ThroughputResult("lockfreelog", 2, Workload.DEFAULT_LINE_SIZE, 6_000_000, 0, 0, halfWritten));
        // 1 M calls, 300 ms of the callers' CPU, 500 ms of the process's: 300 ns per call, 500 ns per line
        List<CostResult> cost = List.of(new CostResult("lockfreelog", 1, 150, 1, 1_000_000, 300_000_000L, 500_000_000L,
                1_000_000_000L, new LineCheck(1_000_000, 1_000_000, 150_000_000, 0)));
        List<LatencyPoint> latency = List.of(LatencyFixtures.point("logback-file", 100_000, 2, 40, 1_000, 1_000, 0));

        String text = ScalingRunner.render(List.of(1, 2), List.of("lockfreelog", "logback-file"), throughput, cost, latency);

        assertThat(text).contains("### Lines delivered per second (" + RunEnvironment.machine() + ")")
                .contains("| threads | lockfreelog | logback-file |");
        String[] tables = text.split("### ");
        assertThat(tables[1]).contains("| 1 | " + Format.si(4_000_000) + " | - |")
                .as("lines delivered, not calls: half of 6 M").contains("| 2 | " + Format.si(3_000_000) + " | - |");
        assertThat(tables[2]).contains("| 1 | " + Format.nanos(300) + " | - |").contains("| 2 | - | - |");
        assertThat(tables[3]).contains("| 1 | " + Format.nanos(500) + " | - |");
        // the fixture's p99.9 is p50 x 1,000 ns: 40 µs
        assertThat(tables[4]).startsWith("p99.9 latency at 100k events/s").contains("| 2 | - | 40.0 |");
    }
}
