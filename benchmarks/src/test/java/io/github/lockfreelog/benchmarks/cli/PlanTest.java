package io.github.lockfreelog.benchmarks.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import io.github.lockfreelog.benchmarks.peers.BootLogging;
import io.github.lockfreelog.benchmarks.peers.Peer;
import io.github.lockfreelog.benchmarks.peers.Workload;
import io.github.lockfreelog.benchmarks.report.LatencyReport;
import java.util.List;
import org.junit.jupiter.api.Test;

class PlanTest {

    private static final int PEERS = Peer.defaultIds("full").size();

    @Test
    void fullShouldBePlannedToEndWithin45MinutesWithEveryPeer() {
        Plan full = Plan.full(Arguments.parse(new String[] {"full"}));

        assertThat(full.estimateSeconds(PEERS)).isLessThanOrEqualTo(45 * 60);
        assertThat(full.jmh()).extracting(Plan.Phase::label).containsExactly("throughput", "line-size");
        assertThat(full.jmh().get(0).threads()).contains(1, 2, 4, 64);
        assertThat(full.latency().rates()).containsExactly(10_000L, 100_000L, 500_000L);
        assertThat(full.latency().threads()).containsExactly(1, 2, 4);
    }

    @Test
    void latencyQuickShouldBeTheHeadlinePointWithinTwoMinutes() {
        Plan quick = Plan.latencyQuick(
                Arguments.parse(new String[] {"latency-quick"}));

        assertThat(quick.jmh()).isEmpty();
        assertThat(quick.latency().rates()).containsExactly(LatencyReport.HEADLINE_RATE);
        assertThat(quick.latency().threads()).containsExactly(LatencyReport.HEADLINE_THREADS);
        assertThat(quick.estimateSeconds(PEERS)).isLessThanOrEqualTo(2 * 60);
    }

    @Test
    void optionsShouldOverrideTheLatencyPlan() {
        Plan plan = Plan.of(Arguments.parse(new String[] {
            "latency", "--rates", "20000,40000", "--threads", "8", "--warmup", "1", "--measure", "2"}));

        assertThat(plan.latency()).isEqualTo(new Plan.Latency(List.of(20_000L, 40_000L), List.of(8), 1, 2, 2, 1));
        assertThat(plan.estimateSeconds(1)).isEqualTo(2 * (1 + 2 + Plan.LATENCY_FORK_OVERHEAD_SECONDS));
    }

    @Test
    void forksShouldRepeatEveryLatencyPoint() {
        Plan plan = Plan.latencyQuick(Arguments.parse(new String[] {
            "latency-quick", "--forks", "3"}));

        assertThat(plan.latency().forks()).isEqualTo(3);
        assertThat(plan.estimateSeconds(1)).isEqualTo(3 * (3 + 5 + Plan.LATENCY_FORK_OVERHEAD_SECONDS));
        org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
                .isThrownBy(() -> new Plan.Latency(List.of(1L), List.of(1), 1, 1, 1, 0))
                .withMessageContaining("--forks must be at least 1, got 0");
    }

    @Test
    void aRateThatCannotBePacedShouldBeRefusedWithTheOption() {
        org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
                .isThrownBy(() -> Arguments.parse(new String[] {"latency", "--rates", "100000,0"}))
                .withMessageContaining("--rates must be events per second above 0: 100000,0");
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

    @Test
    void theConsoleSetShouldBeTheConsoleModesPeersAndNoOtherModes() {
        List<String> console = List.of("lockfreelog-console", "logback-console", "logback-async-console", "log4j2-console",
                "log4j2-async-console");

        assertThat(Peer.defaultIds("console")).containsExactlyElementsOf(console);
        assertThat(Peer.defaultIds("quick")).doesNotContainAnyElementsOf(console);
        assertThat(Peer.defaultIds("cost")).doesNotContainAnyElementsOf(console);
        assertThat(Arguments.parse(new String[] {"cost", "--peers", "lockfreelog-console,logback-console"}).peers())
                .containsExactly("lockfreelog-console", "logback-console");
        assertThat(console).allMatch(id -> Peer.of(id).writesPipe() && Peer.of(id).writesFile());
        assertThat(Peer.lead(console)).isEqualTo("lockfreelog-console");
        assertThat(Peer.lead(List.of("lockfreelog", "lockfreelog-console"))).isEqualTo("lockfreelog");
    }

    @Test
    void theConsolePlanShouldBeQuicksThroughputAndTheHeadlineLatencyPoint() {
        Plan plan = Plan.of(Arguments.parse(new String[] {"console"}));

        assertThat(plan.jmh()).isEqualTo(Plan.quick(Arguments.parse(new String[] {"quick"})).jmh());
        assertThat(plan.latency()).isEqualTo(Plan.latencyQuick(Arguments.parse(new String[] {"latency-quick"})).latency());
        assertThat(plan.estimateSeconds(Peer.defaultIds("console").size())).isLessThanOrEqualTo(5 * 60);
    }

    @Test
    void peersWithoutAFaithfulFormShouldBeRefusedNamingPeerAndWorkload() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> Arguments.parse(new String[] {"cost", "--workload", "boot-file", "--peers", "log4j2-file"}))
                .withMessageContaining("peer=log4j2-file").withMessageContaining("workload=boot-file");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> Arguments.parse(new String[] {"cost", "--peers", "spring-boot-file"}))
                .withMessageContaining("peer=spring-boot-file").withMessageContaining("boot-* workload");
        assertThatIllegalArgumentException().isThrownBy(() -> Arguments.parse(new String[] {"cost", "--workload", "boot"}))
                .withMessageContaining("unknown workload=boot");
    }

    @Test
    void theWorkloadShouldReachTheForksAsSystemProperties() {
        Arguments arguments = Arguments.parse(new String[] {"cost", "--workload", "boot-ecs", "--boot-property",
                "logging.expect-correlation-id=true"});

        assertThat(arguments.forkSystemProperties()).containsEntry(Workload.PROPERTY, "boot-ecs")
                .containsEntry(BootLogging.PROPERTY_PREFIX + "logging.expect-correlation-id", "true");
        assertThat(RunEnvironment.runName("cost", arguments)).isEqualTo("cost-boot-ecs");
    }
}
