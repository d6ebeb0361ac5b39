package io.github.lockfreelog.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.nio.file.Paths;
import org.junit.jupiter.api.Test;

class LatencyForkTest {

    @Test
    void settingsShouldReadBackFromTheArgumentsTheRunnerPasses() {
        LatencyFork.Settings settings = new LatencyFork.Settings(Peer.LOG4J2_ASYNC, 500_000, 4, 150, 2_000, 5_000, 2_000,
                Paths.get("/tmp/results/full-x-latency.tsv.point"), Paths.get("/tmp/results/full-x-latency.hlog"),
                "log4j2-async-500k-4t-1");

        assertThat(LatencyFork.Settings.parse(settings.arguments().toArray(String[]::new))).isEqualTo(settings);
    }

    @Test
    void settingsShouldNameWhatIsMissingOrMalformed() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> LatencyFork.Settings.parse(new String[] {"peer=lockfreelog", "rate=1000"}))
                .withMessageContaining("missing threads=");
        assertThatIllegalArgumentException().isThrownBy(() -> LatencyFork.Settings.parse(new String[] {"lockfreelog"}))
                .withMessageContaining("want key=value");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> LatencyFork.Settings.parse(new String[] {"peer=nope"}))
                .withMessageContaining("unknown peer=nope");
    }
}
