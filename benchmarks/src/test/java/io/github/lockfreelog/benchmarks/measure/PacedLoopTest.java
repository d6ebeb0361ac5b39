package io.github.lockfreelog.benchmarks.measure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class PacedLoopTest {

    private static final long MICROS = 1_000;
    private static final long MILLIS = 1_000_000;

    /** A clock that only moves when the sink works or the loop waits. */
    private final FakeTime time = new FakeTime();
    private final PacedLoop loop = new PacedLoop(time, time);

    @Test
    void callsShouldBeMadeAtTheirScheduledTimesInterleavedAcrossThreads() {
        List<Long> thread0 = new ArrayList<>();
        List<Long> thread1 = new ArrayList<>();
        // 100k/s shared by 2 threads: each thread every 20 us, thread 1 10 us after thread 0.
        loop.run(new PacedLoop.Schedule(0, 100_000, 2, 0, 0, 100 * MICROS, 0), () -> thread0.add(time.now), histogram());
        time.now = 0;
        loop.run(new PacedLoop.Schedule(0, 100_000, 2, 1, 0, 100 * MICROS, 0), () -> thread1.add(time.now), histogram());

        assertThat(thread0).containsExactly(0L, 20 * MICROS, 40 * MICROS, 60 * MICROS, 80 * MICROS);
        assertThat(thread1).containsExactly(10 * MICROS, 30 * MICROS, 50 * MICROS, 70 * MICROS, 90 * MICROS);
    }

    @Test
    void aStallShouldBeChargedToEveryCallScheduledDuringItNotOnlyToTheStalledCall() {
        // 100k/s from one thread (every 10 us), each call takes 1 us, call 100 stalls for 1 ms.
        int[] calls = {0};
        List<Long> serviceTimes = new ArrayList<>();
        Histogram latencies = histogram();

        PacedLoop.Outcome outcome = loop.run(new PacedLoop.Schedule(0, 100_000, 1, 0, 0, 5 * MILLIS, 0), () -> {
            long took = calls[0]++ == 100 ? MILLIS + MICROS : MICROS;
            time.now += took;
            serviceTimes.add(took);
        }, latencies);

        assertThat(outcome).isEqualTo(new PacedLoop.Outcome(500, 500, 0));
        assertThat(serviceTimes.stream().filter(t -> t > 100 * MICROS)).as("the sink was slow once").hasSize(1);
        // Call 100 is due at 1000 us and returns at 2001 us; call 100 + k, due at 1000 + 10k us, returns at
        // 2001 + k us: 1001 - 9k us late, until the loop has caught up (k = 111).
        assertThat(latencies.getMaxValue()).isEqualTo(latencies.highestEquivalentValue(1001 * MICROS));
        assertThat(latencies.getCountBetweenValues(500 * MICROS, 2 * MILLIS)).as("1001 - 9k >= 500: k = 0..55").isEqualTo(56);
        assertThat(latencies.getCountBetweenValues(100 * MICROS, 2 * MILLIS)).as("1001 - 9k >= 100: k = 0..100").isEqualTo(101);
        assertThat(latencies.getCountBetweenValues(0, MICROS)).as("on time, 1 us each: all but k = 0..111")
                .isEqualTo(500 - 112);
        assertThat(latencies.getValueAtPercentile(50)).isEqualTo(latencies.highestEquivalentValue(MICROS));
        assertThat(latencies.getValueAtPercentile(80)).as("a fifth of the calls were late by 100 us or more")
                .isGreaterThanOrEqualTo(100 * MICROS);
    }

    @Test
    void warmUpCallsShouldBeMadeButNotRecorded() {
        int[] calls = {0};
        Histogram latencies = histogram();

        PacedLoop.Outcome outcome = loop.run(new PacedLoop.Schedule(0, 10_000, 1, 0, MILLIS, 2 * MILLIS, 0), () -> {
            calls[0]++;
            time.now += calls[0] <= 10 ? 50 * MICROS : MICROS; // slow while warming up, then fast
        }, latencies);

        assertThat(outcome).isEqualTo(new PacedLoop.Outcome(30, 20, 0));
        assertThat(calls[0]).isEqualTo(30);
        assertThat(latencies.getTotalCount()).isEqualTo(20);
        assertThat(latencies.getMaxValue()).isEqualTo(latencies.highestEquivalentValue(MICROS));
    }

    @Test
    void aSinkThatCannotKeepUpShouldStopAtTheHardStopAndRecordTheCallsItNeverMadeAsLowerBounds() {
        // Due every 10 us, each call takes 20 us: after 1 ms of schedule and 0.5 ms of grace, 75 calls made.
        Histogram latencies = histogram();

        PacedLoop.Outcome outcome = loop.run(new PacedLoop.Schedule(0, 100_000, 1, 0, 0, MILLIS, MILLIS / 2),
                () -> time.now += 20 * MICROS, latencies);

        assertThat(outcome.made()).isEqualTo(75);
        assertThat(outcome.missed()).isEqualTo(25);
        assertThat(outcome.made() + outcome.missed()).as("every scheduled call is made or missed").isEqualTo(100);
        assertThat(latencies.getTotalCount()).as("missed calls are recorded too").isEqualTo(100);
        // Call i (due at 10i us) returns at 20(i + 1) us: 10i + 20 us late, 760 us for the last one (i = 74),
        // which returned at the hard stop, 1500 us. Missed call j (75..99) had waited 1500 - 10j us by then.
        assertThat(latencies.getMaxValue()).isEqualTo(latencies.highestEquivalentValue(760 * MICROS));
        assertThat(latencies.getMinValue()).isEqualTo(latencies.lowestEquivalentValue(20 * MICROS));
        assertThat(latencies.getCountBetweenValues(495 * MICROS, MILLIS)).as("made i = 48..74, missed 510..750 us")
                .isEqualTo(27 + 25);
    }

    @Test
    void aScheduleShouldRejectImpossibleSettings() {
        assertThatIllegalArgumentException().isThrownBy(() -> new PacedLoop.Schedule(0, 0, 1, 0, 0, 1, 0))
                .withMessageContaining("rate=0");
        assertThatIllegalArgumentException().isThrownBy(() -> new PacedLoop.Schedule(0, 1000, 2, 2, 0, 1, 0))
                .withMessageContaining("index=2");
    }

    private static Histogram histogram() {
        return PacedLoop.newHistogram();
    }

    /** Both the clock and the waiter: waiting jumps to the deadline. */
    private static final class FakeTime implements PacedLoop.Clock, PacedLoop.Waiter {
        long now;

        @Override
        public long nanoTime() {
            return now;
        }

        @Override
        public void awaitUntil(long deadlineNanos) {
            now = Math.max(now, deadlineNanos);
        }
    }
}
