package io.github.lockfreelog.benchmarks.measure;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
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

    @Test
    void peersOfOneModeOnlyShouldRunInThatModeAloneUnlessNamed() {
        assertThat(Peer.defaultIds("quick")).doesNotContain("logback-nop", "lockfreelog-2x64k").contains("encode-only");
        assertThat(Peer.defaultIds("cost")).contains("logback-nop", "encode-only").doesNotContain("lockfreelog-2x64k");
        assertThat(Arguments.parse(new String[] {"cost"}).peers()).contains("logback-nop");
        assertThat(Arguments.parse(new String[] {"full"}).peers()).doesNotContain("logback-nop");
        assertThat(Peer.order(List.of("logback-nop", "encode-only", "lockfreelog")))
                .containsExactly("lockfreelog", "encode-only", "logback-nop");
        assertThat(Peer.of("logback-nop").writesFile()).isFalse();
    }

    @Test
    void theCostPlanShouldDefaultToThreeRoundsAtOneTwoAndFourThreadsAndTakeFewerWithAnOption() {
        assertThat(Plan.cost(Arguments.parse(new String[] {"cost"}))).isEqualTo(new Plan.Cost(List.of(1, 2, 4), 2, 4, 3));
        assertThat(Plan.cost(Arguments.parse(new String[] {"cost", "--forks", "1", "--measure", "1"})))
                .isEqualTo(new Plan.Cost(List.of(1, 2, 4), 2, 1, 1));
        assertThat(Plan.virtual(Arguments.parse(new String[] {"virtual", "--events", "1000"})))
                .isEqualTo(new Plan.Virtual(1000, 500, 4, 1));
    }
}
