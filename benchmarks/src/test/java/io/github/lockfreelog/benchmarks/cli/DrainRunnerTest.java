package io.github.lockfreelog.benchmarks.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.lockfreelog.benchmarks.peers.Workload;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class DrainRunnerTest {

    @Test
    void theDrainedLineShouldBeOneLineOfTheWorkloadsLength() {
        byte[] line = DrainRunner.line();
        assertThat(line).hasSize(Workload.DEFAULT_LINE_SIZE);
        assertThat(new String(line, StandardCharsets.US_ASCII).indexOf('\n')).isEqualTo(line.length - 1);
    }

    @Test
    void anUnknownOptionShouldBeRefusedWithTheUsage() {
        DrainRunner runner = new DrainRunner(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        assertThatThrownBy(() -> runner.run(new String[] {"drain", "--threads", "4"}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--threads")
                .hasMessageContaining(DrainRunner.USAGE);
    }

    @Test
    void aResultShouldGiveLinesAndMegabytesPerSecond() {
        // 2 M lines of 150 bytes in half a second
        DrainRunner.Result r = new DrainRunner.Result("/dev/shm", 1, 2_000_000, 300_000_000, 500_000_000, 400_000_000);
        assertThat(r.linesPerSecond()).isEqualTo(4_000_000);
        assertThat(r.megabytesPerSecond()).isEqualTo(600_000_000 / (1024.0 * 1024));
    }
}
