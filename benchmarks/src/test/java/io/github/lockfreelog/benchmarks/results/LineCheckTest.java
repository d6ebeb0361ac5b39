package io.github.lockfreelog.benchmarks.results;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LineCheckTest {

    @Test
    void aPeerThatWroteFewerLinesThanItAcceptedShouldBeLosingThem() {
        LineCheck check = new LineCheck(200, 160, 24_000, 0);

        assertThat(check.lost()).isEqualTo(40);
        assertThat(check.losing()).isTrue();
        assertThat(check.lostPercent()).isEqualTo(20.0);
        assertThat(check.deliveredFraction()).isEqualTo(0.8);
        assertThat(check.bytesPerLine()).isEqualTo(150.0);
    }

    @Test
    void aPeerWithoutAFileShouldLoseNothing() {
        LineCheck encodeOnly = new LineCheck(50, -1, 0, 0);

        assertThat(encodeOnly.writesFile()).isFalse();
        assertThat(encodeOnly.losing()).isFalse();
        assertThat(encodeOnly.deliveredFraction()).isEqualTo(1.0);
        assertThat(new LineCheck(10, 10, 0, 0).losing()).as("all written").isFalse();
        assertThat(new LineCheck(10, 12, 0, 0).lost()).as("more lines than calls: nothing lost").isZero();
    }
}
