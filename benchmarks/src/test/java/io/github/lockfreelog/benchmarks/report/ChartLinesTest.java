package io.github.lockfreelog.benchmarks.report;

import static io.github.lockfreelog.benchmarks.results.LatencyFixtures.point;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.github.lockfreelog.benchmarks.report.ChartLines.Line;
import io.github.lockfreelog.benchmarks.report.ChartLines.Role;
import io.github.lockfreelog.benchmarks.results.LatencyPoint;
import io.github.lockfreelog.benchmarks.results.LineCheck;
import io.github.lockfreelog.benchmarks.results.ThroughputResult;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ChartLinesTest {

    private final List<ThroughputResult> results = new ArrayList<>();

    @Test
    void deliveredShouldBeCallsPerSecondTimesTheShareOfLinesThatReachedTheFile() {
        throughput("lockfreelog", 1, 3_000_000);
        throughput("lockfreelog", 2, 3_500_000);
        lines("lockfreelog", 1, 40_000_000, 40_000_000);
        lines("lockfreelog", 2, 45_000_000, 45_000_000);
        throughput("logback-async", 1, 9_000_000);
        throughput("logback-async", 2, 10_000_000);
        lines("logback-async", 1, 100_000_000, 28_000_000); // lost 72 %
        lines("logback-async", 2, 120_000_000, 3_600_000); // lost 97 %

        List<Line> lines = ChartLines.delivered(results, points(1, 2));

        Line lockfreelog = lines.get(0);
        assertThat(lockfreelog.label()).isEqualTo("lockfreelog");
        assertThat(lockfreelog.role()).isEqualTo(Role.LOCKFREELOG);
        assertThat(lockfreelog.values()).containsExactly(3.0, 3.5);
        Line async = lines.get(1);
        assertThat(async.label()).isEqualTo("logback-async (lost 72-97 % of its lines)");
        assertThat(async.role()).isEqualTo(Role.PEER);
        assertThat(async.values().get(0)).as("9M calls/s, 28 % delivered").isCloseTo(2.52, within(1e-9));
        assertThat(async.values().get(1)).as("10M calls/s, 3 % delivered").isCloseTo(0.3, within(1e-9));
        assertThat(async.notes()).as("each lossy point marked").containsExactly("lost 72 %", "lost 97 %");
        assertThat(lockfreelog.notes()).containsExactly(null, null);
    }

    @Test
    void theEncodeOnlyReferenceShouldBeDrawnApartAfterThePeersAndAMissingPointLeftAsAGap() {
        throughput("encode-only", 1, 4_000_000);
        throughput("encode-only", 2, 6_800_000);
        lines("encode-only", 1, 50_000_000, -1);
        throughput("log4j2-file", 2, 2_700_000);

        List<Line> lines = ChartLines.delivered(results, points(1, 2));

        assertThat(lines).extracting(Line::peer).containsExactly("log4j2-file", "encode-only");
        assertThat(lines.get(0).values()).containsExactly(null, 2.7);
        Line reference = lines.get(1);
        assertThat(reference.role()).isEqualTo(Role.REFERENCE);
        assertThat(reference.label()).isEqualTo("encode-only (reference, not a peer: encoding alone, writes nothing)");
        assertThat(reference.values()).as("writes no file, so nothing counts as lost").containsExactly(4.0, 6.8);
    }

    @Test
    void lockfreelogShouldBeLabelledToowhenItLostLines() {
        throughput("lockfreelog", 1, 3_000_000);
        lines("lockfreelog", 1, 1_000_000, 999_000);

        assertThat(ChartLines.delivered(results, points(1)).get(0).label())
                .isEqualTo("lockfreelog (lost 0.1 % of its lines)");
    }

    @Test
    void lossTextShouldRoundAndNameARangeOnlyWhenTheLossesDiffer() {
        assertThat(ChartLines.lossText(List.of(entry(100, 100)))).isEmpty();
        assertThat(ChartLines.lossText(List.of(entry(100, 59), entry(100, 100)))).isEqualTo("lost 41 % of its lines");
        assertThat(ChartLines.lossText(List.of(entry(1_000_000, 999_999)))).isEqualTo("lost <0.1 % of its lines");
        assertThat(ChartLines.lossText(List.of(entry(1000, 590), entry(1000, 240)))).isEqualTo("lost 41-76 % of its lines");
        assertThat(ChartLines.lossText(List.of(entry(1000, 30), entry(1000, 4)))).isEqualTo("lost 97-99.6 % of its lines");
        assertThat(ChartLines.lossText(List.of(entry(100_000, 1)))).as("kept one line").isEqualTo("lost 99.9 % of its lines");
        assertThat(ChartLines.lossText(List.of(entry(100, 0)))).isEqualTo("lost 100 % of its lines");
    }

    @Test
    void latencyLinesShouldBeInMicrosecondsPerPercentileAndSayWhoLostLinesOrFellBehind() {
        List<LatencyPoint> points = List.of(
                point("encode-only", 100_000, 1, 200, 900_000, -1, 0),
                point("lockfreelog", 100_000, 1, 300, 900_000, 900_000, 0),
                point("logback-async", 100_000, 1, 7_000, 900_000, 600_000, 0),
                point("logback-file-flush", 100_000, 1, 2_000, 800_000, 800_000, 100_000),
                point("lockfreelog", 500_000, 1, 900, 10, 10, 0));

        List<Line> lines = ChartLines.latency(points, 100_000, 1);

        assertThat(lines).extracting(Line::peer)
                .containsExactly("lockfreelog", "logback-file-flush", "logback-async", "encode-only");
        assertThat(lines.get(0).values()).containsExactly(0.3, 3.0, 30.0, 300.0, 3_000.0, 6_000.0);
        assertThat(lines.get(1).label()).isEqualTo("logback-file-flush (fell behind the rate: lower bounds)");
        assertThat(lines.get(2).label()).isEqualTo("logback-async (lost 33 % of its lines)");
        assertThat(lines.get(3).role()).isEqualTo(Role.REFERENCE);
    }

    private static List<ChartLines.Point> points(int... threads) {
        List<ChartLines.Point> points = new ArrayList<>();
        for (int t : threads) {
            points.add(new ChartLines.Point(t, 150));
        }
        return points;
    }

    private void throughput(String peer, int threads, double opsPerSecond) {
        results.add(new ThroughputResult(peer, threads, 150, opsPerSecond, 0, Double.NaN, new LineCheck(1, 1, 150, 0)));
    }

    private void lines(String peer, int threads, long accepted, long written) {
        results.replaceAll(r -> r.peer().equals(peer) && r.threads() == threads
                ? new ThroughputResult(peer, threads, 150, r.opsPerSecond(), 0, Double.NaN,
                        new LineCheck(accepted, written, 0, 0))
                : r);
    }

    private static LineCheck entry(long accepted, long written) {
        return new LineCheck(accepted, written, 0, 0);
    }
}
