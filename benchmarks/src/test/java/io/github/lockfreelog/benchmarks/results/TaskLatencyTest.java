package io.github.lockfreelog.benchmarks.results;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TaskLatencyTest {

    @Test
    void theMedianThe99thPercentileAndTheLongestShouldBeNearestRanksOfTheTimes() {
        long[] latencies = new long[200];
        for (int i = 0; i < latencies.length; i++) {
            latencies[i] = (latencies.length - i) * 10L; // 2000, 1990, ..., 10: unsorted on purpose
        }

        TaskLatency tasks = TaskLatency.of(latencies);

        assertThat(tasks).isEqualTo(new TaskLatency(1_000, 1_980, 2_000));
    }

    @Test
    void oneTaskShouldBeEveryFigureAndNoneShouldGiveZeros() {
        assertThat(TaskLatency.of(new long[] {42})).isEqualTo(new TaskLatency(42, 42, 42));
        assertThat(TaskLatency.of(new long[0])).isEqualTo(new TaskLatency(0, 0, 0));
    }
}
