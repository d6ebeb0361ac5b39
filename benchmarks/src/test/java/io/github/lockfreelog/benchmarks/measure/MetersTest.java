package io.github.lockfreelog.benchmarks.measure;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class MetersTest {

    @Test
    void procStatShouldGiveUserPlusSystemTicksAsNanosEvenWithSpacesInTheCommandName() {
        String stat = "4824 (java main) R 4821 4821 3062 0 -1 4194304 130 0 0 0 250 37 0 0 20 0 1 0 1366009 3133440";

        assertThat(Meters.procStatCpuNanos(stat)).as("(250 + 37) ticks of 10 ms").isEqualTo(2_870_000_000L);
    }

    @Test
    void theProcessAndThisThreadShouldHaveUsedSomeCpu() {
        assertThat(Meters.processCpuNanos()).isPositive();
        assertThat(Meters.currentThreadCpuNanos()).isPositive();
    }

}
