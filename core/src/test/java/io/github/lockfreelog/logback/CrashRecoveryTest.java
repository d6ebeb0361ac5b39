package io.github.lockfreelog.logback;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.lockfreelog.diagnostics.CrashPoint;
import io.github.lockfreelog.testsupport.AckFile;
import io.github.lockfreelog.testsupport.ChildJvm;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Kills a logging child JVM with SIGKILL at random moments, again and again, and checks that
 * every event whose {@code append} had returned is in the log file exactly once, intact, in order
 * per thread, with each restart's lines after the lines it recovered. Buffer sizes alternate
 * between runs, so a journal of other buffer sizes is recovered too.
 */
class CrashRecoveryTest {

    static final int RUNS = 20;

    @TempDir
    Path dir;

    @Test
    void everyAcknowledgedEventSurvivesKillNineExactlyOnce() throws Exception {
        killAndCheck(RUNS, null, false);
    }

    /**
     * Another process appends a 1.4 KB line to the log just before each kill: recovery must tell
     * by content what of its own last write reached the log, so no event is lost, none is written
     * twice, and neither our lines nor the foreign ones are torn.
     */
    @Test
    void foreignLinesAppendedBeforeEachKillCostNoEventAndTearNoLine() throws Exception {
        killAndCheck(10, null, true);
    }

    /** The same while the log rolls every 256 KB: no event is lost or doubled across a roll. */
    @Test
    void everyAcknowledgedEventSurvivesKillNineExactlyOnceAcrossRolls() throws Exception {
        killAndCheck(10, dir.resolve("crash.%d{yyyy-MM-dd}.%i.log").toString(), false);
    }

    static String foreignLine(int run) {
        return "FOREIGN " + run + " " + "x".repeat(1400);
    }

    /** Recovery report lines the latest {@link #checkLog} saw. */
    private int recoveryReports;

    private void killAndCheck(int runs, String rollingPattern, boolean foreign) throws Exception {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        Path log = dir.resolve("crash.log");
        long[][] acks = new long[runs][];
        long recoveredTotal = 0;
        int startsThatRecovered = 0;
        for (int run = 0; run < runs; run++) {
            Path ackFile = dir.resolve("ack-" + run);
            Child child = Child.start(log, ackFile, run, run % 2 == 0 ? "64KB" : "128KB", "log", rollingPattern);
            long recovered = child.awaitRecovered();
            recoveredTotal += recovered;
            startsThatRecovered += recovered > 0 ? 1 : 0;
            child.await("READY");
            Thread.sleep(30 + random.nextInt(300));
            if (foreign) {
                Files.writeString(log, foreignLine(run) + "\n", StandardCharsets.US_ASCII, StandardOpenOption.APPEND);
            }
            child.process.destroyForcibly(); // SIGKILL on Linux
            assertThat(child.process.waitFor(30, TimeUnit.SECONDS)).isTrue();
            acks[run] = readAcks(ackFile);
        }
        long last = recoverLast(log, runs, rollingPattern);
        recoveredTotal += last;
        startsThatRecovered += last > 0 ? 1 : 0;
        long lines = checkLog(log, acks, rollingPattern, foreign ? runs : 0, seed);
        assertThat(recoveredTotal).as("recovery had work to do").isPositive();
        assertThat(recoveryReports).as("each start that recovered events said so in one line").isEqualTo(startsThatRecovered);
        System.out.printf("crash test (%s): seed %d, %d kills, %d lines, %d events recovered at restarts%n",
                rollingPattern == null ? "no rolling" : "rolling", seed, runs, lines, recoveredTotal);
    }

    /**
     * Halts the logging child at a named crash point, then halts the next start in the middle of
     * recovering it, then recovers the rest: every acknowledged event is in the log exactly once.
     */
    @ParameterizedTest
    @ValueSource(strings = {CrashPoint.AFTER_LOG_WRITE + ":40", CrashPoint.MID_REFILL + ":3",
            CrashPoint.BEFORE_ACTIVE_TERM_MOVES + ":5", CrashPoint.AFTER_ROLL_MOVE + ":2"})
    void aHaltAtEachCrashPointIsRecoveredExactlyOnce(String point) throws Exception {
        Path log = dir.resolve("crash.log");
        String rolling = dir.resolve("crash.%d{yyyy-MM-dd}.%i.log").toString();
        long[][] acks = new long[2][];
        Child first = Child.start(log, dir.resolve("ack-0"), 0, "64KB", "log", rolling, point);
        first.awaitRecovered();
        assertThat(first.process.waitFor(60, TimeUnit.SECONDS)).as("halted at %s", point).isTrue();
        assertThat(first.process.exitValue()).as("halted at %s", point).isEqualTo(CrashPoint.HALT_STATUS);
        acks[0] = readAcks(dir.resolve("ack-0"));
        // the next start halts after recovery's first write, then logs on if recovery had nothing to write
        Child second = Child.start(log, dir.resolve("ack-1"), 1, "64KB", "log", rolling, CrashPoint.MID_RECOVERY);
        boolean haltedMidRecovery = second.process.waitFor(10, TimeUnit.SECONDS);
        if (haltedMidRecovery) {
            assertThat(second.process.exitValue()).isEqualTo(CrashPoint.HALT_STATUS);
            acks[1] = new long[] {-1, -1, -1, -1};
        } else {
            second.await("READY");
            Thread.sleep(100);
            second.process.destroyForcibly();
            assertThat(second.process.waitFor(30, TimeUnit.SECONDS)).isTrue();
            acks[1] = readAcks(dir.resolve("ack-1"));
        }
        recoverLast(log, 2, rolling);
        long lines = checkLog(log, acks, rolling, 0, 0);
        assertThat(lines).as("events were acknowledged before the halt").isPositive();
        System.out.printf("crash point %s: %d lines, next start halted mid-recovery: %b%n", point, lines,
                haltedMidRecovery);
    }

