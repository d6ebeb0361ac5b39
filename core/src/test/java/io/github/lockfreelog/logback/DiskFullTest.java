package io.github.lockfreelog.logback;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.core.status.Status;
import ch.qos.logback.core.util.Duration;
import io.github.lockfreelog.diagnostics.AppenderStatistics;
import io.github.lockfreelog.testing.FailingSink;
import io.github.lockfreelog.testing.TestAppenders;
import io.github.lockfreelog.testsupport.TestLogback;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A full disk: callers never see an exception, the error shows in status and statistics, what
 * the journal holds is written once space returns, and what could not be kept is counted as
 * dropped with reason {@code io}. Runs on a real 1 MiB tmpfs when the test may mount one (as root,
 * as in CI), and always on an injected failing sink that also writes half a batch before failing.
 */
class DiskFullTest {

    @TempDir
    Path dir;

    final LoggerContext context = TestLogback.newContext();

    @Test
    void injectedFullDiskKeepsTheJournalAndResumes() throws Exception {
        FailingSink[] sink = new FailingSink[1];
        Path log = dir.resolve("full.log");
        LockFreeFileAppender appender = TestAppenders.start(context, log, a -> {
            a.setMaxBlockTime(Duration.valueOf("100 milliseconds"));
            a.setFlushInterval(Duration.valueOf("20 milliseconds"));
            a.setSinkDecorator(s -> sink[0] = FailingSink.fullDisk(s));
        });
        runFullDisk(appender, log, () -> sink[0].stopFailing());
    }

