package io.github.lockfreelog.logback;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.core.status.Status;
import io.github.lockfreelog.diagnostics.CrashPoint;
import io.github.lockfreelog.testing.TestAppenders;
import io.github.lockfreelog.testsupport.AckFile;
import io.github.lockfreelog.testsupport.ChildJvm;
import io.github.lockfreelog.testsupport.TestLogback;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Several processes (instances of one application, {@link SharedLogChild}) write one log file in
 * one folder: each takes its own journal slot, a kill -9 of one is recovered exactly once by the
 * next start while another keeps logging, and rolling by size with two writers keeps every line
 * once and whole. Every line is checked: its content, that each (instance, thread) sequence is
 * there once, without a gap and in order, and that every acknowledged line is there.
 */
class SharedLogFileTest {

    static final int THREADS = CrashChild.THREADS;

    @TempDir
    Path dir;

    private final List<Child> children = new ArrayList<>();

    @AfterEach
    void killLeftovers() {
        children.forEach(c -> c.process.destroyForcibly());
    }

    private Path journal(int slot) {
        String name = slot == 0 ? "app.log.journal" : "app.log." + slot + ".journal";
        return dir.resolve(LockFreeFileAppender.JOURNAL_FOLDER).resolve(name);
    }

    @Test
    void twoProcessesWritingOneFileAtOnceKeepEveryLineOnceWholeAndInOrder() throws Exception {
        Path log = dir.resolve("app.log");
        int lines = 12_000;
        Child first = start(log, 0, "write", "lines=" + lines);
        assertThat(first.awaitStarted()).as("the first takes the first slot").isEqualTo(journal(0).toString());
        Child second = start(log, 1, "write", "lines=" + lines);
        assertThat(second.awaitStarted()).as("the second takes the next slot").isEqualTo(journal(1).toString());
        first.await("READY");
        second.await("READY");
        first.send("GO");
        second.send("GO");
        assertThat(first.await("DONE")).isEqualTo("DONE dropped=0");
        assertThat(second.await("DONE")).isEqualTo("DONE dropped=0");
        first.awaitExit();
        second.awaitExit();

        List<String> all = read(List.of(log));
        Map<String, Long> counts = checkSequences(all);
        for (int instance = 0; instance < 2; instance++) {
            for (int t = 0; t < THREADS; t++) {
                assertThat(counts.get(key(instance, t))).as("instance %d thread %d", instance, t).isEqualTo(lines);
            }
        }
        assertThat(all).hasSize(2 * THREADS * lines);
        assertThat(switches(all)).as("the two processes' lines interleave: they wrote at the same time")
                .isGreaterThan(10);
    }