    /**
     * A journal left with three terms that never reached the log (every write failed, then the
     * process died) is recovered by a start that halts after its n-th write to the log, before it
     * recorded it (the first write completes the write that failed, the others write one term
     * each); the next start recovers the rest. Every acknowledged event is there exactly
     * once. Before: a halt after the second or third write wrote that whole term again.
     */
    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4})
    void aCrashAfterAnyWriteOfARecoveryIsRecoveredExactlyOnce(int write) throws Exception {
        Path log = dir.resolve("crash.log");
        Child filler = Child.start(log, dir.resolve("ack-0"), 0, "64KB", "undrained", null);
        filler.await("FILLED");
        assertThat(filler.process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        long[][] acks = {readAcks(dir.resolve("ack-0")), {-1, -1, -1, -1}};
        assertThat(acks[0][0]).as("three 64 KB terms of lines").isGreaterThan(2_000);
        assertThat(Files.size(log)).as("nothing reached the log").isZero();
        Child halted = Child.start(log, dir.resolve("ack-1"), 1, "64KB", "recover", null,
                CrashPoint.AFTER_LOG_WRITE + ":" + write);
        assertThat(halted.process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(halted.process.exitValue()).as("halted after write %d", write).isEqualTo(CrashPoint.HALT_STATUS);
        recoverLast(log, 2, null);
        long lines = checkLog(log, acks, null, 0, 0);
        assertThat(lines).isEqualTo(acks[0][0] + 1);
    }

    /**
     * Each of three runs halts at a point of a rolled file's compression, the second time a
     * compression reaches it (so the later runs first finish what the run before left); a last
     * start finishes the rest. Then every archive decompresses, no temporary file is left, and
     * every acknowledged event is there exactly once.
     */
    @ParameterizedTest
    @ValueSource(strings = {CrashPoint.MID_COMPRESSION, CrashPoint.AFTER_COMPRESSION, CrashPoint.AFTER_COMPRESSION_RENAME})
    void aCrashWhileARolledFileIsCompressedIsFinishedAtTheNextStart(String point) throws Exception {
        Path log = dir.resolve("crash.log");
        String rolling = dir.resolve("crash.%d{yyyy-MM-dd}.%i.log.gz").toString();
        int runs = 3;
        long[][] acks = new long[runs][];
        for (int run = 0; run < runs; run++) {
            Path ackFile = dir.resolve("ack-" + run);
            Child child = Child.start(log, ackFile, run, "64KB", "log", rolling, point + ":2");
            assertThat(child.process.waitFor(60, TimeUnit.SECONDS)).as("run %d halted at %s", run, point).isTrue();
            assertThat(child.process.exitValue()).as("run %d halted at %s", run, point).isEqualTo(CrashPoint.HALT_STATUS);
            acks[run] = readAcks(ackFile);
        }
        recoverLast(log, runs, rolling);
        List<Path> archives = RollingTest.listArchives(dir);
        assertThat(archives).as("the log rolled").hasSizeGreaterThan(runs);
        assertThat(archives).as("only archives (no temporary file) beside the log")
                .allMatch(f -> f.getFileName().toString().endsWith(".log.gz"));
        long lines = checkLog(log, acks, rolling, 0, 0);
        assertThat(lines).as("events were acknowledged before the halts").isPositive();
        System.out.printf("crash point %s: %d lines in %d archives and the log%n", point, lines, archives.size());
    }

    private long recoverLast(Path log, int run, String rollingPattern) throws Exception {
        Child last = Child.start(log, dir.resolve("ack-last"), run, "64KB", "recover", rollingPattern);
        long recovered = last.awaitRecovered();
        last.await("STOPPED");
        assertThat(last.process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(last.process.exitValue()).isZero();
        return recovered;
    }

    /**
     * Checks the log (and its archives): no NUL byte, whole lines, every line intact, each run's
     * lines after the earlier runs', every thread's numbers once and in order, every acknowledged
     * one present, and {@code foreignLines} foreign lines intact. Returns the number of our lines.
     */
    private long checkLog(Path log, long[][] acks, String rollingPattern, int foreignLines, long seed)
            throws IOException {
        List<Path> files = new ArrayList<>();
        if (rollingPattern != null) {
            files.addAll(RollingTest.listArchives(dir));
        }
        files.add(log);
        List<String> lines = new ArrayList<>();
        for (Path file : files) {
            byte[] content = file.toString().endsWith(".gz") ? RollingTest.gunzip(file) : Files.readAllBytes(file);
            assertThat(content).as("seed %d: no NUL byte in %s", seed, file).doesNotContain((byte) 0);
            if (content.length > 0) {
                assertThat(content[content.length - 1]).as("%s ends with a whole line", file).isEqualTo((byte) '\n');
            }
            lines.addAll(List.of(new String(content, StandardCharsets.US_ASCII).split("\n")));
        }
        Map<String, Long> next = new HashMap<>();
        int lastRun = 0;
        int foreignSeen = 0;
        int reports = 0;
        int reportedAfterRun = -1;
        for (String line : lines) {
            if (line.isEmpty()) {
                continue;
            }
            if (line.startsWith("Recovered ")) {
                // The first line a start writes after recovering says how many events it recovered; the
                // next start's own lines follow it.
                assertThat(line).as("seed %d: the recovery report", seed)
                        .matches("Recovered [1-9]\\d* event\\(s\\) from the journal\\(s\\) of an unclean stop.*; journal in use: .+");
                reports++;
                reportedAfterRun = lastRun;
                continue;
            }
            if (line.startsWith("FOREIGN ")) {
                assertThat(line).as("seed %d: intact foreign line", seed).isEqualTo(foreignLine(foreignSeen));
                foreignSeen++;
                continue;
            }
            assertThat(line).as("seed %d: intact line", seed).matches("R\\d+ T\\d+ \\d+ check=\\d+ \\.+");
            String[] parts = line.split(" ");
            int run = Integer.parseInt(parts[0].substring(1));
            int thread = Integer.parseInt(parts[1].substring(1));
            long n = Long.parseLong(parts[2]);
            assertThat(line).as("seed %d: intact line", seed).isEqualTo(CrashChild.line(run, thread, n));
            assertThat(run).as("seed %d: a restart's lines follow the recovered ones", seed).isGreaterThanOrEqualTo(lastRun);
            if (reportedAfterRun >= 0) {
                assertThat(run).as("seed %d: lines after a recovery report are the next start's", seed)
                        .isGreaterThan(reportedAfterRun);
                reportedAfterRun = -1;
            }
            lastRun = run;
            String key = run + "/" + thread;
            long expected = next.getOrDefault(key, 0L);
            assertThat(n).as("seed %d: %s exactly once, in order", seed, key).isEqualTo(expected);
            next.put(key, expected + 1);
        }
        for (int run = 0; run < acks.length; run++) {
            for (int t = 0; t < CrashChild.THREADS; t++) {
                long written = next.getOrDefault(run + "/" + t, 0L);
                assertThat(written - 1).as("seed %d: run %d thread %d acknowledged %d (lines per run/thread: %s; recovery"
                        + " reports %d; files %s)", seed, run, t, acks[run][t], new java.util.TreeMap<>(next), reports, files)
                        .isGreaterThanOrEqualTo(acks[run][t]);
            }
        }
        assertThat(foreignSeen).as("seed %d: every foreign line once", seed).isEqualTo(foreignLines);
        recoveryReports = reports;
        return next.values().stream().mapToLong(Long::longValue).sum();
    }

    private static long[] readAcks(Path ackFile) throws IOException {
        return AckFile.read(ackFile, CrashChild.THREADS);
    }

    /** A {@link CrashChild} in a {@link ChildJvm}, and the lines of its protocol this test reads. */
    static final class Child {
        final ChildJvm jvm;
        final Process process;

        private Child(ChildJvm jvm) {
            this.jvm = jvm;
            this.process = jvm.process;
        }

        static Child start(Path log, Path ackFile, int run, String bufferSize, String mode, String rollingPattern)
                throws IOException {
            return start(log, ackFile, run, bufferSize, mode, rollingPattern, null);
        }

        /** Starts a child; with a {@code crashPoint} ({@code name} or {@code name:n}) it halts there. */
        static Child start(Path log, Path ackFile, int run, String bufferSize, String mode, String rollingPattern,
                String crashPoint) throws IOException {
            List<String> args = new ArrayList<>(List.of(log.toString(), ackFile.toString(), Integer.toString(run),
                    bufferSize, mode));
            if (rollingPattern != null) {
                args.add(rollingPattern);
            }
            return new Child(ChildJvm.start(CrashChild.class.getName(), List.of("-Xmx256m", "-XX:+UseSerialGC",
                    "-Xshare:auto", ChildJvm.crashPoint(crashPoint)), args));
        }

        long awaitRecovered() throws InterruptedException {
            String line = await("RECOVERED");
            return Long.parseLong(line.split(" ")[1]);
        }

        String await(String prefix) throws InterruptedException {
            return jvm.await(prefix);
        }
    }
}