    @Test
    void stopWhileTheDiskStaysFullKeepsTheJournalForTheNextStart() throws Exception {
        Path log = dir.resolve("stuck.log");
        LockFreeFileAppender appender = TestAppenders.start(context, log, a -> {
            a.setStopTimeout(Duration.valueOf("500 milliseconds"));
            a.setFlushInterval(Duration.valueOf("20 milliseconds"));
            a.setSinkDecorator(FailingSink::fullDisk);
        });
        for (int i = 0; i < 100; i++) {
            appender.doAppend(TestLogback.event(context, Level.INFO, "kept " + i));
        }
        long before = System.nanoTime();
        appender.stop();
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - before)).as("stop is bounded").isLessThan(10_000);
        assertThat(TestLogback.statusMessages(context, Status.WARN)).anyMatch(m -> m.contains("the next start recovers it"));
        Path journal = Path.of(appender.getStatistics().journal());
        assertThat(Files.size(journal)).as("the journal keeps what was accepted").isPositive();

        LoggerContext next = TestLogback.newContext();
        LockFreeFileAppender restarted = TestAppenders.start(next, log, a -> { });
        assertThat(restarted.getStatistics().recoveredFrames()).isPositive();
        restarted.stop();
        // the full disk wrote half of a line before failing; recovery completed it, exactly once
        // then the restart's own report of what it recovered
        List<String> lines = TestLogback.lines(log);
        assertThat(lines).hasSize(101);
        for (int i = 0; i < 100; i++) {
            assertThat(lines.get(i)).isEqualTo("kept " + i);
        }
        assertThat(lines.get(100)).startsWith("Recovered ").contains("of an unclean stop");
    }

    @Test
    void realFullTmpfsKeepsTheJournalAndResumes() throws Exception {
        Path mount = dir.resolve("tmpfs");
        Files.createDirectories(mount);
        Process mounting = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", mount.toString())
                .redirectErrorStream(true).start();
        boolean mounted = mounting.waitFor(10, TimeUnit.SECONDS) && mounting.exitValue() == 0;
        Assumptions.assumeTrue(mounted, "cannot mount a tmpfs here (not root); the injected variant covers this");
        try {
            Path log = mount.resolve("full.log");
            LockFreeFileAppender appender = TestAppenders.start(context, log, a -> {
                a.setMaxBlockTime(Duration.valueOf("100 milliseconds"));
                a.setFlushInterval(Duration.valueOf("20 milliseconds"));
            });
            // leave about 16 KB free once the journal (196 KB) exists
            Path filler = mount.resolve("filler");
            long free = Files.getFileStore(mount).getUsableSpace();
            Files.write(filler, new byte[(int) Math.max(0, free - 16 * 1024)]);
            runFullDisk(appender, log, () -> {
                try {
                    Files.delete(filler);
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            });
        } finally {
            new ProcessBuilder("umount", mount.toString()).start().waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void failingSinceMarksTheFirstFailureOfAnEpisodeAndClearsOnceAWriteSucceeds() throws Exception {
        FailingSink[] sink = new FailingSink[1];
        LockFreeFileAppender appender = TestAppenders.start(context, dir.resolve("episode.log"), a -> {
            a.setFlushInterval(Duration.valueOf("20 milliseconds"));
            a.setSinkDecorator(s -> sink[0] = FailingSink.fullDisk(s));
        });
        try {
            assertThat(appender.getStatistics().failingSinceEpochMillis()).as("no failure yet").isZero();
            long beforeFailure = System.currentTimeMillis();
            appender.doAppend(TestLogback.event(context, Level.INFO, "cannot be written yet"));
            Awaitility.await().atMost(java.time.Duration.ofSeconds(10))
                    .until(() -> appender.getStatistics().failingSinceEpochMillis() != 0);
            AppenderStatistics first = appender.getStatistics();
            assertThat(first.failingSinceEpochMillis()).isBetween(beforeFailure, System.currentTimeMillis());

            // the drainer retries; each retry fails again and counts an error, the episode's start stays
            Awaitility.await().atMost(java.time.Duration.ofSeconds(10))
                    .until(() -> appender.getStatistics().drainerErrors() >= first.drainerErrors() + 2);
            assertThat(appender.getStatistics().failingSinceEpochMillis()).isEqualTo(first.failingSinceEpochMillis());

            sink[0].stopFailing();
            Awaitility.await().atMost(java.time.Duration.ofSeconds(10))
                    .until(() -> appender.getStatistics().failingSinceEpochMillis() == 0);
            AppenderStatistics recovered = appender.getStatistics();
            assertThat(recovered.eventsWritten()).isEqualTo(1);
            assertThat(recovered.lastError()).as("the last error stays as history").contains("No space left on device");
        } finally {
            appender.stop();
        }
        assertThat(appender.getStatistics().failingSinceEpochMillis()).as("a stopped appender writes nothing").isZero();
    }

    private void runFullDisk(LockFreeFileAppender appender, Path log, Runnable freeSpace) throws Exception {
        int i = 0;
        while (appender.getStatistics().dropped() == 0) {
            appender.doAppend(TestLogback.event(context, Level.INFO, "event " + i++ + " ............................"));
        }
        for (int k = 0; k < 10; k++) {
            appender.doAppend(TestLogback.event(context, Level.INFO, "event " + i++ + " ............................"));
        }
        AppenderStatistics full = appender.getStatistics();
        assertThat(full.drops().get("io")).as("drops while the disk is full are counted as io").isPositive();
        assertThat(full.drops()).containsEntry("timeout", 0L).containsEntry("buffer-full", 0L);
        assertThat(full.drainerErrors()).isPositive();
        assertThat(full.lastError()).contains("No space left on device");
        assertThat(full.failingSinceEpochMillis()).as("failing now").isPositive();
        assertThat(TestLogback.statusMessages(context, Status.ERROR))
                .anyMatch(m -> m.contains("writing the log file failed") && m.contains("\"TEST\""));

        freeSpace.run();
        long accepted = full.appended() - full.dropped();
        Awaitility.await().atMost(java.time.Duration.ofSeconds(20))
                .until(() -> appender.getStatistics().eventsWritten() == accepted);
        appender.doAppend(TestLogback.event(context, Level.INFO, "after space returned"));
        appender.stop();

        AppenderStatistics stats = appender.getStatistics();
        assertThat(stats.appended()).isEqualTo(stats.eventsWritten() + stats.dropped());
        byte[] content = Files.readAllBytes(log);
        assertThat(content).doesNotContain((byte) 0);
        List<String> lines = TestLogback.lines(log);
        assertThat(lines).hasSize((int) accepted + 1);
        // the accepted events are the first ones, in order, each once; the dropped ones came after
        for (int k = 0; k < accepted; k++) {
            assertThat(lines.get(k)).isEqualTo("event " + k + " ............................");
        }
        assertThat(lines.get((int) accepted)).isEqualTo("after space returned");
        assertThat(TestLogback.statusMessages(context, Status.INFO)).anyMatch(m -> m.contains("works again"));
    }
}
