package io.github.lockfreelog.benchmarks.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.github.lockfreelog.benchmarks.results.LineCheck;
import io.github.lockfreelog.benchmarks.results.ThroughputResult;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReportTest {

    private final List<ThroughputResult> results = new ArrayList<>();

    @Test
    void ratioShouldDivideByTheReferenceAtTheSameThreadCount() {
        throughput("lockfreelog", 1, 2_000_000, 776.6);
        throughput("logback-file", 1, 800_000, 776.5);
        throughput("logback-file", 2, 400_000, 776.5);

        Report report = new Report(results);

        assertThat(report.ratio("logback-file", "lockfreelog", 1, 150)).isCloseTo(0.4, within(1e-9));
        assertThat(report.ratio("logback-file", "lockfreelog", 2, 150)).as("no reference at 2 threads").isNaN();
    }

    @Test
    void throughputTableShouldFlagAPeerThatLostLinesAndShowWhatItDelivered() {
        throughput("lockfreelog", 1, 2_000_000, 776.6);
        throughput("logback-async", 1, 4_000_000, 360.0);
        lines("lockfreelog", 1, 10_000_000, 10_000_000);
        lines("logback-async", 1, 20_000_000, 8_000_000);

        String table = new Report(results).throughputTable(150);

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

        String targets = new Report(results).targets();

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

        String targets = new Report(results).targets();

        assertThat(targets).contains("[MISSED] 64t >= 0.9x its own 2-thread figure           0.50x");
        assertThat(targets).contains("WARNING: lockfreelog itself lost lines at [64t thrpt]");
    }

    @Test
    void theSweepTableShouldAppearOnlyWithSeveralLineSizes() {
        throughput("lockfreelog", 2, 2_000_000, 776.6);
        assertThat(new Report(results).lineSizeTable()).isEmpty();

        results.add(new ThroughputResult("lockfreelog", 2, 64, 3_000_000, 1, Double.NaN, new LineCheck(10, 10, 1030, 0)));
        results.add(new ThroughputResult("lockfreelog", 2, 4096, 200_000, 1, Double.NaN, new LineCheck(10, 10, 40960, 0)));

        assertThat(new Report(results).lineSizeTable()).contains("64 B (->103)").contains("3.00M 1.00x 309MB/s")
                .contains("200.0k 1.00x 819MB/s");
    }

    @Test
    void theEncodeOnlyReferenceShouldComeAfterThePeersAndWriteNoFile() {
        throughput("encode-only", 1, 4_000_000, 776.5);
        results.add(new ThroughputResult("encode-only", 2, 150, 6_000_000, 0, 776.5, new LineCheck(50, -1, 0, 0)));
        throughput("log4j2-file", 1, 1_500_000, 24.0);

        String table = new Report(results).throughputTable(150);

        assertThat(table.indexOf("log4j2-file")).isLessThan(table.indexOf("encode-only"));
        assertThat(table).contains("n/a (writes no file)");
    }

    /** A result whose lines were all written, until {@link #lines} says otherwise. */
    @Test
    void aRunOfTheConsoleSetShouldCompareWithLockfreelogConsoleAndJudgeTheConsoleTargetsOnly() {
        throughput("lockfreelog-console", 1, 2_000_000, 123.0);
        throughput("logback-console", 1, 400_000, 776.5);
        throughput("lockfreelog-console", 2, 2_000_000, 123.0);
        throughput("logback-console", 2, 500_000, 776.5);
        throughput("lockfreelog-console", 4, 2_000_000, 123.0);
        throughput("logback-console", 4, 800_000, 776.5);

        String text = new Report(results).render();

        assertThat(text).contains("x lfl = peer / lockfreelog-console").contains("0.20x")
                .contains("Targets for lockfreelog-console (issue 20")
                .containsPattern("\\[MET   \\] 2t  >= 3x logback-console +4\\.00x")
                .containsPattern("\\[MISSED\\] 4t  >= 3x logback-console +2\\.50x")
                .doesNotContain("encode-only").doesNotContain("[n/a");
    }

    private void throughput(String peer, int threads, double opsPerSecond, double bytesPerOp) {
        results.add(new ThroughputResult(peer, threads, 150, opsPerSecond, 0, bytesPerOp, new LineCheck(1, 1, 150, 0)));
    }

    private void lines(String peer, int threads, long accepted, long written) {
        for (int i = 0; i < results.size(); i++) {
            ThroughputResult r = results.get(i);
            if (r.peer().equals(peer) && r.threads() == threads) {
                results.set(i, new ThroughputResult(peer, threads, 150, r.opsPerSecond(), 0, r.bytesPerOp(),
                        new LineCheck(accepted, written, written * 150, 0)));
            }
        }
    }
}
