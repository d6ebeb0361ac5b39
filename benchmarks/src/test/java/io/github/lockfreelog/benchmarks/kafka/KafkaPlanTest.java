package io.github.lockfreelog.benchmarks.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.lockfreelog.benchmarks.cli.Arguments;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class KafkaPlanTest {

    @Test
    void kafkaShouldBePlannedToEndWithin15MinutesAndKafkaQuickWithin5() {
        int peers = KafkaPeer.ids().size();
        KafkaPlan full = KafkaPlan.of(Arguments.parse(new String[] {"kafka"}), false);
        KafkaPlan quick = KafkaPlan.of(Arguments.parse(new String[] {"kafka-quick"}), true);

        assertThat(full.threads()).containsExactly(1, 2, 4);
        assertThat(full.latencyThreads()).containsExactly(1, 4);
        assertThat(full.rates()).containsExactly(KafkaPlan.RATE);
        assertThat(full.estimateSeconds(peers)).isLessThanOrEqualTo(15 * 60);
        assertThat(quick.threads()).containsExactly(1, 4);
        assertThat(quick.latencyThreads()).containsExactly(1);
        assertThat(quick.estimateSeconds(peers)).isLessThanOrEqualTo(5 * 60);
    }

    @Test
    void kafkaOptionsShouldSetBothPartsAndItsPeersShouldBeTheKafkaPeers() throws Exception {
        Arguments arguments = Arguments.parse(new String[] {"kafka", "--threads", "2", "--warmup", "1", "--measure", "3",
            "--peers", "log4j2-kafka-sync,lockfreelog-kafka", "--producer-property", "linger.ms=0"});
        KafkaPlan plan = KafkaPlan.of(arguments, false);

        assertThat(plan).isEqualTo(new KafkaPlan(List.of(2), 1, 3, 3, List.of(KafkaPlan.RATE), List.of(2), 1, 3, 2, 1));
        assertThat(KafkaPeer.order(arguments.peers)).containsExactly("lockfreelog-kafka", "log4j2-kafka-sync");
        assertThat(arguments.producerProperties).containsEntry("linger.ms", "0");
        assertThat(refusal("kafka", "--peers", "logback-async")).contains("unknown kafka peer=logback-async");
        org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
                .isThrownBy(() -> Arguments.parse(new String[] {"quick", "--peers", "lockfreelog-kafka"}))
                .withMessageContaining("unknown peer=lockfreelog-kafka");
        org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
                .isThrownBy(() -> Arguments.parse(new String[] {"kafka", "--producer-property", "acks"}))
                .withMessageContaining("--producer-property must be NAME=VALUE, got acks");
    }

    /** What the kafka command prints on standard error when it refuses {@code args} (exit 2), before any broker starts. */
    private static String refusal(String... args) throws Exception {
        PrintStream err = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        int status;
        try {
            System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
            status = new KafkaCommands().run(args, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        } finally {
            System.setErr(err);
        }
        assertThat(status).isEqualTo(2);
        return captured.toString(StandardCharsets.UTF_8);
    }
}
