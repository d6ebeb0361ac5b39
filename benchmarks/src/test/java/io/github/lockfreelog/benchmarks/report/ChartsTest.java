package io.github.lockfreelog.benchmarks.report;

import static io.github.lockfreelog.benchmarks.results.LatencyFixtures.point;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.lockfreelog.benchmarks.results.LatencyPoint;
import io.github.lockfreelog.benchmarks.results.LineCheck;
import io.github.lockfreelog.benchmarks.results.ThroughputResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChartsTest {

    @Test
    void aRunWithALineSizeSweepShouldGetBothThroughputCharts(@TempDir Path directory) throws Exception {
        List<ThroughputResult> results = List.of(result(1, 150), result(2, 150), result(2, 64), result(2, 4096));

        List<Path> drawn = Charts.drawThroughput(results, directory.resolve("full-x-throughput.png"), "");

        assertThat(drawn).containsExactly(directory.resolve("full-x-throughput.png"), directory.resolve("full-x-line-size.png"));
        assertThat(drawn).allSatisfy(png -> assertThat(Files.size(png)).isPositive());
        assertThat(Charts.drawThroughput(List.of(result(1, 150)), directory.resolve("quick.png"), ""))
                .as("no sweep").containsExactly(directory.resolve("quick.png"));
    }

    @Test
    void latencyChartsShouldBeOnePerPointOrTheHeadlineOnly(@TempDir Path directory) throws Exception {
        List<LatencyPoint> points = List.of(point("lockfreelog", 10_000, 1, 300, 10, 10, 0),
                point("lockfreelog", 100_000, 1, 300, 10, 10, 0), point("log4j2-file", 100_000, 1, 400, 10, 10, 0),
                point("lockfreelog", 100_000, 2, 300, 10, 10, 0));

        assertThat(Charts.drawLatency(points, directory.resolve("run-latency.png"), "", true)).containsExactly(
                directory.resolve("run-latency-10k-1t.png"), directory.resolve("run-latency-100k-1t.png"),
                directory.resolve("run-latency-100k-2t.png"));
        assertThat(Charts.drawLatency(points, directory.resolve("docs.png"), "", false))
                .containsExactly(directory.resolve("docs.png"));
        assertThat(Charts.drawLatency(List.of(), directory.resolve("none.png"), "", false)).isEmpty();
    }

    private static ThroughputResult result(int threads, int lineSize) {
        return new ThroughputResult("lockfreelog", threads, lineSize, 2_000_000, 0, 123, new LineCheck(9, 9, 9L * lineSize, 0));
    }
}
