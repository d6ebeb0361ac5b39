package io.github.lockfreelog.benchmarks.results;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class DisturbancesTest {

    @Test
    void stealIsTheEighthValueOfTheCpuLine() {
        assertThat(Disturbances.stealTicks("cpu  1475080 0 151701 3659806 3399 0 994 23227 0 0")).isEqualTo(23227);
        assertThat(Disturbances.stealTicks("cpu0 1 2 3 4 5 6 7 8 9 10")).as("a single CPU's line").isEqualTo(-1);
        assertThat(Disturbances.stealTicks("cpu 1 2 3")).as("too short").isEqualTo(-1);
    }

    @Test
    void whatHappenedBetweenTwoSamplesIsTheirDifference() {
        Disturbances before = new Disturbances(3, 20, 1_000);
        Disturbances after = new Disturbances(5, 31, 1_040);

        assertThat(after.since(before)).isEqualTo(new Disturbances(2, 11, 40));
        assertThat(after.since(before).text()).isEqualTo("2 (11 ms), steal 40 ms");
        assertThat(new Disturbances(0, 0, -1).text()).isEqualTo("none");
        assertThat(new Disturbances(5, 31, -1).since(before).stealMillis()).as("steal unknown at one end").isEqualTo(-1);
    }

    @Test
    void theCallersSchedulingIsReadFromProc() {
        assertThat(Disturbances.involuntarySwitches("Name:\tapp-worker-01\nvoluntary_ctxt_switches:\t120\n"
                + "nonvoluntary_ctxt_switches:\t17\n")).isEqualTo(17);
        assertThat(Disturbances.involuntarySwitches("Name:\tx\n")).as("absent").isEqualTo(-1);
        assertThat(Disturbances.runQueueWaitNanos("5200000 1300000 42\n")).isEqualTo(1_300_000);
        assertThat(Disturbances.runQueueWaitNanos("5200000")).as("too short").isEqualTo(-1);

        Disturbances before = new Disturbances(0, 0, 10, 4, 2_000);
        Disturbances after = new Disturbances(0, 0, 10, 9, 5_500);
        assertThat(after.since(before).text()).isEqualTo("none, steal 0 ms, callers preempted 5× (waited 3.5 ms)");
        assertThat(after.since(new Disturbances(0, 0, 10)).callerPreemptions()).as("unknown at one end").isEqualTo(-1);
    }

    @Test
    void aSampleFindsTheNamedThreadsOfThisJvm() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "no /proc here");
        java.util.concurrent.CountDownLatch stop = new java.util.concurrent.CountDownLatch(1);
        Thread caller = new Thread(() -> {
            try {
                stop.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "sched-probe-01");
        caller.start();
        try {
            long[] found = Disturbances.scheduling(java.util.Set.of("sched-probe-01"));
            for (long deadline = System.nanoTime() + 5_000_000_000L; found[0] < 0 && System.nanoTime() < deadline; ) {
                Thread.sleep(10); // the thread gives the kernel its name once it runs
                found = Disturbances.scheduling(java.util.Set.of("sched-probe-01"));
            }
            assertThat(found[0]).as("involuntary switches").isGreaterThanOrEqualTo(0);
            assertThat(found[1]).as("run-queue wait").isGreaterThanOrEqualTo(0);
            assertThat(Disturbances.scheduling(java.util.Set.of("no-such-thread"))).containsExactly(-1, -1);
            assertThat(Disturbances.sample(java.util.Set.of("sched-probe-01")).callerPreemptions()).isGreaterThanOrEqualTo(0);
        } finally {
            stop.countDown();
            caller.join();
        }
    }

    @Test
    void aSampleOfThisJvmCountsItsCollections() {
        Disturbances before = Disturbances.sample();
        System.gc();
        Disturbances between = Disturbances.sample().since(before);

        assertThat(between.gcPauses()).isGreaterThanOrEqualTo(1);
        assertThat(between.gcPauseMillis()).isGreaterThanOrEqualTo(0);
    }
}