    /**
     * Of two running instances, the second is killed mid-burst; the first keeps logging; a third
     * that starts meanwhile takes the free slot and recovers what the killed one acknowledged,
     * exactly once, while the first appends to the same file.
     */
    @Test
    void aKilledInstanceIsRecoveredOnceByTheNextStartWhileTheOtherKeepsLogging() throws Exception {
        Path log = dir.resolve("app.log");
        Child survivor = start(log, 0, "write", "ack=" + dir.resolve("ack-0"), "pauseMicros=5000");
        assertThat(survivor.awaitStarted()).isEqualTo(journal(0).toString());
        Child killed = start(log, 1, "write", "ack=" + dir.resolve("ack-1"));
        assertThat(killed.awaitStarted()).isEqualTo(journal(1).toString());
        survivor.await("READY");
        killed.await("READY");
        survivor.send("GO");
        killed.send("GO");
        TimeUnit.MILLISECONDS.sleep(400);
        killed.process.destroyForcibly(); // SIGKILL
        assertThat(killed.process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        long[] killedAcks = readAcks(dir.resolve("ack-1"));
        long survivorBefore = readAcks(dir.resolve("ack-0"))[0];

        Child next = start(log, 2, "recover");
        assertThat(next.awaitStarted()).as("the killed one's slot is the first free one").isEqualTo(journal(1).toString());
        long recovered = next.recovered;
        next.await("STOPPED");
        next.awaitExit();
        assertThat(survivor.process.isAlive()).isTrue();
        assertThat(readAcks(dir.resolve("ack-0"))[0]).as("the survivor kept logging").isGreaterThan(survivorBefore);
        survivor.send("STOP");
        assertThat(survivor.await("DONE")).isEqualTo("DONE dropped=0");
        survivor.awaitExit();
        long[] survivorAcks = readAcks(dir.resolve("ack-0"));

        List<String> lines = read(List.of(log));
        List<String> cut = new ArrayList<>();
        Map<String, Long> counts = checkSequences(lines, 1, cut);
        assertThat(cut).as("at most the one line the kill cut, if it came during a write, and one empty line")
                .hasSizeLessThanOrEqualTo(2);
        // the kill comes at a moment of its own: the killed drainer has mostly not caught up (recovery has work
        // to do), but may have; the test of instances killed together stalls a drainer to be sure of work
        assertThat(recoveryReports(lines)).as("one report, by the start that recovered, if it recovered anything")
                .isEqualTo(recovered > 0 ? 1 : 0);
        checkSurvivorAndKilled(counts, survivorAcks, killedAcks);
        System.out.printf("shared log, kill of one of two: %d recovered by the next start, %d line cut by the kill%n",
                recovered, cut.size());
    }

    /**
     * The kill cuts a write short in the middle of a line (a crash point that writes half of it,
     * then halts, as the kernel may when kill -9 arrives during a write) while another instance
     * keeps logging. The survivor ends the cut line before its own next write, so none of its lines
     * is glued to it, and the next start writes the cut event again, whole. The log then holds
     * every line of both once and whole, and the cut part, on a line of its own. Before: the
     * survivor's next line was glued to the cut part, and recovery wrote only the cut event's rest,
     * a second broken line.
     */
    @Test
    void aWriteTheKillCutMidLineLeavesTheOtherInstancesLinesWholeAndIsWrittenAgainWhole() throws Exception {
        Path log = dir.resolve("app.log");
        Child survivor = start(log, 0, "write", "ack=" + dir.resolve("ack-0"), "pauseMicros=2000");
        assertThat(survivor.awaitStarted()).isEqualTo(journal(0).toString());
        Child dying = startWith(List.of(ChildJvm.crashPoint(CrashPoint.MID_LOG_WRITE + ":20")), log, 1,
                "write", "ack=" + dir.resolve("ack-1"));
        assertThat(dying.awaitStarted()).isEqualTo(journal(1).toString());
        survivor.await("READY");
        dying.await("READY");
        dying.send("GO");
        assertThat(dying.process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(dying.process.exitValue()).as("halted in its 20th write").isEqualTo(CrashPoint.HALT_STATUS);
        long[] dyingAcks = readAcks(dir.resolve("ack-1"));
        // the survivor starts its burst after the kill: see DrainLog for a write that starts as the kill cuts one
        survivor.send("GO");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (readAcks(dir.resolve("ack-0"))[0] < 300) {
            assertThat(System.nanoTime() - deadline).as("the survivor logs on").isNegative();
            TimeUnit.MILLISECONDS.sleep(20);
        }
        TimeUnit.MILLISECONDS.sleep(500); // its drainer wrote after the cut line

        List<String> meanwhile = new ArrayList<>();
        checkSequences(readWhileWritten(log), 1, meanwhile);
        assertThat(meanwhile).as("the cut line, ended by the survivor, before any recovery").hasSize(1);

        Child next = start(log, 2, "recover");
        assertThat(next.awaitStarted()).isEqualTo(journal(1).toString());
        next.await("STOPPED");
        next.awaitExit();
        survivor.send("STOP");
        assertThat(survivor.await("DONE")).isEqualTo("DONE dropped=0");
        survivor.awaitExit();
        long[] survivorAcks = readAcks(dir.resolve("ack-0"));

        List<String> lines = read(List.of(log));
        List<String> cut = new ArrayList<>();
        Map<String, Long> counts = checkSequences(lines, 1, cut);
        assertThat(cut).as("the cut part stays, on a line of its own").isEqualTo(meanwhile);
        checkSurvivorAndKilled(counts, survivorAcks, dyingAcks);
        assertThat(next.recovered).as("the cut event and the rest were recovered").isPositive();
    }

    /**
     * Both instances are killed; the next start takes the first slot, recovers its journal and
     * the other slot's, and deletes the other: every acknowledged line of both is there, whole. The
     * kills come at a moment of their own: both drainers may have caught up (in CI they once had, and
     * nothing was left to recover); each may cut a write; a write that raced with the other's is
     * written again whole (see {@code WriteLedger}). The test after this one makes sure of work.
     */
    @Test
    void instancesKilledTogetherAreRecoveredByOneStartWhicheverSlotItTakes() throws Exception {
        Path log = dir.resolve("app.log");
        Child a = start(log, 0, "write", "ack=" + dir.resolve("ack-0"));
        a.awaitStarted();
        Child b = start(log, 1, "write", "ack=" + dir.resolve("ack-1"));
        b.awaitStarted();
        a.await("READY");
        b.await("READY");
        a.send("GO");
        b.send("GO");
        TimeUnit.MILLISECONDS.sleep(300);
        a.process.destroyForcibly();
        b.process.destroyForcibly();
        assertThat(a.process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(b.process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        long[][] acks = {readAcks(dir.resolve("ack-0")), readAcks(dir.resolve("ack-1"))};

        Child next = start(log, 2, "recover");
        assertThat(next.awaitStarted()).isEqualTo(journal(0).toString());
        next.await("STOPPED");
        next.awaitExit();
        assertThat(journal(1)).as("the other slot's journal, recovered, is deleted").doesNotExist();
        Child again = start(log, 3, "recover");
        again.awaitStarted();
        assertThat(again.recovered).as("nothing is recovered twice").isZero();
        again.awaitExit();

        List<String> lines = read(List.of(log));
        List<String> cut = new ArrayList<>();
        Map<String, Long> counts = checkSequences(lines, BOTH, cut, new ArrayList<>());
        assertThat(cut).as("at most a line each kill cut, and an empty line").hasSizeLessThanOrEqualTo(3);
        assertThat(recoveryReports(lines)).as("one report, by the start that recovered both journals, if it recovered")
                .isEqualTo(next.recovered > 0 ? 1 : 0);
        checkAcknowledged(counts, acks);
    }

    /**
     * Both instances die: the first in the middle of a write, which it cuts mid-line at the end of
     * the file (a crash point, as kill -9 may), the second while its drainer's write is stuck, so
     * that its journal holds acknowledged events. The next start recovers both journals: the cut
     * line stays a line of its own or is finished, and no recovered line is glued to it. Before,
     * recovery wrote the first's cut write again right after its cut part (a glued line).
     */
    @Test
    void aCutWriteAtTheEndOfTheFileAndAStuckWriteOfTwoDeadInstancesAreRecoveredWithoutAGluedLine() throws Exception {
        Path log = dir.resolve("app.log");
        Child a = startWith(List.of(ChildJvm.crashPoint(CrashPoint.MID_LOG_WRITE + ":20")), log, 0,
                "write", "ack=" + dir.resolve("ack-0"), "pauseMicros=2000");
        a.awaitStarted();
        Child b = start(log, 1, "write", "ack=" + dir.resolve("ack-1"), "stallAfterMillis=0");
        b.awaitStarted();
        a.await("READY");
        b.await("READY");
        b.send("GO");
        b.await("STALLED");
        a.send("GO");
        assertThat(a.process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(a.process.exitValue()).as("halted in its 20th write").isEqualTo(CrashPoint.HALT_STATUS);
        b.process.destroyForcibly();
        assertThat(b.process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        long[][] acks = {readAcks(dir.resolve("ack-0")), readAcks(dir.resolve("ack-1"))};

        Child next = start(log, 2, "recover");
        next.awaitStarted();
        next.await("STOPPED");
        next.awaitExit();
        assertThat(next.recovered).as("both journals held acknowledged events").isPositive();

        List<String> lines = read(List.of(log));
        List<String> cut = new ArrayList<>();
        List<String> repeated = new ArrayList<>();
        Map<String, Long> counts = checkSequences(lines, 0, cut, repeated);
        assertThat(cut).as("at most the one line the crash point cut, and one empty line").hasSizeLessThanOrEqualTo(2);
        // the second's write stayed in flight, so the first's cut write counts as racing with it: written
        // again whole at recovery, its lines that had landed come twice (WriteLedger); only the first's
        assertThat(repeated).as("repeated lines").allMatch(line -> line.startsWith("R0 "));
        assertThat(recoveryReports(lines)).as("one report").isEqualTo(1);
        checkAcknowledged(counts, acks);
    }

    /**
     * Two instances roll one file by size (64 KB, gzip): each follows the other's rolls, neither
     * renames a file the other has just opened, and every line of both is in the archives and the
     * live file once, whole, in order per thread (archives read by date and index).
     */
    @Test
    void twoProcessesRollingOneFileBySizeKeepEveryLineOnceAndWhole() throws Exception {
        Path log = dir.resolve("app.log");
        String pattern = dir.resolve("app.%d{yyyy-MM-dd}.%i.log.gz").toString();
        int lines = 6_000;
        Child first = start(log, 0, "write", "lines=" + lines, "pattern=" + pattern, "maxFileSize=64KB");
        first.awaitStarted();
        Child second = start(log, 1, "write", "lines=" + lines, "pattern=" + pattern, "maxFileSize=64KB");
        second.awaitStarted();
        first.await("READY");
        second.await("READY");
        first.send("GO");
        second.send("GO");
        assertThat(first.await("DONE")).isEqualTo("DONE dropped=0");
        assertThat(second.await("DONE")).isEqualTo("DONE dropped=0");
        first.awaitExit();
        second.awaitExit();

        List<Path> archives = archives();
        assertThat(archives).as("the file rolled many times").hasSizeGreaterThan(10);
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString()))
                    .as("only archives, the live file, the acks and the hidden folder")
                    .allMatch(n -> n.equals("app.log") || n.endsWith(".log.gz") || n.equals(LockFreeFileAppender.JOURNAL_FOLDER));
        }
        List<Path> files = new ArrayList<>(archives);
        files.add(log);
        List<String> all = read(files);
        Map<String, Long> counts = checkSequences(all);
        for (int instance = 0; instance < 2; instance++) {
            for (int t = 0; t < THREADS; t++) {
                assertThat(counts.get(key(instance, t))).as("instance %d thread %d", instance, t).isEqualTo(lines);
            }
        }
        assertThat(all).hasSize(2 * THREADS * lines);
    }

    /** A journal set explicitly is one instance's: a second process is refused, with a message naming the setting. */
    @Test
    void anExplicitJournalLockedByAnotherProcessIsRefusedNamingTheSetting() throws Exception {
        Path journal = dir.resolve("state/app.journal");
        Child holder = start(dir.resolve("app.log"), 0, "hold", "journal=" + journal);
        assertThat(holder.awaitStarted()).isEqualTo(journal.toString());

        LoggerContext context = TestLogback.newContext();
        LockFreeFileAppender refused = TestAppenders.create(context, dir.resolve("other.log"),
                a -> a.setJournal(journal.toString()));
        refused.start();
        assertThat(refused.isStarted()).isFalse();
        assertThat(TestLogback.statusMessages(context, Status.ERROR)).singleElement().satisfies(m -> assertThat(m)
                .contains("Could not start for the appender named \"TEST\"")
                .contains("the journal " + journal + " is in use by another appender or process")
                .contains("the setting journal").contains("leave journal unset"));

        holder.closeInput();
        holder.await("STOPPED");
        holder.awaitExit();
        LockFreeFileAppender after = TestAppenders.start(context, dir.resolve("other.log"),
                a -> a.setJournal(journal.toString()));
        after.stop();
    }

    /**
     * A retention sweep ({@code find -type f -mtime +14 -delete}) removes the lock files of a
     * running instance (they are never written, so their age is that of the instance). The next
     * instance (a deployment) must not take the running one's journal: it takes another slot, and
     * every line of both is there once. Before: it took slot 0, recovered and recreated the live
     * journal, and the running instance's threads died with {@code InternalError}.
     */
    @Test
    void aRetentionSweepOfTheLockFilesHandsNoLiveJournalToTheNextInstance() throws Exception {
        Path log = dir.resolve("app.log");
        Child running = start(log, 0, "write", "ack=" + dir.resolve("ack-0"), "pauseMicros=2000");
        assertThat(running.awaitStarted()).isEqualTo(journal(0).toString());
        running.await("READY");
        running.send("GO");
        TimeUnit.MILLISECONDS.sleep(300);
        // the running instance renews its lock files' times every 200 ms: under load that can fall between the
        // ageing and the sweep (seen in loaded runs), so the sweep is tried until it deletes some
        int swept = 0;
        for (int attempt = 0; attempt < 20 && swept == 0; attempt++) {
            swept = sweepOldLockFiles(dir.resolve(LockFreeFileAppender.JOURNAL_FOLDER));
        }
        assertThat(swept).as("the sweep deleted lock files").isPositive();

        Child deployed = start(log, 1, "write", "lines=4000");
        assertThat(deployed.awaitStarted()).as("the deployment takes a journal of its own").isNotEqualTo(journal(0).toString());
        deployed.await("READY");
        deployed.send("GO");
        assertThat(deployed.await("DONE")).isEqualTo("DONE dropped=0");
        deployed.awaitExit();
        running.send("STOP");
        assertThat(running.await("DONE")).isEqualTo("DONE dropped=0");
        running.awaitExit();

        long[] acks = readAcks(dir.resolve("ack-0"));
        Map<String, Long> counts = checkSequences(read(List.of(log)));
        for (int t = 0; t < THREADS; t++) {
            assertThat(counts.getOrDefault(key(0, t), 0L)).as("running instance, thread %d", t).isEqualTo(acks[t] + 1);
            assertThat(counts.getOrDefault(key(1, t), 0L)).as("deployed instance, thread %d", t).isEqualTo(4000);
        }
    }

    /** Ages the lock files of {@code folder} by 30 days (as if never written since) and runs a real sweep over it. */
    static int sweepOldLockFiles(Path folder) throws Exception {
        FileTime old = FileTime.from(Instant.now().minus(30, ChronoUnit.DAYS));
        try (Stream<Path> files = Files.list(folder)) {
            for (Path file : (Iterable<Path>) files.filter(f -> f.toString().endsWith(".lock"))::iterator) {
                Files.setLastModifiedTime(file, old);
            }
        }
        Process find = new ProcessBuilder("find", folder.toString(), "-type", "f", "-mtime", "+14", "-print", "-delete")
                .redirectErrorStream(true).start();
        String out = new String(find.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(find.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(find.exitValue()).as(out).isZero();
        return (int) out.lines().count();
    }

    /**
     * One log folder reached through a second path (a symbolic link to it; a bind mount is the
     * same): a second appender of the JVM on {@code alias/app.log} is the same file and is refused
     * as such, and the first keeps its lock against other processes. Before: the second failed with
     * {@code OverlappingFileLockException} and its close released the first one's lock, so a
     * process started afterwards took the live journal.
     */
    @Test
    void aSecondAppenderOnTheSameFileThroughASymlinkedFolderIsRefusedAndTheFirstKeepsItsLock() throws Exception {
        Path logs = Files.createDirectories(dir.resolve("logs"));
        Path alias = Files.createSymbolicLink(dir.resolve("alias"), logs);
        LoggerContext context = TestLogback.newContext();
        LockFreeFileAppender first = TestAppenders.start(context, logs.resolve("app.log"), a -> a.setName("FIRST"));
        LockFreeFileAppender second = TestAppenders.create(context, alias.resolve("app.log"), a -> a.setName("SECOND"));
        second.start();
        assertThat(second.isStarted()).isFalse();
        assertThat(TestLogback.statusMessages(context, Status.ERROR)).singleElement().satisfies(m -> assertThat(m)
                .contains("for the appender named \"SECOND\"").contains("already used by the appender named \"FIRST\""));

        Child probe = start(logs.resolve("app.log"), 1, "recover");
        assertThat(probe.awaitStarted()).as("slot 0 is still locked by FIRST")
                .isEqualTo(logs.resolve(LockFreeFileAppender.JOURNAL_FOLDER).resolve("app.log.1.journal").toString());
        probe.await("STOPPED");
        probe.awaitExit();
        for (int n = 0; n < 1000; n++) {
            first.doAppend(TestLogback.event(context, ch.qos.logback.classic.Level.INFO, CrashChild.line(0, 0, n)));
        }
        first.stop();
        assertThat(checkSequences(read(List.of(logs.resolve("app.log"))))).containsExactly(Map.entry(key(0, 0), 1000L));
    }

    /**
     * Two instances write the very same line ({@code tick}; a pattern without timestamps, as in
     * containers). One instance's writes fail (a file-size limit, a full disk) and it is then
     * killed; the other writes more ticks afterwards. Recovery must not take the other's bytes for
     * the failed write: the log holds as many ticks as both acknowledged. Before: each unlanded
     * batch was "found" in the other instance's ticks and lost.
     */
    @Test
    void anUnlandedWriteIsNeverTakenAsLandedBecauseAnotherInstanceWroteTheSameLines() throws Exception {
        Path log = dir.resolve("app.log");
        Child failing = start(log, 0, "write", "ack=" + dir.resolve("ack-0"), "failAfterMillis=300", "pauseMicros=2000",
                "tick=true");
        assertThat(failing.awaitStarted()).isEqualTo(journal(0).toString());
        int lines = 5_000;
        Child other = start(log, 1, "write", "lines=" + lines, "tick=true");
        assertThat(other.awaitStarted()).isEqualTo(journal(1).toString());
        failing.await("READY");
        other.await("READY");
        failing.send("GO");
        TimeUnit.MILLISECONDS.sleep(1_200);
        failing.process.destroyForcibly();
        assertThat(failing.process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        long acknowledged = 0;
        for (long ack : readAcks(dir.resolve("ack-0"))) {
            acknowledged += ack + 1;
        }
        other.send("GO"); // the same line, after the failed write
        recoverAndCountTicks(log, other, acknowledged, lines);
    }

    /**
     * The same, when the kill itself cuts the write off: one instance dies after recording the
     * intent of a write and before making it (a crash point), while another writes the very same
     * tick lines afterwards. Recovery searches the log for the cut write only up to where the other
     * instance's bytes begin ({@link io.github.lockfreelog.diagnostics.CrashPoint}, the write ledger), so
     * it writes the ticks that never landed. Before: the other's ticks were taken for them.
     */
    @Test
    void aWriteCutOffByTheKillIsNeverTakenAsLandedBecauseAnotherInstanceWroteTheSameLines() throws Exception {
        Path log = dir.resolve("app.log");
        Child dying = startWith(List.of(ChildJvm.crashPoint(CrashPoint.BEFORE_LOG_WRITE + ":40")), log, 0,
                "write", "ack=" + dir.resolve("ack-0"), "pauseMicros=2000", "tick=true");
        assertThat(dying.awaitStarted()).isEqualTo(journal(0).toString());
        int lines = 5_000;
        Child other = start(log, 1, "write", "lines=" + lines, "tick=true");
        assertThat(other.awaitStarted()).isEqualTo(journal(1).toString());
        dying.await("READY");
        other.await("READY");
        dying.send("GO");
        assertThat(dying.process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(dying.process.exitValue()).as("halted before its 40th write").isEqualTo(CrashPoint.HALT_STATUS);
        long acknowledged = 0;
        for (long ack : readAcks(dir.resolve("ack-0"))) {
            acknowledged += ack + 1;
        }
        other.send("GO"); // the same line, after the write that never happened
        recoverAndCountTicks(log, other, acknowledged, lines);
    }

    /**
     * One instance dies between a write's intent and the write (a crash point: its entry in the
     * write ledger stays in flight); the other, running, is killed later, right after one of its
     * writes landed and before it recorded it. The next start finds that write in the log and
     * writes none of it again: every line of both once, in order. Before: the dead instance's entry
     * bounded every later write of the survivor at its own size, so the landed write came twice.
     */
    @Test
    void aSurvivorsLandedWriteIsNotWrittenAgainAfterAnotherInstanceDiedMidWrite() throws Exception {
        Path log = dir.resolve("app.log");
        Child dying = startWith(List.of(ChildJvm.crashPoint(CrashPoint.BEFORE_LOG_WRITE + ":10")), log, 0,
                "write", "ack=" + dir.resolve("ack-0"), "pauseMicros=2000");
        assertThat(dying.awaitStarted()).isEqualTo(journal(0).toString());
        Child survivor = startWith(List.of(ChildJvm.crashPoint(CrashPoint.AFTER_LOG_WRITE + ":20")), log, 1,
                "write", "ack=" + dir.resolve("ack-1"), "pauseMicros=2000");
        assertThat(survivor.awaitStarted()).isEqualTo(journal(1).toString());
        dying.await("READY");
        survivor.await("READY");
        dying.send("GO");
        assertThat(dying.process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(dying.process.exitValue()).as("halted before its 10th write").isEqualTo(CrashPoint.HALT_STATUS);
        awaitSearchable(log); // the survivor looks for gone owners a few times a second; before, never
        survivor.send("GO");
        assertThat(survivor.process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(survivor.process.exitValue()).as("halted after its 20th write").isEqualTo(CrashPoint.HALT_STATUS);
        long[][] acks = {readAcks(dir.resolve("ack-0")), readAcks(dir.resolve("ack-1"))};

        Child next = start(log, 2, "recover");
        assertThat(next.awaitStarted()).isEqualTo(journal(0).toString());
        next.await("STOPPED");
        next.awaitExit();
        assertThat(next.recovered).as("the dying instance's unwritten lines were recovered").isPositive();
        checkAcknowledged(checkSequences(read(List.of(log))), acks);
    }

    /**
     * Waits up to 5 s until a write that begins now in the write ledger of {@code log} could be
     * searched for at its recovery (no write of a live instance in flight bounds it); goes on
     * either way, for the test to show what follows.
     */
    private static void awaitSearchable(Path log) throws Exception {
        try (io.github.lockfreelog.journal.WriteLedger ledger = io.github.lockfreelog.journal.WriteLedger.open(log)) {
            io.github.lockfreelog.journal.WriteLedger.Entry probe = ledger.entry(5); // a slot no instance here takes
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (System.nanoTime() < until) {
                long size = Files.size(log);
                probe.begin(1, size);
                boolean searchable = probe.searchEnd(1, size) > size;
                probe.end();
                if (searchable) {
                    return;
                }
                TimeUnit.MILLISECONDS.sleep(20);
            }
        }
    }

    /**
     * Once {@code other} has written its {@code lines} ticks a thread, recovers slot 0 (the
     * instance that died having {@code acknowledged} ticks) and checks that the log holds a tick
     * for each one acknowledged by either: none lost, and at most one more a thread (appended, not
     * yet acknowledged when it died).
     */
    private void recoverAndCountTicks(Path log, Child other, long acknowledged, int lines) throws Exception {
        assertThat(other.await("DONE")).isEqualTo("DONE dropped=0");
        other.awaitExit();
        Child recovering = start(log, 2, "recover");
        assertThat(recovering.awaitStarted()).isEqualTo(journal(0).toString());
        recovering.await("STOPPED");
        recovering.awaitExit();

        List<String> all = read(List.of(log));
        long ticks = all.stream().filter(line -> line.equals("tick")).count();
        assertThat(all).as("only ticks and the recovery report").allMatch(l -> l.equals("tick") || l.startsWith("Recovered "));
        long expected = acknowledged + (long) THREADS * lines;
        assertThat(expected - ticks).as("ticks lost (%d acknowledged by the instance that died)", acknowledged)
                .isLessThanOrEqualTo(0);
        assertThat(ticks - expected).as("ticks beyond those acknowledged: at most one appended, unacknowledged, per thread")
                .isLessThanOrEqualTo(THREADS);
        assertThat(recovering.recovered).as("the dead instance's unwritten ticks were recovered").isPositive();
    }

    /**
     * The log folder is deleted while an instance runs ({@code rm -rf logs}, journal and all):
     * folder, file and journal come back, and a kill -9 afterwards loses nothing acknowledged
     * since the deletion. Before: the folder never came back, the drainer counted events as
     * written into the unlinked file, and the journal was gone with the folder.
     */
    @Test
    void afterTheLogFolderIsDeletedAKillLosesNothingAcknowledgedSinceTheJournalCameBack() throws Exception {
        Path logs = dir.resolve("logs");
        Path log = logs.resolve("app.log");
        Child running = start(log, 0, "write", "ack=" + dir.resolve("ack-0"), "pauseMicros=2000");
        running.awaitStarted();
        running.await("READY");
        running.send("GO");
        TimeUnit.MILLISECONDS.sleep(300);
        LogFolderTest.deleteTree(logs);
        long[] afterDelete = readAcks(dir.resolve("ack-0"));
        Path journal = logs.resolve(LockFreeFileAppender.JOURNAL_FOLDER).resolve("app.log.journal");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
        while (!(Files.isRegularFile(journal) && Files.size(journal) > 0 && Files.isRegularFile(log))) {
            assertThat(System.nanoTime() - deadline).as("folder, log and journal came back within 3 s").isNegative();
            TimeUnit.MILLISECONDS.sleep(10);
        }
        TimeUnit.MILLISECONDS.sleep(300);
        running.process.destroyForcibly();
        assertThat(running.process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        long[] acks = readAcks(dir.resolve("ack-0"));

        Child recovering = start(log, 1, "recover");
        recovering.awaitStarted();
        recovering.await("STOPPED");
        recovering.awaitExit();
        Map<String, long[]> ranges = ranges(read(List.of(log)));
        for (int t = 0; t < THREADS; t++) {
            long[] range = ranges.get(key(0, t));
            assertThat(range).as("thread %d has lines in the new file", t).isNotNull();
            // a writer notes a line once its append returned: the one after the noted one may be older
            // than the deletion, and gone with the deleted file
            assertThat(range[0]).as("thread %d: every line acknowledged after the deletion", t)
                    .isLessThanOrEqualTo(afterDelete[t] + 2);
            assertThat(range[1]).as("thread %d: up to the last acknowledged one", t).isGreaterThanOrEqualTo(acks[t]);
        }
    }

    /**
     * A journal rebuilt after its file was deleted takes the first free slot, which may hold the
     * journal of an instance that was killed: it is recovered into the log first, never made anew
     * over those events. Here slot 0 is a live engine's, slot 1 a killed child's full journal (it
     * could not write its log), slot 2 the engine whose journal is deleted. Before: the rebuilt
     * journal truncated the killed instance's events.
     */
    @Test
    void aJournalRebuiltInAKilledInstancesSlotRecoversItsEventsFirst() throws Exception {
        Path log = dir.resolve("app.log");
        io.github.lockfreelog.engine.EngineConfig config = new io.github.lockfreelog.engine.EngineConfig(
                "engine", log, journal(0), 3, 64 * 1024, 16 * 1024, io.github.lockfreelog.engine.Backpressure.BLOCK,
                TimeUnit.SECONDS.toNanos(1), TimeUnit.MILLISECONDS.toNanos(20), TimeUnit.MILLISECONDS.toNanos(500),
                TimeUnit.SECONDS.toNanos(10), 16, io.github.lockfreelog.sink.LogTarget.FILE);
        LoggerContext context = TestLogback.newContext();
        var engines = new ArrayList<io.github.lockfreelog.engine.JournalEngine>();
        long acknowledged;
        try {
            for (int i = 0; i < 3; i++) {
                engines.add(io.github.lockfreelog.engine.JournalEngine.start(config, TestAppenders.status(context),
                        java.util.function.UnaryOperator.identity()));
            }
            engines.remove(1).stop(); // slot 1 free and empty, for the child to take
            CrashRecoveryTest.Child killed = CrashRecoveryTest.Child.start(log, dir.resolve("ack-7"), 7, "64KB",
                    "undrained", null);
            killed.await("FILLED");
            assertThat(killed.process.waitFor(30, TimeUnit.SECONDS)).isTrue();
            acknowledged = readAcks(dir.resolve("ack-7"))[0];
            assertThat(Files.size(journal(1))).as("the killed child's full journal").isPositive();

            Files.delete(journal(2)); // the third engine's journal, gone from disk
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
            while (!engines.get(1).statistics().journal().equals(journal(1).toString())) {
                assertThat(System.nanoTime() - deadline).as("rebuilt in slot 1 within 3 s").isNegative();
                TimeUnit.MILLISECONDS.sleep(20);
            }
            assertThat(engines.get(1).statistics().recoveredFrames()).as("recovered before it was made anew")
                    .isEqualTo(acknowledged + 1);
        } finally {
            engines.forEach(io.github.lockfreelog.engine.JournalEngine::stop);
        }
        Map<String, long[]> ranges = ranges(read(List.of(log)));
        assertThat(ranges.get(key(7, 0))).as("every line of the killed child, once").containsExactly(0, acknowledged);
    }

    /**
     * For lines that start part way (a file that lost its beginning): checks that each (instance,
     * thread) has one run of consecutive numbers, once each, and returns its first and last.
     */
    private static Map<String, long[]> ranges(List<String> lines) {
        Map<String, long[]> ranges = new HashMap<>();
        for (String line : lines) {
            if (line.startsWith("Recovered ")) {
                continue;
            }
            String[] parts = line.split(" ");
            int instance = Integer.parseInt(parts[0].substring(1));
            int thread = Integer.parseInt(parts[1].substring(1));
            long n = Long.parseLong(parts[2]);
            assertThat(line).as("intact line").isEqualTo(CrashChild.line(instance, thread, n));
            long[] range = ranges.computeIfAbsent(key(instance, thread), k -> new long[] {n, n - 1});
            assertThat(n).as("%s: consecutive, once each", key(instance, thread)).isEqualTo(range[1] + 1);
            range[1] = n;
        }
        return ranges;
    }

    // ---- checks ---------------------------------------------------------------------------------

    private static String key(int instance, int thread) {
        return instance + "/" + thread;
    }

    /** Reads the files in order: no NUL byte, each ends with a whole line; returns their lines. */
    private static List<String> read(List<Path> files) throws IOException {
        List<String> lines = new ArrayList<>();
        for (Path file : files) {
            byte[] content = file.toString().endsWith(".gz") ? RollingTest.gunzip(file) : Files.readAllBytes(file);
            assertThat(content).as("no NUL byte in %s", file).doesNotContain((byte) 0);
            if (content.length > 0) {
                assertThat(content[content.length - 1]).as("%s ends with a whole line", file).isEqualTo((byte) '\n');
                lines.addAll(List.of(new String(content, StandardCharsets.US_ASCII).split("\n")));
            }
        }
        return lines;
    }

    /**
     * Reads a log that an instance is still writing: a reader may see that instance's write in progress (the kernel
     * copies a write into the page cache while reads go on), so what follows the last line end is left to the next
     * read; no NUL byte. The file ends with a whole line once its writers stopped ({@link #read}).
     */
    private static List<String> readWhileWritten(Path file) throws IOException {
        byte[] content = Files.readAllBytes(file);
        assertThat(content).as("no NUL byte in %s", file).doesNotContain((byte) 0);
        int end = content.length;
        while (end > 0 && content[end - 1] != '\n') {
            end--;
        }
        return end == 0 ? List.of() : List.of(new String(content, 0, end, StandardCharsets.US_ASCII).split("\n"));
    }

    /**
     * Checks that every line is intact and that each (instance, thread) numbers its lines 0, 1, 2
     * ... with none missing, none twice, in order; returns how many each wrote.
     */
    private static Map<String, Long> checkSequences(List<String> lines) {
        return checkSequences(lines, -1, new ArrayList<>());
    }

    /**
     * As {@link #checkSequences(List)}, but lines of instance {@code killed} that a kill cut short
     * are collected in {@code cut} instead of failing the check: each must be the start of a whole
     * line of that instance found later in the file (or of the next one a thread would write).
     */
    private static Map<String, Long> checkSequences(List<String> lines, int killed, List<String> cut) {
        return checkSequences(lines, killed, cut, null);
    }

    /** Both instances were killed: a cut line of either is collected, as by {@link #checkSequences(List, int, List)}. */
    private static final int BOTH = -2;

    /**
     * As {@link #checkSequences(List, int, List)}; with {@code repeated} not {@code null}, a whole line
     * that comes again (a write that raced with another instance's, written again at recovery, as
     * {@code WriteLedger} says) is collected there instead of failing the check. A line missing still fails it.
     */
    private static Map<String, Long> checkSequences(List<String> lines, int killed, List<String> cut,
            List<String> repeated) {
        Map<String, Long> next = new HashMap<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.startsWith("Recovered ")) {
                assertThat(line).as("a start's report of what it recovered").matches(RECOVERY_REPORT);
                continue;
            }
            if (killed != -1 && line.isEmpty()) {
                cut.add(line); // a newline that ended a line another write had just ended: the window README names
                continue;
            }
            List<String> rest = lines.subList(i + 1, lines.size());
            if (killed != -1 && !isIntact(line) && isCutLine(killed, line, rest, next)) {
                cut.add(line);
                continue;
            }
            int followed = killed == -1 || isIntact(line) ? -1 : wholeLineAfterCut(line);
            if (followed > 0 && isCutLine(killed, line.substring(0, followed), rest, next)) {
                // the window operations.md names: a write that began in the microseconds in which the kill cut
                // another follows the cut part on its line; the cut event is written again whole at recovery
                cut.add(line.substring(0, followed));
                line = line.substring(followed);
            }
            assertThat(line).as("intact line").matches(INTACT);
            String[] parts = line.split(" ");
            int instance = Integer.parseInt(parts[0].substring(1));
            int thread = Integer.parseInt(parts[1].substring(1));
            long n = Long.parseLong(parts[2]);
            assertThat(line).as("intact line").isEqualTo(CrashChild.line(instance, thread, n));
            String key = key(instance, thread);
            long expected = next.getOrDefault(key, 0L);
            if (repeated != null && n < expected) {
                repeated.add(line);
                continue;
            }
            assertThat(n).as("%s: exactly once, in order", key).isEqualTo(expected);
            next.put(key, expected + 1);
        }
        return next;
    }

    private static final String INTACT = "R\\d+ T\\d+ \\d+ check=\\d+ \\.+";

    private static boolean isIntact(String line) {
        if (!line.matches(INTACT)) {
            return false;
        }
        String[] parts = line.split(" ");
        return line.equals(CrashChild.line(Integer.parseInt(parts[0].substring(1)), Integer.parseInt(parts[1].substring(1)),
                Long.parseLong(parts[2])));
    }

    /** Every line that instance {@code i}'s thread {@code t} had acknowledged ({@code acks[i][t]}), for both instances. */
    private static void checkAcknowledged(Map<String, Long> counts, long[][] acks) {
        for (int instance = 0; instance < 2; instance++) {
            for (int t = 0; t < THREADS; t++) {
                assertThat(counts.getOrDefault(key(instance, t), 0L)).as("instance %d thread %d", instance, t)
                        .isGreaterThanOrEqualTo(acks[instance][t] + 1);
            }
        }
    }

    /** Every line of the survivor (instance 0) once, every acknowledged line of the killed one (instance 1). */
    private static void checkSurvivorAndKilled(Map<String, Long> counts, long[] survivorAcks, long[] killedAcks) {
        for (int t = 0; t < THREADS; t++) {
            assertThat(counts.getOrDefault(key(0, t), 0L)).as("survivor thread %d: every line, once", t)
                    .isEqualTo(survivorAcks[t] + 1);
            assertThat(counts.getOrDefault(key(1, t), 0L)).as("killed thread %d: every acknowledged line", t)
                    .isGreaterThanOrEqualTo(killedAcks[t] + 1);
        }
    }

    /**
     * Whether {@code line} is the first part of a line of instance {@code instance} that follows
     * whole in {@code later}, or of the next line one of its threads would write ({@code next}).
     */
    /** Whether {@code line} is the cut part of a line of the killed instance ({@link #BOTH}: of either). */
    private static boolean isCutLine(int killed, String line, List<String> later, Map<String, Long> next) {
        return killed == BOTH ? isCutLineOf(0, line, later, next) || isCutLineOf(1, line, later, next)
                : isCutLineOf(killed, line, later, next);
    }

    /** Where a whole line begins after a cut part on the same line, or -1 when it holds none. */
    private static int wholeLineAfterCut(String line) {
        for (int at = line.indexOf('R', 1); at > 0; at = line.indexOf('R', at + 1)) {
            if (isIntact(line.substring(at))) {
                return at;
            }
        }
        return -1;
    }

    private static boolean isCutLineOf(int instance, String line, List<String> later, Map<String, Long> next) {
        if (line.isEmpty() || !CrashChild.line(instance, 0, 0).startsWith(line.substring(0, Math.min(line.length(), 2)))) {
            return false;
        }
        for (int t = 0; t < THREADS; t++) {
            String whole = CrashChild.line(instance, t, next.getOrDefault(key(instance, t), 0L));
            if (whole.startsWith(line) && !whole.equals(line)) {
                return true;
            }
        }
        return later.stream().anyMatch(l -> l.startsWith(line) && !l.equals(line));
    }

    private static final String RECOVERY_REPORT =
            "Recovered [1-9]\\d* event\\(s\\) from the journal\\(s\\) of an unclean stop.*; journal in use: .+";

    /** The recovery reports among the lines: one for each start that recovered something. */
    private static long recoveryReports(List<String> lines) {
        return lines.stream().filter(line -> line.startsWith("Recovered ")).count();
    }

    /** How often consecutive lines come from different instances. */
    private static int switches(List<String> lines) {
        int switches = 0;
        for (int i = 1; i < lines.size(); i++) {
            if (lines.get(i).charAt(1) != lines.get(i - 1).charAt(1)) {
                switches++;
            }
        }
        return switches;
    }

    private static final Pattern ARCHIVE = Pattern.compile("app\\.(\\d{4}-\\d{2}-\\d{2})\\.(\\d+)\\.log\\.gz");

    /** The archives in the order they were rolled: by date, then index. */
    private List<Path> archives() throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> ARCHIVE.matcher(p.getFileName().toString()).matches())
                    .sorted(Comparator.comparing((Path p) -> group(p, 1)).thenComparingInt(p -> Integer.parseInt(group(p, 2))))
                    .toList();
        }
    }

    private static String group(Path archive, int group) {
        Matcher m = ARCHIVE.matcher(archive.getFileName().toString());
        assertThat(m.matches()).isTrue();
        return m.group(group);
    }

    private static long[] readAcks(Path ackFile) throws IOException {
        return AckFile.read(ackFile, THREADS);
    }

    // ---- child processes --------------------------------------------------------------------------

    private Child start(Path log, int instance, String mode, String... options) throws IOException {
        return startWith(List.of(), log, instance, mode, options);
    }

    /** Starts a child with the JVM options {@code jvm} (a crash point, say) before the rest. */
    private Child startWith(List<String> jvm, Path log, int instance, String mode, String... options) throws IOException {
        List<String> jvmArgs = new ArrayList<>(List.of("-Xmx128m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-Xshare:auto"));
        jvmArgs.addAll(jvm);
        List<String> args = new ArrayList<>(List.of(log.toString(), Integer.toString(instance), mode));
        args.addAll(List.of(options));
        Child child = new Child(ChildJvm.start(SharedLogChild.class.getName(), jvmArgs, args));
        children.add(child);
        return child;
    }

    /** A {@link SharedLogChild} in a {@link ChildJvm}, and what its start line said it recovered. */
    static final class Child {
        final ChildJvm jvm;
        final Process process;
        long recovered = -1;

        Child(ChildJvm jvm) {
            this.jvm = jvm;
            this.process = jvm.process;
        }

        /** Waits for {@code STARTED}; returns the journal the child uses, as its statistics name it. */
        String awaitStarted() throws InterruptedException {
            String line = await("STARTED");
            Matcher m = Pattern.compile("STARTED journal=(.*) recovered=(\\d+)").matcher(line);
            assertThat(m.matches()).as(line).isTrue();
            recovered = Long.parseLong(m.group(2));
            return m.group(1);
        }

        String await(String prefix) throws InterruptedException {
            return jvm.await(prefix);
        }

        void send(String command) throws IOException {
            jvm.send(command);
        }

        void closeInput() throws IOException {
            jvm.closeInput();
        }

        void awaitExit() throws IOException, InterruptedException {
            jvm.awaitCleanExit(30);
        }
    }
}
