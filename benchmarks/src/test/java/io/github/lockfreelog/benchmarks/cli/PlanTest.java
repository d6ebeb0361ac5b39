package io.github.lockfreelog.benchmarks.cli;

import static org.assertj.core.api.Assertions.assertThat;

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
        assertThat(quick.latency().rates()).containsExactly(Plan.HEADLINE_RATE);
        assertThat(quick.latency().threads()).containsExactly(Plan.HEADLINE_THREADS);
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
    void kafkaShouldBePlannedToEndWithin15MinutesAndKafkaQuickWithin5() {
        int peers = KafkaPeer.ids().size();
        Plan.Kafka full = Plan.kafka(Arguments.parse(new String[] {"kafka"}), false);
        Plan.Kafka quick = Plan.kafka(Arguments.parse(new String[] {"kafka-quick"}), true);

        assertThat(full.threads()).containsExactly(1, 2, 4);
        assertThat(full.latencyThreads()).containsExactly(1, 4);
        assertThat(full.rates()).containsExactly(Plan.KAFKA_RATE);
        assertThat(full.estimateSeconds(peers)).isLessThanOrEqualTo(15 * 60);
        assertThat(quick.threads()).containsExactly(1, 4);
        assertThat(quick.latencyThreads()).containsExactly(1);
        assertThat(quick.estimateSeconds(peers)).isLessThanOrEqualTo(5 * 60);
    }

    @Test
    void kafkaOptionsShouldSetBothPartsAndItsPeersShouldBeTheKafkaPeers() {
        Arguments arguments = Arguments.parse(new String[] {"kafka", "--threads", "2", "--warmup", "1", "--measure", "3",
            "--peers", "log4j2-kafka-sync,lockfreelog-kafka", "--producer-property", "linger.ms=0"});
        Plan.Kafka plan = Plan.kafka(arguments, false);

        assertThat(plan).isEqualTo(new Plan.Kafka(List.of(2), 1, 3, 3, List.of(Plan.KAFKA_RATE), List.of(2), 1, 3, 2, 1));
        assertThat(KafkaPeer.order(arguments.peers)).containsExactly("lockfreelog-kafka", "log4j2-kafka-sync");
        assertThat(arguments.producerProperties).containsEntry("linger.ms", "0");
        org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
                .isThrownBy(() -> Arguments.parse(new String[] {"kafka", "--peers", "logback-async"}))
                .withMessageContaining("unknown kafka peer=logback-async");
        org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
                .isThrownBy(() -> Arguments.parse(new String[] {"quick", "--peers", "lockfreelog-kafka"}))
                .withMessageContaining("unknown peer=lockfreelog-kafka");
        org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
                .isThrownBy(() -> Arguments.parse(new String[] {"kafka", "--producer-property", "acks"}))
                .withMessageContaining("--producer-property must be NAME=VALUE, got acks");
    }
}
