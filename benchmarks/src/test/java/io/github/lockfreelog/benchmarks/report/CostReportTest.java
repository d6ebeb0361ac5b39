package io.github.lockfreelog.benchmarks.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.github.lockfreelog.benchmarks.results.CostResult;
import io.github.lockfreelog.benchmarks.results.LineCheck;
import io.github.lockfreelog.benchmarks.results.Tsv;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CostReportTest {

    private final List<CostResult> results = new ArrayList<>();

    @Test
    void theMedianOfAnOddCountShouldBeTheMiddleOneAndOfAnEvenCountTheMeanOfTheTwoMiddleOnes() {
        assertThat(Spread.of(List.of(700.0, 500.0, 900.0))).isEqualTo(new Spread(700, 500, 900, 3));
        assertThat(Spread.of(List.of(400.0, 100.0, 300.0, 200.0))).isEqualTo(new Spread(250, 100, 400, 4));
        assertThat(Spread.of(Arrays.asList(Double.NaN, 5.0, null))).as("rounds without the figure left out")
                .isEqualTo(new Spread(5, 5, 5, 1));
        assertThat(Spread.of(List.of()).isEmpty()).isTrue();
    }

    @Test
    void aSpreadShouldBeWrittenAsTheMedianAndItsRangeInWholeNanoseconds() {
        assertThat(Spread.of(List.of(412.4, 398.0, 1430.6)).text()).isEqualTo("412 (398-1,431)");
        assertThat(Spread.of(List.of(47.0)).text()).as("one round: no range").isEqualTo("47");
        assertThat(Spread.NONE.text()).isEqualTo("-");
    }

    @Test
    void aLossyPeerShouldBeChargedItsCpuPerDeliveredLineNotPerCall() {
        // 10 M calls of which 1 M reached the file, 2 s of process CPU: 2,000 ns per delivered line, not 200.
        CostResult lossy = new CostResult("logback-async", 1, 150, 1, 10_000_000, 900_000_000L, 2_000_000_000L,
                1_000_000_000L, new LineCheck(10_000_000, 1_000_000, 150_000_000, 0));

        assertThat(lossy.delivered()).isEqualTo(1_000_000);
        assertThat(lossy.totalNanosPerLine()).isCloseTo(2_000, within(1e-9));
        assertThat(lossy.callerNanosPerCall()).as("the callers are charged per call").isCloseTo(90, within(1e-9));
        assertThat(lossy.cpusBusy()).isCloseTo(2.0, within(1e-9));
    }

    @Test
    void aReferenceThatWritesNoFileShouldBeChargedPerCallAndNothingDeliveredShouldGiveNoFigure() {
        CostResult nop = new CostResult("logback-nop", 1, 150, 1, 1_000, 40_000, 50_000, 100_000,
                new LineCheck(1_000, -1, 0, 0));
        CostResult nothing = new CostResult("lockfreelog", 1, 150, 1, 1_000, 40_000, 50_000, 100_000,
                new LineCheck(1_000, 0, 0, 0));

        assertThat(nop.delivered()).isEqualTo(1_000);
        assertThat(nop.totalNanosPerLine()).isCloseTo(50, within(1e-9));
        assertThat(nothing.totalNanosPerLine()).isNaN();
    }

    @Test
    void theTableShouldGiveEachPeerTheMedianAndRangeOfItsRoundsAtEachThreadCount() {
        for (int round = 1; round <= 3; round++) {
            cost("lockfreelog", 1, round, 400 + 100 * round, 250, 1_000_000, 1_000_000); // 500, 600, 700 ns/line
            cost("logback-file", 1, round, 800, 700, 1_000_000, 1_000_000);
            cost("logback-async", 1, round, 4_000, 90, 10_000_000, 1_000_000);
            cost("logback-nop", 1, round, 47, 46, 1_000_000, -1);
            cost("lockfreelog", 2, round, 300, 200, 1_000_000, 1_000_000);
        }

        String table = new CostReport(results).table();

        assertThat(table).contains("median of 3 rounds");
        assertThat(table).contains("| peer | 1t total ns/line (min-max) | 1t caller ns/call (min-max) | 2t total ns/line");
        assertThat(table).contains("| **lockfreelog** | 600 (500-700) | 250 (250-250) | 300 (300-300) | 200 (200-200) | all |");
        assertThat(table).contains("| logback-async | 4,000 (4,000-4,000) | 90 (90-90) | - | - | LOST 90 % |");
        assertThat(table).contains("| *reference: logback-nop* | 47 (47-47) | 46 (46-46) | - | - | n/a (writes no file) |");
        assertThat(table.indexOf("logback-async")).as("references last").isLessThan(table.indexOf("logback-nop"));
    }

    @Test
    void targetsShouldCompareLockfreelogsMediansWithLogbackFileAndSayWhatWasCompared() {
        cost("lockfreelog", 1, 1, 500, 300, 1_000_000, 1_000_000);
        cost("logback-file", 1, 1, 600, 550, 1_000_000, 1_000_000);
        cost("lockfreelog", 2, 1, 700, 400, 1_000_000, 1_000_000);
        cost("logback-file", 2, 1, 600, 550, 1_000_000, 1_000_000);

        String targets = new CostReport(results).targets();

        assertThat(targets).contains("[MET   ] 1t total CPU per delivered line <= logback-file (immediateFlush=false)")
                .contains("500 vs 600 ns/line (0.83x)");
        assertThat(targets).contains("[MET   ] 1t caller CPU per call <= 60 % of logback-file's total")
                .contains("300 vs 360 ns (50 % of its 600); lockfreelog's callers pay 60 % of its own total");
        assertThat(targets).contains("[MISSED] 2t total CPU per delivered line").contains("700 vs 600 ns/line (1.17x)");
        assertThat(targets).contains("[MISSED] 2t caller CPU per call").contains("400 vs 360 ns (67 % of its 600)");
    }

    @Test
    void targetsWithoutTheComparedPeerShouldSayNa() {
        cost("lockfreelog", 1, 1, 500, 300, 1_000_000, 1_000_000);

        assertThat(new CostReport(results).targets()).contains("[n/a   ] 1t total CPU").contains("(no result)");
    }

    @Test
    void aCostRunShouldBeSavedAndReadBackWithItsLineChecks(@TempDir Path directory) throws Exception {
        cost("lockfreelog", 4, 2, 500, 300, 1_000_000, 1_000_000);
        cost("logback-async", 4, 2, 400, 90, 10_000_000, 1_000_000);
        Path tsv = directory.resolve("cost-20261201-000000-cost.tsv");

        CostResult.write(tsv, "machine", results);

        assertThat(CostResult.isCostRun(tsv)).isTrue();
        assertThat(CostResult.read(tsv)).isEqualTo(results);
        assertThat(Tsv.comment(tsv)).isEqualTo("machine");
    }

    @Test
    void theChartShouldPlotEachPeersMedianTotalAndLabelTheLossyOnesAndTheReferences() {
        cost("lockfreelog", 1, 1, 500, 300, 1_000_000, 1_000_000);
        cost("lockfreelog", 1, 2, 700, 300, 1_000_000, 1_000_000);
        cost("logback-async", 2, 1, 4_000, 90, 10_000_000, 1_000_000);
        cost("logback-nop", 1, 1, 47, 46, 1_000_000, -1);

        List<ChartLines.Line> lines = ChartLines.cost(results, List.of(1, 2));

        assertThat(lines).extracting(ChartLines.Line::peer).containsExactly("lockfreelog", "logback-async", "logback-nop");
        assertThat(lines.get(0).values()).containsExactly(600.0, null);
        assertThat(lines.get(0).role()).isEqualTo(ChartLines.Role.LOCKFREELOG);
        assertThat(lines.get(1).label()).isEqualTo("logback-async (lost 90 % of its lines)");
        assertThat(lines.get(1).values()).containsExactly(null, 4_000.0);
        assertThat(lines.get(2).role()).isEqualTo(ChartLines.Role.REFERENCE);
    }

    @Test
    void aBootRunShouldReportTheCallersAllocationAndIssue27sTargetsAgainstBootsOwnAppenders() {
        boot("lockfreelog", 400, 24, 1_000, 1_000);
        boot("spring-boot-file", 1_000, 900, 1_000, 1_000);
        boot("lockfreelog-console", 500, 24, 1_000, 1_000);
        boot("spring-boot-console", 1_000, 900, 1_000, 1_000);
        boot("logback-nop", 100, 24, 1_000, -1);

        String text = new CostReport(results).render();

        assertThat(text).contains("workload boot-file, 180 bytes per delivered line")
                .contains("| **lockfreelog** | 24.0 | 0.0 |")
                .contains("| spring-boot-file | 900.0 | 876.0 |")
                .containsPattern("\\[MET   \\] 1t lockfreelog total CPU per delivered line <= 0.50 x spring-boot-file +400 vs 1,000")
                .containsPattern("\\[MISSED\\] 1t lockfreelog-console total CPU per delivered line <= 0.35 x spring-boot-console")
                .containsPattern("\\[MET   \\] 1t lockfreelog: no allocation of its own on the caller's thread")
                .doesNotContain("logback-file (immediateFlush=false)");
    }

    @Test
    void aCostTableSavedBeforeAllocationAndWorkloadsShouldStillBeRead(@TempDir Path folder) throws Exception {
        Path tsv = folder.resolve("cost-20261101-000000-cost.tsv");
        java.nio.file.Files.writeString(tsv, "# cost mode\npeer\tthreads\tlineSize\tround\tcalls\tcallerCpuNanos"
                + "\tprocessCpuNanos\twindowNanos\tlines.accepted\tlines.written\tlines.bytes\tlines.nulBytes\n"
                + "lockfreelog\t1\t150\t1\t10\t1000\t2000\t3000\t10\t10\t1500\t0\n");

        CostResult read = CostResult.read(tsv).get(0);

        assertThat(read.callerAllocatedBytes()).isEqualTo(-1);
        assertThat(read.callerBytesPerCall()).isNaN();
        assertThat(read.workload()).isEqualTo("classic");
    }

    /** One round of a boot-file run at 1 thread: 180-byte lines, {@code bytesPerCall} allocated by the callers. */
    private void boot(String peer, long totalNs, long bytesPerCall, long calls, long written) {
        long delivered = written < 0 ? calls : written;
        results.add(new CostResult(peer, 1, 150, 1, calls, 100 * calls, totalNs * delivered, 1_000_000_000L,
                new LineCheck(calls, written, written < 0 ? 0 : 180 * written, 0), bytesPerCall * calls, "boot-file"));
    }

    /** One round: {@code totalNs} of process CPU per delivered line, {@code callerNs} per call; written -1: no file. */
    private void cost(String peer, int threads, int round, long totalNs, long callerNs, long calls, long written) {
        long delivered = written < 0 ? calls : written;
        results.add(new CostResult(peer, threads, 150, round, calls, callerNs * calls, totalNs * delivered,
                1_000_000_000L, new LineCheck(calls, written, written < 0 ? 0 : 150 * written, 0)));
    }
}
