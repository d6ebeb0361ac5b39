package io.github.lockfreelog.benchmarks.cli;

import static io.github.lockfreelog.benchmarks.results.VirtualResultTest.result;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.lockfreelog.benchmarks.results.VirtualResult;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportCommandsTest {

    @Test
    void aRunSavedBeforeTheTaskColumnsShouldBeRefusedByReportNamingTheMissingColumn(@TempDir Path directory)
            throws Exception {
        Path tsv = directory.resolve("virtual-20261201-000000-virtual.tsv");
        VirtualResult.write(tsv, "machine", List.of(result("lockfreelog", "virtual", 48_700_000, 0, 0, 100_000)));
        List<String> lines = Files.readAllLines(tsv, StandardCharsets.UTF_8);
        int kept = (int) Arrays.stream(lines.get(1).split("\t")).takeWhile(c -> !c.startsWith("tasks.")).count();
        Files.write(tsv, lines.stream().map(l -> l.startsWith("#") ? l
                : Arrays.stream(l.split("\t")).limit(kept).collect(Collectors.joining("\t"))).toList());
        PrintStream err = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        int status;
        try {
            System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
            status = new BenchmarkRunner(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8))
                    .run(new String[] {"report", tsv.toString()});
        } finally {
            System.setErr(err);
        }

        assertThat(status).isEqualTo(2);
        assertThat(captured.toString(StandardCharsets.UTF_8)).startsWith("report: no column tasks.p50Nanos in ");
    }
}
