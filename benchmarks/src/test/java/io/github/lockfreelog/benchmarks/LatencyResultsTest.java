package io.github.lockfreelog.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIOException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LatencyResultsTest {

    @Test
    void aRunShouldReadBackAsItWasWritten(@TempDir Path directory) throws IOException {
        Histogram histogram = PacedLoop.newHistogram();
        histogram.recordValueWithCount(900, 599_999);
        histogram.recordValue(2_500_000);
        LatencyPoint lockfreelog = new LatencyPoint("lockfreelog", 100_000, 1, 150, 3_000, 6_000, 900_000, 600_000, 0,
                LatencyPoint.Percentiles.of(histogram),
                new Ledger.Entry(LatencyPoint.ledgerMode(100_000), "lockfreelog", 1, 150, 900_000, 900_000, 135_000_000, 0,
                        "appended=900000 \"quoted\""),
                LatencyPoint.encode(histogram), new Disturbances(2, 11, 40));
        LatencyPoint async = LatencyFixtures.point("logback-async", 100_000, 1, 7_000, 900_000, 300_000, 0);
        Path json = directory.resolve("run-latency.json");

        LatencyResults.Failure failed = new LatencyResults.Failure("log4j2-async", 100_000, 1);

        LatencyResults.write(new LatencyResults.Run("latency-quick mode, 2 CPUs", List.of(lockfreelog, async),
                List.of(failed)), json);
        LatencyResults.Run read = LatencyResults.read(json);

        assertThat(LatencyResults.isLatencyRun(json)).isTrue();
        assertThat(read.environment()).isEqualTo("latency-quick mode, 2 CPUs");
        assertThat(read.points()).containsExactly(lockfreelog, async);
        assertThat(read.failures()).containsExactly(failed);
        assertThat(read.points().get(1).lines().lost()).isEqualTo(600_000);
        assertThat(LatencyPoint.decode(read.points().get(0).histogram()).getTotalCount()).isEqualTo(600_000);
    }

    @Test
    void aForkPointShouldReadBackAsItWasWritten(@TempDir Path directory) throws IOException {
        LatencyPoint point = LatencyFixtures.point("log4j2-file", 500_000, 4, 300, 3_500_000, 3_500_000, 12);
        Path json = directory.resolve("point.json");

        LatencyResults.writePoint(point, json);

        assertThat(LatencyResults.readPoint(json)).isEqualTo(point);
    }

    @Test
    void jmhResultsShouldNotBeTakenForALatencyRun(@TempDir Path directory) throws IOException {
        Path jmh = directory.resolve("quick.json");
        Files.writeString(jmh, "[{\"benchmark\": \"x\", \"mode\": \"thrpt\"}]");

        assertThat(LatencyResults.isLatencyRun(jmh)).isFalse();
        assertThatIOException().isThrownBy(() -> LatencyResults.read(jmh)).withMessageContaining("not a latency run");
    }
}
