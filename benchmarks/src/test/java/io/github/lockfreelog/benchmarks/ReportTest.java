package io.github.lockfreelog.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.github.lockfreelog.benchmarks.JmhResults.Result;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReportTest {

    private final List<Result> results = new ArrayList<>();
    private final Map<String, Ledger.Entry> ledger = new HashMap<>();

    @Test
    void ratioShouldDivideByTheReferenceAtTheSameThreadCount() {
        throughput("lockfreelog", 1, 2_000_000, 776.6);
        throughput("logback-file", 1, 800_000, 776.5);
        throughput("logback-file", 2, 400_000, 776.5);

        Report report = new Report(results, ledger);

        assertThat(report.ratio("logback-file", "lockfreelog", 1, 150)).isCloseTo(0.4, within(1e-9));
        assertThat(report.ratio("logback-file", "lockfreelog", 2, 150)).as("no reference at 2 threads").isNaN();
    }

    @Test
    void throughputTableShouldFlagAPeerThatLostLinesAndShowWhatItDelivered() {
        throughput("lockfreelog", 1, 2_000_000, 776.6);
        throughput("logback-async", 1, 4_000_000, 360.0);
        lines("lockfreelog", 1, 10_000_000, 10_000_000);
        lines("logback-async", 1, 20_000_000, 8_000_000);

        String table = new Report(results, ledger).throughputTable(150);

        assertThat(table).contains("lockfreelog").contains("2.00M").contains("ok 10.00M / 10.00M");
        assertThat(table).contains("4.00M!").contains("2.00x")
                .contains("LOST 1t 8.00M/20.00M (-60.0%, ~1.60M delivered/s)");
        assertThat(table.indexOf("lockfreelog")).as("peers in the order of Peer").isLessThan(table.indexOf("logback-async"));
    }

    @Test
    void targetsShouldJudgeEachRatioAndCompareALossyPeerByTheLinesItDelivered() {
        for (int t : new int[] {1, 2}) {
            throughput("lockfreelog", t, 2_000_000, 776.6);
            throughput("encode-only", t, 2_200_000, 776.5);
            throughput("logback-file", t, 900_000, 776.5);
            throughput("logback-async", t, 4_000_000, 360.0);
            lines("logback-async", t, 10_000_000, 4_000_000); // delivers 1.6M/s
        }
        throughput("log4j2-mmap", 1, 1_500_000, 24.0);
        throughput("log4j2-mmap", 2, 1_900_000, 24.0);

        String targets = new Report(results, ledger).targets();

        assertThat(targets).contains("[MET   ] 1t  >= 0.85x encode-only                      0.91x");
        assertThat(targets).contains("[MET   ] 2t  >= 2x logback-file (immediateFlush=false) 2.22x");
        assertThat(targets).contains("[MET   ] 1t  above logback-async                       0.50x")
                .contains("vs the lines it delivered: 1.25x");
        assertThat(targets).contains("[MET   ] 1t  >= 1.2x log4j2-mmap                       1.33x");
        assertThat(targets).contains("[MISSED] 2t  >= 1.2x log4j2-mmap                       1.05x");
        assertThat(targets).contains("[n/a   ] 64t >= 0.9x its own 2-thread figure           (no result)");
        assertThat(targets).contains("[MET   ] 0 B/op allocated beyond encode-only").contains("1t: 0.10");
        assertThat(targets).doesNotContain("WARNING");
    }

    @Test
    void targetsShouldWarnWhenLockfreelogItselfLostLines() {
        throughput("lockfreelog", 1, 2_000_000, 776.6);
        throughput("lockfreelog", 64, 1_000_000, 776.6);
        throughput("lockfreelog", 2, 2_000_000, 776.6);
        lines("lockfreelog", 64, 100, 99);

        String targets = new Report(results, ledger).targets();

        assertThat(targets).contains("[MISSED] 64t >= 0.9x its own 2-thread figure           0.50x");
        assertThat(targets).contains("WARNING: lockfreelog itself lost lines at [64t thrpt]");
    }

    @Test
    void latencyAndSweepTablesShouldAppearOnlyWithTheirData() {
        throughput("lockfreelog", 1, 2_000_000, 776.6);
        Report throughputOnly = new Report(results, ledger);
        assertThat(throughputOnly.latencyTables(150)).isEmpty();
        assertThat(throughputOnly.lineSizeTable()).isEmpty();

        results.add(new Result("b", "sample", 2, 1, "lockfreelog", 150, 500, 1, "ns/op",
                Map.of("50.0", 400.0, "99.0", 1500.0, "99.9", 20_000.0, "99.99", 150_000.0), Double.NaN));
        results.add(new Result("b", "thrpt", 2, 1, "lockfreelog", 64, 3_000_000, 1, "ops/s", Map.of(), Double.NaN));
        results.add(new Result("b", "thrpt", 2, 1, "lockfreelog", 4096, 200_000, 1, "ops/s", Map.of(), Double.NaN));
        ledger.put(Ledger.key("thrpt", "lockfreelog", 2, 64),
                new Ledger.Entry("thrpt", "lockfreelog", 2, 64, 10, 10, 1030, 0, ""));
        Report full = new Report(results, ledger);

        assertThat(full.latencyTables(150)).contains("400/1500/20.0k/150.0k");
        assertThat(full.lineSizeTable()).contains("64 B (->103)").contains("3.00M 1.00x 309MB/s")
                .contains("200.0k 1.00x 819MB/s");
    }

    @Test
    void siShouldAbbreviateLargeNumbers() {
        assertThat(Report.si(1_234_567)).isEqualTo("1.23M");
        assertThat(Report.si(45_678)).isEqualTo("45.7k");
        assertThat(Report.si(776.4)).isEqualTo("776");
        assertThat(Report.si(0.25)).isEqualTo("0.3");
        assertThat(Report.si(Double.NaN)).isEqualTo("-");
    }

    private void throughput(String peer, int threads, double opsPerSecond, double bytesPerOp) {
        results.add(new Result("io.github.lockfreelog.benchmarks.AppenderBenchmark.log", "thrpt", threads, 1, peer, 150,
                opsPerSecond, 0, "ops/s", Map.of(), bytesPerOp));
    }

    private void lines(String peer, int threads, long accepted, long written) {
        ledger.put(Ledger.key("thrpt", peer, threads, 150),
                new Ledger.Entry("thrpt", peer, threads, 150, accepted, written, written * 150, 0, ""));
    }
}
