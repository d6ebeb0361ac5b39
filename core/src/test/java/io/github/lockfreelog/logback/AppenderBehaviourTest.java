package io.github.lockfreelog.logback;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.core.status.Status;
import ch.qos.logback.core.util.Duration;
import ch.qos.logback.core.util.FileSize;
import io.github.lockfreelog.diagnostics.AppenderStatistics;
import io.github.lockfreelog.diagnostics.PageFaults;
import io.github.lockfreelog.engine.Backpressure;
import io.github.lockfreelog.testing.GatedSink;
import io.github.lockfreelog.testing.TestAppenders;
import io.github.lockfreelog.testsupport.TestLogback;
import io.github.lockfreelog.testsupport.TestThreads;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AppenderBehaviourTest {

    @TempDir
    Path dir;

    final LoggerContext context = TestLogback.newContext();
    final List<LockFreeFileAppender> started = new ArrayList<>();

    @AfterEach
    void stopAll() {
        started.forEach(LockFreeFileAppender::stop);
    }

    private LockFreeFileAppender start(Path log, java.util.function.Consumer<LockFreeFileAppender> settings) {
        LockFreeFileAppender appender = TestAppenders.start(context, log, settings);
        started.add(appender);
        return appender;
    }

    /** Starts an appender whose drainer is held in its first write until the test opens the gate. */
    private LockFreeFileAppender startGated(Path log, AtomicReference<GatedSink> sink,
            java.util.function.Consumer<LockFreeFileAppender> settings) {
        return start(log, a -> {
            a.setFlushInterval(Duration.valueOf("1 hour"));
            a.setSinkDecorator(s -> {
                sink.set(new GatedSink(s));
                return sink.get();
            });
            settings.accept(a);
        });
    }

    private void log(LockFreeFileAppender appender, Level level, String message) {
        appender.doAppend(TestLogback.event(context, level, message));
    }

    /** Fills all buffers behind a closed gate; returns how many events were accepted. */
    private long fillUntilFull(LockFreeFileAppender appender, GatedSink sink, String prefix) throws Exception {
        long accepted = 0;
        for (int i = 0; appender.getStatistics().dropped() == 0; i++) {
            log(appender, Level.INFO, prefix + i);
            accepted = appender.getStatistics().appended() - appender.getStatistics().dropped();
        }
        // the drainer took the first full buffer and is held in its write
        assertThat(sink.firstWriteArrived.await(10, TimeUnit.SECONDS)).isTrue();
        return accepted;
    }

    @Test
    void dropPolicyDropsAtOnceWhenBuffersAreFullAndCountsEachDrop() throws Exception {
        AtomicReference<GatedSink> sink = new AtomicReference<>();
        Path log = dir.resolve("drop.log");
        LockFreeFileAppender appender = startGated(log, sink, a -> a.setBackpressure(Backpressure.DROP));
        long accepted = fillUntilFull(appender, sink.get(), "kept ");
        // the event that found the buffers full was dropped; so is every further one, at once
        long before = System.nanoTime();
        for (int i = 0; i < 100; i++) {
            log(appender, Level.INFO, "lost " + i);
        }
        long elapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - before);
        AppenderStatistics stats = appender.getStatistics();
        assertThat(stats.drops()).containsEntry("buffer-full", 101L).containsEntry("timeout", 0L);
        assertThat(stats.waits()).isZero();
        assertThat(elapsedMs).as("DROP never waits").isLessThan(5_000);
        sink.get().open();
        appender.stop();
        List<String> lines = TestLogback.lines(log);
        assertThat(lines).hasSize((int) accepted);
        for (int i = 0; i < accepted; i++) {
            assertThat(lines.get(i)).isEqualTo("kept " + i);
        }
        stats = appender.getStatistics();
        assertThat(stats.eventsWritten()).isEqualTo(accepted);
        assertThat(stats.appended()).isEqualTo(accepted + 101).isEqualTo(stats.eventsWritten() + stats.dropped());
        assertThat(stats.inFlight()).isZero();
    }

    @Test
    void blockPolicyWaitsMaxBlockTimeThenDropsWithReasonTimeout() throws Exception {
        AtomicReference<GatedSink> sink = new AtomicReference<>();
        Path log = dir.resolve("block.log");
        LockFreeFileAppender appender = startGated(log, sink, a -> a.setMaxBlockTime(Duration.valueOf("300 milliseconds")));
        long accepted = fillUntilFull(appender, sink.get(), "kept ");
        AppenderStatistics afterFirst = appender.getStatistics();
        assertThat(afterFirst.drops()).containsEntry("timeout", 1L).containsEntry("buffer-full", 0L);
        assertThat(afterFirst.waits()).isEqualTo(1);
        assertThat(afterFirst.waitMaxNanos()).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(300));

        long before = System.nanoTime();
        log(appender, Level.ERROR, "also lost");
        assertThat(System.nanoTime() - before).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(300));
        AppenderStatistics stats = appender.getStatistics();
        assertThat(stats.drops()).containsEntry("timeout", 2L);
        assertThat(stats.waits()).isEqualTo(2);

        sink.get().open();
        appender.stop();
        List<String> lines = TestLogback.lines(log);
        assertThat(lines).hasSize((int) accepted).doesNotContain("also lost");
        stats = appender.getStatistics();
        assertThat(stats.appended()).isEqualTo(stats.eventsWritten() + stats.dropped()).isEqualTo(accepted + 2);
    }

    @Test
    void blockedCallerContinuesOnceTheDrainerCatchesUp() throws Exception {
        AtomicReference<GatedSink> sink = new AtomicReference<>();
        Path log = dir.resolve("unblock.log");
        LockFreeFileAppender appender = startGated(log, sink, a -> a.setMaxBlockTime(Duration.valueOf("30 seconds")));
        Thread opener = new Thread(() -> {
            try {
                Thread.sleep(500);
            } catch (InterruptedException e) {
                return;
            }
            sink.get().open();
        });
        opener.start();
        int n = 5_000; // about 3.5 buffers' worth: some callers must wait for a clean buffer
        for (int i = 0; i < n; i++) {
            log(appender, Level.INFO, "event " + i + " ........................");
        }
        opener.join();
        appender.stop();
        AppenderStatistics stats = appender.getStatistics();
        assertThat(stats.dropped()).isZero();
        assertThat(stats.waits()).isGreaterThanOrEqualTo(1);
        List<String> lines = TestLogback.lines(log);
        assertThat(lines).hasSize(n);
        for (int i = 0; i < n; i++) {
            assertThat(lines.get(i)).isEqualTo("event " + i + " ........................");
        }
    }

    @Test
    void eventsEachLoggedFromANewVirtualThreadAreEachWrittenOnceWhole() throws Exception {
        ExecutorService executor = TestThreads.virtualThreadPerTask();
        assumeTrue(executor != null, "virtual threads need Java 21");
        Path log = dir.resolve("virtual.log");
        // two small buffers: callers wait for the drainer now and then, parked rather than spinning
        LockFreeFileAppender appender = start(log, a -> {
            a.setBufferCount(2);
            a.setMaxBlockTime(Duration.valueOf("30 seconds"));
        });
        int events = 20_000;
        try {
            for (int i = 0; i < events; i++) {
                String message = "virtual " + i;
                executor.execute(() -> log(appender, Level.INFO, message));
            }
        } finally {
            executor.shutdown();
            assertThat(executor.awaitTermination(60, TimeUnit.SECONDS)).isTrue();
        }
        appender.stop();
        List<String> lines = TestLogback.lines(log);
        assertThat(appender.getStatistics().dropped()).isZero();
        assertThat(lines).hasSize(events).doesNotHaveDuplicates();
        assertThat(new java.util.HashSet<>(lines)).isEqualTo(java.util.stream.IntStream.range(0, events)
                .mapToObj(i -> "virtual " + i).collect(java.util.stream.Collectors.toSet()));
    }

    @Test
    void dropBelowLevelDropsOnlyLowerLevelsAndBlocksTheOthers() throws Exception {
        AtomicReference<GatedSink> sink = new AtomicReference<>();
        Path log = dir.resolve("level.log");
        LockFreeFileAppender appender = startGated(log, sink, a -> {
            a.setBackpressure(Backpressure.DROP);
            a.setDropBelowLevel("WARN");
            a.setMaxBlockTime(Duration.valueOf("200 milliseconds"));
        });
        fillUntilFull(appender, sink.get(), "kept ");
        assertThat(appender.getStatistics().drops()).containsEntry("buffer-full", 1L);
        log(appender, Level.INFO, "info lost");
        log(appender, Level.WARN, "warn waited");
        AppenderStatistics stats = appender.getStatistics();
        assertThat(stats.drops()).containsEntry("buffer-full", 2L).containsEntry("timeout", 1L);
        assertThat(stats.waits()).isEqualTo(1);
        sink.get().open();
    }

    @Test
    void oversizeEventIsTruncatedWithAVisibleMarkerAndCounted() throws Exception {
        Path log = dir.resolve("big.log");
        LockFreeFileAppender appender = start(log, a -> a.setMaxEventSize(FileSize.valueOf("1KB")));
        String big = "x".repeat(5000);
        log(appender, Level.INFO, "before");
        log(appender, Level.INFO, big);
        log(appender, Level.INFO, "after");
        appender.stop();
        List<String> lines = TestLogback.lines(log);
        assertThat(lines).hasSize(3);
        assertThat(lines.get(0)).isEqualTo("before");
        assertThat(lines.get(1)).startsWith("xxxx").endsWith(" [lockfreelog: event truncated]");
        assertThat(lines.get(1).getBytes(java.nio.charset.StandardCharsets.UTF_8).length + 1).isLessThanOrEqualTo(1024);
        assertThat(lines.get(2)).isEqualTo("after");
        assertThat(appender.getStatistics().truncated()).isEqualTo(1);
    }

    @Test
    void eventLargerThanTheDrainersStagingBufferIsWrittenWhole() throws Exception {
        Path log = dir.resolve("large.log");
        LockFreeFileAppender appender = start(log, a -> {
            a.setBufferSize(FileSize.valueOf("8MB"));
            a.setMaxEventSize(FileSize.valueOf("3MB"));
        });
        String large = "L".repeat(2 * 1024 * 1024 + 17);
        log(appender, Level.INFO, "small before");
        log(appender, Level.INFO, large);
        log(appender, Level.INFO, "small after");
        appender.stop();
        assertThat(TestLogback.lines(log)).containsExactly("small before", large, "small after");
        assertThat(appender.getStatistics().truncated()).isZero();
    }

    @Test
    void truncationNeverSplitsAMultiByteCharacter() throws Exception {
        Path log = dir.resolve("utf8.log");
        LockFreeFileAppender appender = start(log, a -> a.setMaxEventSize(FileSize.valueOf("300")));
        log(appender, Level.INFO, "é".repeat(400));
        appender.stop();
        String line = TestLogback.lines(log).get(0);
        assertThat(line.replace(" [lockfreelog: event truncated]", "")).matches("é+");
    }

    @Test
    void stopDrainsEverythingAndLeavesTheJournalEmpty() throws Exception {
        Path log = dir.resolve("stop.log");
        LockFreeFileAppender appender = start(log, a -> a.setFlushInterval(Duration.valueOf("1 hour")));
        for (int i = 0; i < 1000; i++) {
            log(appender, Level.INFO, "line " + i);
        }
        Path journal = Path.of(appender.getStatistics().journal());
        appender.stop();
        List<String> lines = TestLogback.lines(log);
        assertThat(lines).hasSize(1000);
        assertThat(lines.get(999)).isEqualTo("line 999");
        assertThat(Files.size(journal)).isZero();
        assertThat(appender.getStatistics().started()).isFalse();
    }

    @Test
    void loggingAfterStopDoesNotThrowAndIsCounted() throws Exception {
        Path log = dir.resolve("after.log");
        LockFreeFileAppender appender = start(log, a -> { });
        log(appender, Level.INFO, "in");
        appender.stop();
        log(appender, Level.INFO, "out 1");
        log(appender, Level.INFO, "out 2");
        appender.stop(); // idempotent
        AppenderStatistics stats = appender.getStatistics();
        assertThat(stats.drops()).containsEntry("stopped", 2L);
        assertThat(stats.appended()).isEqualTo(3);
        assertThat(stats.eventsWritten()).isEqualTo(1);
        assertThat(TestLogback.lines(log)).containsExactly("in");
    }

    @Test
    void interruptedCallerKeepsItsInterruptFlagAndItsEvent() throws Exception {
        AtomicReference<GatedSink> sink = new AtomicReference<>();
        Path log = dir.resolve("interrupt.log");
        LockFreeFileAppender appender = startGated(log, sink, a -> a.setMaxBlockTime(Duration.valueOf("30 seconds")));
        Thread.currentThread().interrupt();
        log(appender, Level.INFO, "while interrupted");
        assertThat(Thread.interrupted()).isTrue();

        // now an interrupted caller that must wait for a clean buffer
        int filler = 0;
        while (appender.getStatistics().swaps() < 2) {
            log(appender, Level.INFO, "filler " + filler++);
        }
        Thread opener = new Thread(() -> {
            try {
                Thread.sleep(300);
            } catch (InterruptedException e) {
                return;
            }
            sink.get().open();
        });
        opener.start();
        boolean[] flag = new boolean[1];
        Thread caller = new Thread(() -> {
            Thread.currentThread().interrupt();
            for (int i = 0; i < 5000; i++) {
                log(appender, Level.INFO, "waiting caller " + i);
            }
            flag[0] = Thread.currentThread().isInterrupted();
        });
        caller.start();
        caller.join();
        opener.join();
        appender.stop();
        assertThat(flag[0]).isTrue();
        AppenderStatistics stats = appender.getStatistics();
        assertThat(stats.dropped()).isZero();
        assertThat(stats.waits()).isPositive();
        List<String> lines = TestLogback.lines(log);
        assertThat(lines.get(0)).isEqualTo("while interrupted");
        assertThat(lines).contains("waiting caller 0", "waiting caller 4999").hasSize(1 + filler + 5000);
    }

    @Test
    void idleDrainerUsesAlmostNoCpu() throws Exception {
        Path log = dir.resolve("idle.log");
        LockFreeFileAppender appender = start(log, a -> { });
        log(appender, Level.INFO, "one line");
        Thread.sleep(300);
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long id = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals("lockfreelog-drainer-TEST")).findFirst().orElseThrow().getId();
        long before = threads.getThreadCpuTime(id);
        Thread.sleep(2000);
        long used = threads.getThreadCpuTime(id) - before;
        assertThat(TimeUnit.NANOSECONDS.toMillis(used)).as("drainer CPU over 2 s idle").isLessThan(100);
        assertThat(TestLogback.lines(log)).containsExactly("one line");
    }

    @Test
    void linesAppearWithinTheFlushIntervalWithoutASwap() throws Exception {
        Path log = dir.resolve("tail.log");
        LockFreeFileAppender appender = start(log, a -> a.setFlushInterval(Duration.valueOf("50 milliseconds")));
        log(appender, Level.INFO, "promptly");
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(5))
                .until(() -> Files.exists(log) && TestLogback.lines(log).contains("promptly"));
        assertThat(appender.getStatistics().swaps()).isZero();
    }

    @Test
    void statisticsReportPageFaultsFromProc() throws Exception {
        Path log = dir.resolve("faults.log");
        LockFreeFileAppender appender = start(log, a -> { });
        for (int i = 0; i < 5000; i++) {
            log(appender, Level.INFO, "line " + i + " .......................................");
        }
        PageFaults faults = appender.getStatistics().pageFaults();
        assertThat(faults.available()).isEqualTo(Files.exists(Path.of("/proc/self/stat")));
        if (faults.available()) {
            assertThat(faults.processMinor()).isGreaterThanOrEqualTo(0);
            assertThat(faults.processMinor() + faults.processMajor()).isPositive();
        }
    }

    @Test
    void twoAppendersMayNotShareAJournal() {
        Path log = dir.resolve("shared.log");
        start(log, a -> { });
        LockFreeFileAppender second = TestAppenders.create(context, log, a -> a.setName("SECOND"));
        second.start();
        assertThat(second.isStarted()).isFalse();
        assertThat(TestLogback.statusMessages(context, Status.ERROR))
                .anyMatch(m -> m.contains("already used by the appender named \"TEST\"") && m.contains("\"SECOND\""));
    }
}
