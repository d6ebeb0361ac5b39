package io.github.lockfreelog.benchmarks.kafka;

import io.github.lockfreelog.benchmarks.results.LineCheck;
import io.github.lockfreelog.benchmarks.results.Tsv;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * One throughput fork of the kafka mode ({@link KafkaFork}): one peer at one thread count in one round; saved as one
 * row of the run's {@code kafka-STAMP.tsv}.
 *
 * @param pacedRate calls per second of the paced trial, all callers together
 * @param pacedCalls calls made in the paced trial's measured part (bursts of {@value KafkaFork#BURST})
 * @param pacedCallerCpuNanos the callers' CPU time over those bursts, summed
 * @param paced the paced trial's check: all its calls (warm-up included) against the records in its topic (the file
 *        reference: lines in its file)
 * @param pacedDetails what the peer said of itself after the paced trial (lockfreelog: {@code waits}, the times a
 *        caller waited for room in the journal)
 * @param calls calls made in the measured trial, back to back
 * @param callerCpuNanos the callers' CPU time over their loops, summed
 * @param callersNanos wall time from the first call to the last caller's return
 * @param deliveryNanos wall time from the first call to the return of the framework's stop, which flushes what it
 *        accepted: the time until every accepted record was delivered (or given up)
 * @param processCpuNanos the whole process's CPU time over {@code deliveryNanos}
 * @param brokerCpuNanos the broker's process's CPU time over the same span; -1 where it could not be read
 * @param lines the measured trial's check: its calls against the records in its topic
 * @param details what the peer said of itself after the measured trial
 */
public record KafkaResult(String peer, int threads, int round, long warmupMillis, long pacedMillis, long measureMillis,
        long pacedRate, long pacedCalls, long pacedCallerCpuNanos, LineCheck paced, String pacedDetails, long calls,
        long callerCpuNanos, long callersNanos, long deliveryNanos, long processCpuNanos, long brokerCpuNanos,
        LineCheck lines, String details) {

    /** Records delivered: those in the topic (the file reference: lines in its file), never more than were accepted. */
    public long delivered() {
        return Math.min(lines.written(), lines.accepted());
    }

    /** Records in the topic beyond the calls made (a peer that sent some twice, or logged its own lines). */
    public long extra() {
        return Math.max(0, lines.written() - lines.accepted());
    }

    /** Delivered records per second over the window until the stop returned. */
    public double deliveredPerSecond() {
        return deliveryNanos > 0 ? delivered() * 1e9 / deliveryNanos : Double.NaN;
    }

    /** Calls per second the callers made over their loop (what the peer accepted, not what it delivered). */
    public double acceptedPerSecond() {
        return callersNanos > 0 ? calls * 1e9 / callersNanos : Double.NaN;
    }

    /** The process's CPU time per delivered record, in ns. */
    public double processNanosPerRecord() {
        return delivered() > 0 && processCpuNanos >= 0 ? (double) processCpuNanos / delivered() : Double.NaN;
    }

    /** The broker's CPU time per delivered record, in ns. */
    public double brokerNanosPerRecord() {
        return delivered() > 0 && brokerCpuNanos >= 0 ? (double) brokerCpuNanos / delivered() : Double.NaN;
    }

    /** The callers' CPU time per call, back to back, in ns. */
    public double callerNanosPerCall() {
        return calls > 0 && callerCpuNanos >= 0 ? (double) callerCpuNanos / calls : Double.NaN;
    }

    /** The callers' CPU time per call in the paced trial, in ns. */
    public double pacedCallerNanosPerCall() {
        return pacedCalls > 0 && pacedCallerCpuNanos >= 0 ? (double) pacedCallerCpuNanos / pacedCalls : Double.NaN;
    }

    static void write(Path tsv, String comment, List<KafkaResult> results) throws IOException {
        Tsv.write(tsv, comment, results);
    }

    static List<KafkaResult> read(Path tsv) throws IOException {
        return Tsv.read(tsv, KafkaResult.class);
    }

    /** Whether {@code tsv} is the throughput table of a kafka run ({@code kafka-STAMP.tsv}, {@code kafka-quick-STAMP.tsv}). */
    static boolean isKafkaRun(Path tsv) {
        return tsv.getFileName().toString().matches("kafka(-quick)?-\\d{8}-\\d{6}\\.tsv");
    }
}
