package io.github.lockfreelog.benchmarks.results;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.lockfreelog.benchmarks.report.VirtualReport;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

public class VirtualResultTest {

    public static VirtualResult result(String peer, String executor, long allocated, long waits, long waitMax,
            long written) {
        return new VirtualResult(peer, executor, 1, 100_000, allocated, 500_000_000L, waits, waits * 1_000, waitMax, 0,
                new LineCheck(100_000, written, written < 0 ? 0 : 150 * written, 0),
                new TaskLatency(1_234_567, 45_600_000, 312_000_000));
    }

    @Test
    void theTableShouldGiveBytesPerEventWaitsAndTheLongestWaitPerPeerAndExecutor() {
        List<VirtualResult> results = List.of(
                result("lockfreelog-2x64k", "virtual", 122_500_000, 5_886, 211_445_559, 100_000),
                result("lockfreelog-2x64k", "platform-4", 14_600_000, 119, 9_642_237, 100_000),
                result("logback-file", "virtual", 137_500_000, -1, -1, 90_000),
                result("none", "virtual", 36_400_000, -1, -1, -1));

        String table = VirtualReport.render(results);

        assertThat(table).contains("getTotalThreadAllocatedBytes()");
        assertThat(table).contains("| lockfreelog-2x64k | virtual | 1,225 | 5,886 | 211,446 | 1.23 / 46 / 312 | 200.0k | all |");
        assertThat(table).contains("| lockfreelog-2x64k | platform-4 | 146 | 119 | 9,642 | 1.23 / 46 / 312 | 200.0k | all |");
        assertThat(table).contains("| logback-file | virtual | 1,375 | n/a | n/a | 1.23 / 46 / 312 | 200.0k | LOST 10 % |");
        assertThat(table).contains("| *reference: none (the executor alone, logs nothing)* | virtual | 364 | n/a | n/a |");
        assertThat(table.indexOf("logback-file")).as("the floor last").isLessThan(table.indexOf("reference: none"));
    }

    @Test
    void anAllocationTheJvmCannotMeasureShouldSaySo() {
        String table = VirtualReport.render(List.of(result("lockfreelog", "virtual", -1, 0, 0, 100_000)));

        assertThat(table).contains("| lockfreelog | virtual | not measured (Java 21+ only) | 0 | 0.0 |");
    }

    @Test
    void aVirtualRunShouldBeSavedAndReadBack(@TempDir Path directory) throws Exception {
        List<VirtualResult> results = List.of(result("lockfreelog", "virtual", 48_700_000, 0, 0, 100_000));
        Path tsv = directory.resolve("virtual-20261201-000000-virtual.tsv");

        VirtualResult.write(tsv, "machine", results);

        assertThat(VirtualResult.isVirtualRun(tsv)).isTrue();
        assertThat(VirtualResult.read(tsv)).isEqualTo(results);
    }

}
