package io.github.lockfreelog.benchmarks.results;

import io.github.lockfreelog.benchmarks.results.Format;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class FormatTest {

    @Test
    void siShouldAbbreviateLargeNumbers() {
        assertThat(Format.si(1_234_567)).isEqualTo("1.23M");
        assertThat(Format.si(45_678)).isEqualTo("45.7k");
        assertThat(Format.si(776.4)).isEqualTo("776");
        assertThat(Format.si(0.25)).isEqualTo("0.3");
        assertThat(Format.si(Double.NaN)).isEqualTo("-");
    }

    @Test
    void rateShouldNameAPointShortly() {
        assertThat(Format.rate(10_000)).isEqualTo("10k");
        assertThat(Format.rate(2_500)).isEqualTo("2.5k");
        assertThat(Format.rate(1_000_000)).isEqualTo("1M");
        assertThat(Format.rate(999)).isEqualTo("999");
    }

    @Test
    void microsShouldKeepOneDecimalBelowAMillisecond() {
        assertThat(Format.micros(310)).isEqualTo("0.3");
        assertThat(Format.micros(78_540)).isEqualTo("78.5");
        assertThat(Format.micros(3_503_000)).isEqualTo("3,503");
    }
}
