package io.github.lockfreelog.benchmarks.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.github.lockfreelog.benchmarks.report.ChartLines;
import io.github.lockfreelog.benchmarks.results.LineCheck;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KafkaReportTest {

    private final List<KafkaResult> results = new ArrayList<>();

    /** A fork: {@code calls} back to back, {@code delivered} in the topic, all in {@code deliverySeconds}. */
    private KafkaResult result(String peer, int threads, int round, long calls, long delivered, double deliverySeconds,
            long pacedCalls, long pacedCallerCpuNanos, String pacedDetails) {
        KafkaResult r = new KafkaResult(peer, threads, round, 2_000, 3_000, 5_000, 50_000, pacedCalls, pacedCallerCpuNanos,
                new LineCheck(pacedCalls + 100_000, pacedCalls + 100_000, 150 * (pacedCalls + 100_000), 0), pacedDetails,
                calls, calls * 300, 5_000_000_000L, (long) (deliverySeconds * 1e9), 4_000_000_000L, 2_000_000_000L,
                new LineCheck(calls, delivered, 150 * delivered, 0), "");
        results.add(r);
        return r;
    }

    @Test
    void deliveredPerSecondShouldCountRecordsInTheTopicOverTheTimeUntilTheStopReturned() {
        // 1 M calls accepted in 5 s, 800 k in the topic 8 s after the first call.
        KafkaResult r = result("log4j2-kafka-async", 1, 1, 1_000_000, 800_000, 8.0, 150_000, 45_000_000, "");

        assertThat(r.deliveredPerSecond()).isCloseTo(100_000, within(1e-6));
        assertThat(r.acceptedPerSecond()).isCloseTo(200_000, within(1e-6));
        assertThat(r.processNanosPerRecord()).as("per delivered record, not per call").isCloseTo(5_000, within(1e-9));
        assertThat(r.brokerNanosPerRecord()).isCloseTo(2_500, within(1e-9));
        assertThat(r.callerNanosPerCall()).isCloseTo(300, within(1e-9));
        assertThat(r.pacedCallerNanosPerCall()).isCloseTo(300, within(1e-9));
        assertThat(r.lines().lost()).isEqualTo(200_000);
    }

    @Test
    void recordsBeyondTheCallsShouldBeCountedAsExtraNotAsDelivered() {
        KafkaResult r = result("logback-kafka-async", 1, 1, 1_000, 1_010, 1.0, 1_000, 300_000, "");

        assertThat(r.delivered()).isEqualTo(1_000);
        assertThat(r.extra()).isEqualTo(10);
        assertThat(new KafkaReport(results).render()).contains("| 1000 | 1010 (10 EXTRA) |");
    }

    @Test
    void theTablesShouldShowWhatEachPeerDidNotDeliverAndTheFileReferenceApart() {
        for (int threads : List.of(1, 4)) {
            result("lockfreelog-kafka", threads, 1, 2_000_000, 2_000_000, 10.0, 150_000, 45_000_000, "waits=0");
            result("logback-kafka-async", threads, 1, 1_000_000, 1_000_000, 10.0, 150_000, 150_000_000, "");
            result("log4j2-kafka-async", threads, 1, 1_000_000, 970_000, 10.0, 150_000, 150_000_000, "");
            result("lockfreelog-file", threads, 1, 9_000_000, 9_000_000, 5.0, 150_000, 40_000_000, "waits=0");
        }

        String text = new KafkaReport(results).render();

        assertThat(text).contains("| peer | 1 thread | 4 threads |");
        assertThat(text).contains("| **lockfreelog-kafka** | 200.0k | 200.0k |");
        assertThat(text).contains("| log4j2-kafka-async | 97.0k (NOT DELIVERED 30.0k, 3.0 %) | 97.0k (NOT DELIVERED 30.0k, 3.0 %) |");
        assertThat(text).contains("| *reference, not a Kafka peer: lockfreelog-file (a file)* | 1.80M | 1.80M |");
        assertThat(text).contains("### Kafka, 4 threads");
        assertThat(text.indexOf("log4j2-kafka-async")).as("peers in the order of KafkaPeer, the reference last")
                .isLessThan(text.indexOf("lockfreelog-file"));
    }

    @Test
    void targetsShouldCompareDeliveredWithLogbacksAsynchronousStrategyAndCallerCpuWithTheFileAppender() {
        result("lockfreelog-kafka", 1, 1, 2_000_000, 2_000_000, 10.0, 150_000, 45_000_000, "appended=1 waits=0");
        result("logback-kafka-async", 1, 1, 1_000_000, 1_000_000, 10.0, 150_000, 150_000_000, "");
        result("lockfreelog-file", 1, 1, 9_000_000, 9_000_000, 5.0, 150_000, 40_000_000, "waits=0");
        result("lockfreelog-kafka", 2, 1, 2_000_000, 2_000_000, 8.0, 150_000, 45_000_000, "waits=3");
        result("logback-kafka-async", 2, 1, 1_000_000, 1_000_000, 4.0, 150_000, 150_000_000, "");
        result("lockfreelog-file", 2, 1, 9_000_000, 9_000_000, 5.0, 150_000, 43_500_000, "");

        String targets = new KafkaReport(results).targets();

        // 1 thread: 200k / 100k = 2.00x, met; 300 / 266.7 ns = 1.13x, not met; no waits.
        assertThat(targets).contains("| 1 | 2.00x (met) | 1.13x (NOT met) | 0 times |");
        // 2 threads: 250k / 250k = 1.00x; 300 / 290 ns = 1.03x.
        assertThat(targets).contains("| 2 | 1.00x (NOT met) | 1.03x (met) | 3 times |");
    }

    @Test
    void withSeveralRoundsEachPointShouldShowTheRoundWithTheMedianDeliveredRate() {
        result("lockfreelog-kafka", 1, 1, 1_000_000, 1_000_000, 10.0, 1, 1, ""); // 100k/s
        KafkaResult median = result("lockfreelog-kafka", 1, 2, 1_000_000, 1_000_000, 5.0, 1, 1, ""); // 200k/s
        result("lockfreelog-kafka", 1, 3, 1_000_000, 1_000_000, 4.0, 1, 1, ""); // 250k/s
        KafkaReport report = new KafkaReport(results);

        assertThat(report.pick("lockfreelog-kafka", 1)).isEqualTo(median);
        assertThat(report.pick("lockfreelog-kafka", 2)).isNull();
        assertThat(report.render()).contains("the median of 3 rounds");
    }

    @Test
    void aSavedRunShouldReadBackAsItWasWritten(@TempDir Path folder) throws Exception {
        result("lockfreelog-kafka", 1, 1, 2_000_000, 1_999_999, 10.0, 150_000, 45_000_000, "waits=0 status=\"a b\"");
        result("lockfreelog-file", 4, 1, 9_000_000, 9_000_000, 5.0, 150_000, 40_000_000, "");
        Path tsv = folder.resolve("kafka-20261202-105439.tsv");

        KafkaResult.write(tsv, "kafka mode, 2 CPUs", results);

        assertThat(KafkaResult.isKafkaRun(tsv)).isTrue();
        assertThat(KafkaResult.isKafkaRun(folder.resolve("kafka-quick-20261202-105439.tsv"))).isTrue();
        assertThat(KafkaResult.isKafkaRun(folder.resolve("kafka-20261202-105439-latency.tsv"))).isFalse();
        assertThat(KafkaResult.isKafkaRun(folder.resolve("cost-20261202-105439-cost.tsv"))).isFalse();
        assertThat(KafkaResult.read(tsv)).isEqualTo(results);
    }

    @Test
    void theChartShouldDrawTheKafkaPeersInThousandsPerSecondWithoutTheFileReference() {
        result("lockfreelog-kafka", 1, 1, 2_000_000, 2_000_000, 10.0, 1, 1, "");
        result("log4j2-kafka-async", 1, 1, 1_000_000, 500_000, 10.0, 1, 1, "");
        List<KafkaResult> kafka = results.stream().filter(r -> KafkaPeer.of(r.peer()).isKafka()).toList();
        result("lockfreelog-file", 1, 1, 9_000_000, 9_000_000, 5.0, 1, 1, "");

        List<ChartLines.Line> lines = KafkaCharts.lines(new KafkaReport(kafka), List.of(1));

        assertThat(lines).extracting(ChartLines.Line::peer).containsExactly("lockfreelog-kafka", "log4j2-kafka-async");
        assertThat(lines.get(0).role()).isEqualTo(ChartLines.Role.LOCKFREELOG);
        assertThat(lines.get(0).values()).containsExactly(200.0);
        assertThat(lines.get(1).label()).isEqualTo("log4j2-kafka-async (50 % of its records not delivered)");
        assertThat(lines.get(1).notes()).containsExactly("not delivered 50 %");
    }
}
