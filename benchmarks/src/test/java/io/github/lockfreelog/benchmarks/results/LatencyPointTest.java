package io.github.lockfreelog.benchmarks.results;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.lockfreelog.benchmarks.measure.PacedLoop;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class LatencyPointTest {

    @Test
    void percentilesShouldBeReadFromTheHistogramWithinItsPrecision() {
        Histogram histogram = PacedLoop.newHistogram();
        for (long micros = 1; micros <= 100_000; micros++) {
            histogram.recordValue(micros * 1_000); // 1 us .. 100 ms, once each
        }

        LatencyPoint.Percentiles p = LatencyPoint.Percentiles.of(histogram);

        assertThat(p.count()).isEqualTo(100_000);
        assertThat(p.p50()).isCloseTo(50_000_000L, within(0.001));
        assertThat(p.p90()).isCloseTo(90_000_000L, within(0.001));
        assertThat(p.p99()).isCloseTo(99_000_000L, within(0.001));
        assertThat(p.p999()).isCloseTo(99_900_000L, within(0.001));
        assertThat(p.p9999()).isCloseTo(99_990_000L, within(0.001));
        assertThat(p.max()).isEqualTo(histogram.highestEquivalentValue(100_000_000L));
        assertThat(p.values()).containsExactly(p.p50(), p.p90(), p.p99(), p.p999(), p.p9999(), p.max());
    }

    @Test
    void aFewSlowCallsShouldShowOnlyAboveTheirShare() {
        Histogram histogram = PacedLoop.newHistogram();
        histogram.recordValueWithCount(1_000, 9_990); // 99.9 % at 1 us
        histogram.recordValueWithCount(5_000_000, 10); // 0.1 % at 5 ms

        LatencyPoint.Percentiles p = LatencyPoint.Percentiles.of(histogram);

        assertThat(p.p99()).isEqualTo(1_000);
        assertThat(p.p999()).as("the 9990th of 10000 is still fast").isEqualTo(1_000);
        assertThat(p.p9999()).isEqualTo(histogram.highestEquivalentValue(5_000_000));
    }

    private static org.assertj.core.data.Percentage within(double fraction) {
        return org.assertj.core.data.Percentage.withPercentage(fraction * 100);
    }
}
