package io.github.lockfreelog.benchmarks.report;

import static io.github.lockfreelog.benchmarks.results.LatencyFixtures.point;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.lockfreelog.benchmarks.results.LatencyPoint;
import io.github.lockfreelog.benchmarks.results.LatencyResults;
import java.util.List;
import org.junit.jupiter.api.Test;

class LatencyReportTest {

    @Test
    void tableShouldListEveryPeerInMicrosecondsWithTheReferenceLastAndApart() {
        LatencyReport report = report(List.of(
                point("encode-only", 100_000, 1, 250, 900_000, -1, 0),
                point("logback-file", 100_000, 1, 320, 900_000, 900_000, 0),
                point("lockfreelog", 100_000, 1, 310, 900_000, 900_000, 0)));

        String table = report.table(100_000, 1);

        assertThat(table).startsWith("### Latency at 100k events/s, 1 thread")
                .contains("6 s measured after 3 s of warm-up, 150-byte lines")
                .contains("| peer | p50 | p90 | p99 | p99.9 | p99.99 | max | calls measured | lines written / calls |");
        // p50 310 ns, p90 3.1 us, p99 31 us, p99.9 310 us, p99.99 3.1 ms, max 6.2 ms
        assertThat(table).contains("| **lockfreelog** | 0.3 | 3.1 | 31.0 | 310.0 | 3,100 | 6,200 | 600.0k | all 900.0k |");
        assertThat(table).contains("| logback-file | 0.3 | 3.2 | 32.0 | 320.0 | 3,200 | 6,400 | 600.0k | all 900.0k |");
        assertThat(table).contains("| *reference, not a peer: encode-only (encoding alone, writes nothing)* | 0.3 |")
                .contains("n/a (writes no file) |");
        assertThat(table.indexOf("lockfreelog")).isLessThan(table.indexOf("logback-file"));
        assertThat(table.indexOf("logback-file")).as("the reference after every peer").isLessThan(table.indexOf("encode-only"));
    }

    @Test
    void aPeerThatLostLinesOrFellBehindShouldSaySo() {
        LatencyReport report = report(List.of(
                point("logback-async", 500_000, 2, 7_000, 3_500_000, 1_000_000, 0),
                point("logback-file-flush", 500_000, 2, 2_000, 2_100_000, 2_100_000, 1_400_000)));

        String table = report.table(500_000, 2);

        assertThat(table).contains("| logback-async |").contains("LOST 71.4 % (2.50M of 3.50M) |");
        assertThat(table).contains("all 2.10M; BEHIND: 1.40M calls never made, percentiles are lower bounds |");
    }

    @Test
    void renderShouldHaveOneTablePerRateAndThreadCount() {
        LatencyReport report = report(List.of(
                point("lockfreelog", 500_000, 1, 300, 10, 10, 0),
                point("lockfreelog", 10_000, 2, 300, 10, 10, 0),
                point("lockfreelog", 10_000, 1, 300, 10, 10, 0)));

        String text = report.render();

        assertThat(text.indexOf("### Latency at 10k events/s, 1 thread"))
                .isLessThan(text.indexOf("### Latency at 10k events/s, 2 threads"));
        assertThat(text.indexOf("### Latency at 10k events/s, 2 threads"))
                .isLessThan(text.indexOf("### Latency at 500k events/s, 1 thread"));
        assertThat(report(List.of()).render()).isEqualTo("No latency results.\n");
    }

    @Test
    void aPointWhoseForkFailedShouldBeListedAsFailedNotLeftOut() {
        LatencyReport report = new LatencyReport(new LatencyResults.Run("", List.of(
                point("lockfreelog", 100_000, 1, 300, 10, 10, 0)),
                List.of(new LatencyResults.Failure("log4j2-async", 100_000, 1),
                        new LatencyResults.Failure("log4j2-async", 500_000, 4))));

        String text = report.render();

        assertThat(text).contains("| log4j2-async | - | - | - | - | - | - | - | FAILED: its fork gave no result");
        assertThat(text).as("a point where every fork failed still has its table")
                .contains("### Latency at 500k events/s, 4 threads");
    }

    @Test
    void aPeerMeasuredBySeveralForksShouldShowTheForkWithTheMedianTailAndTheSpread() {
        LatencyReport report = report(List.of(
                point("lockfreelog", 100_000, 1, 300, 10, 10, 0),
                point("log4j2-file", 100_000, 1, 400, 10, 10, 0),
                point("lockfreelog", 100_000, 1, 9_000, 10, 10, 0), // a fork the machine disturbed
                point("log4j2-file", 100_000, 1, 200, 10, 10, 0),
                point("lockfreelog", 100_000, 1, 500, 10, 10, 0)));

        String table = report.table(100_000, 1);

        // lockfreelog's p99.9: 300 us, 9 ms, 500 us: the median fork is the one of 500 us
        assertThat(table).contains("| **lockfreelog** | 0.5 | 5.0 | 50.0 | 500.0 |")
                .contains("median of 3 forks, p99.9 300.0-9,000 us |");
        // two forks: the lower of the two middle ones
        assertThat(table).contains("| log4j2-file | 0.2 | 2.0 | 20.0 | 200.0 |")
                .contains("median of 2 forks, p99.9 200.0-400.0 us |");
        assertThat(table.lines().filter(line -> line.contains("lockfreelog"))).as("one row per peer").hasSize(1);
    }

    @Test
    void aFailedForkOfAPeerThatOtherForksMeasuredShouldNotAddARow() {
        LatencyReport report = new LatencyReport(new LatencyResults.Run("", List.of(
                point("lockfreelog", 100_000, 1, 300, 10, 10, 0)),
                List.of(new LatencyResults.Failure("lockfreelog", 100_000, 1))));

        assertThat(report.table(100_000, 1)).doesNotContain("FAILED");
    }

    private static LatencyReport report(List<LatencyPoint> points) {
        return new LatencyReport(new LatencyResults.Run("", points, List.of()));
    }
}
