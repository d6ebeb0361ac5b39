package io.github.lockfreelog.benchmarks.results;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIOException;

import io.github.lockfreelog.benchmarks.measure.PacedLoop;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LatencyResultsTest {

    @Test
    void aRunShouldReadBackAsItWasWritten(@TempDir Path directory) throws IOException {
        LatencyPoint lockfreelog = new LatencyPoint("lockfreelog", 100_000, 1, 150, 3_000, 6_000, 900_000, 600_000, 0,
                new LatencyPoint.Percentiles(900, 1_100, 45_300, 297_700, 934_400, 1_326_000, 600_000),
                new LineCheck(900_000, 900_000, 135_000_000, 0), "lockfreelog-100k-1t-1", new Disturbances(2, 11, 40, 31, 4_200));
        LatencyPoint async = LatencyFixtures.point("logback-async", 100_000, 1, 7_000, 900_000, 300_000, 0);
        LatencyResults.Failure failed = new LatencyResults.Failure("log4j2-async", 100_000, 1);
        Path tsv = directory.resolve("run-latency.tsv");

        LatencyResults.write(new LatencyResults.Run("latency-quick mode, 2 CPUs", List.of(lockfreelog, async),
                List.of(failed)), tsv);
        LatencyResults.Run read = LatencyResults.read(tsv);

        assertThat(LatencyResults.isLatencyRun(tsv)).isTrue();
        assertThat(read.environment()).isEqualTo("latency-quick mode, 2 CPUs");
        assertThat(read.points()).containsExactly(lockfreelog, async);
        assertThat(read.failures()).containsExactly(failed);
        assertThat(read.points().get(1).lines().lost()).isEqualTo(600_000);
    }

    @Test
    void everyForkHistogramShouldBeReadableFromTheRunsLogUnderItsTag(@TempDir Path directory) throws IOException {
        Path hlog = LatencyResults.histogramsFor(directory.resolve("run-latency.tsv"));
        Histogram first = PacedLoop.newHistogram();
        first.recordValueWithCount(900, 599_999);
        first.recordValue(2_500_000);
        Histogram second = PacedLoop.newHistogram();
        second.recordValueWithCount(7_000, 10);

        LatencyResults.startHistogramLog(hlog);
        LatencyResults.appendHistogram(hlog, "lockfreelog-100k-1t-1", first, 1_764_000_000_000L, 1_764_000_005_000L);
        LatencyResults.appendHistogram(hlog, "logback-file-100k-1t-1", second, 1_764_000_011_000L, 1_764_000_016_000L);

        assertThat(hlog.getFileName().toString()).isEqualTo("run-latency.hlog");
        Map<String, Histogram> read = LatencyResults.readHistograms(hlog);
        assertThat(read).containsOnlyKeys("lockfreelog-100k-1t-1", "logback-file-100k-1t-1");
        Histogram a = read.get("lockfreelog-100k-1t-1");
        assertThat(a.getTotalCount()).isEqualTo(600_000);
        assertThat(LatencyPoint.Percentiles.of(a)).isEqualTo(LatencyPoint.Percentiles.of(first));
        assertThat(a.getEndTimeStamp() - a.getStartTimeStamp()).isEqualTo(5_000);
        assertThat(read.get("logback-file-100k-1t-1").getMaxValue()).isEqualTo(second.getMaxValue());
        try (HistogramLogReader reader = new HistogramLogReader(hlog.toFile())) {
            assertThat(reader.nextIntervalHistogram().getTag()).as("in the order appended").isEqualTo("lockfreelog-100k-1t-1");
        }
    }

    @Test
    void aThroughputRunShouldNotBeTakenForALatencyRun(@TempDir Path directory) throws IOException {
        Path throughput = Files.writeString(directory.resolve("quick-x.tsv"), "# quick\npeer\tthreads\nlockfreelog\t1\n");

        assertThat(LatencyResults.isLatencyRun(throughput)).isFalse();
        assertThatIOException().isThrownBy(() -> LatencyResults.read(Files.writeString(directory.resolve("bad-latency.tsv"),
                "peer\trate\nlockfreelog\n"))).withMessageContaining("want 2 tab-separated cells, got 1");
        assertThatIOException().isThrownBy(() -> LatencyResults.read(Files.writeString(directory.resolve("old-latency.tsv"),
                "peer\trate\nlockfreelog\t100000\n"))).withMessageContaining("no column threads");
    }
}
