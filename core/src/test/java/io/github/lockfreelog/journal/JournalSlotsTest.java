package io.github.lockfreelog.journal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIOException;

import io.github.lockfreelog.engine.Backpressure;
import io.github.lockfreelog.engine.EngineConfig;
import io.github.lockfreelog.engine.JournalEngine;
import io.github.lockfreelog.files.Mounts;
import io.github.lockfreelog.sink.LogSink;
import io.github.lockfreelog.testing.GatedSink;
import io.github.lockfreelog.testing.TestStatus;
import io.github.lockfreelog.term.JournalFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Engines of one JVM stand in here for instances writing one log file: the lock of a journal
 * refuses another engine of this JVM as it refuses another process (child JVMs play the
 * processes in {@code SharedLogFileTest}).
 */
class JournalSlotsTest {

    @TempDir
    Path dir;

    private final List<JournalEngine> engines = new ArrayList<>();

    @AfterEach
    void stopAll() {
        engines.forEach(JournalEngine::stop);
    }

    private EngineConfig config(String name, Path log, int slots) {
        return EngineConfig.builder().name(name).logFile(log).journalFile(dir.resolve(".lockfreelog/app.log.journal"))
                .buffers(3, 64 * 1024).maxEventSize(16 * 1024).backpressure(Backpressure.BLOCK)
                .maxBlock(10, TimeUnit.SECONDS).flushInterval(20, TimeUnit.MILLISECONDS)
                .unblockTimeout(10, TimeUnit.SECONDS).stopTimeout(10, TimeUnit.SECONDS).journalSlots(slots).build();
    }

    private JournalEngine start(EngineConfig config, UnaryOperator<LogSink> sink) throws IOException {
        JournalEngine engine = JournalEngine.start(config, TestStatus.QUIET, sink);
        engines.add(engine);
        return engine;
    }

    private static byte[] line(String text) {
        return (text + "\n").getBytes(StandardCharsets.US_ASCII);
    }

    @Test
    void slotsAreNamedAfterTheFirstJournal() {
        Path first = dir.resolve(".lockfreelog/app.log.journal");
        assertThat(JournalSlots.slot(first, 0)).isEqualTo(first);
        assertThat(JournalSlots.slot(first, 1)).isEqualTo(dir.resolve(".lockfreelog/app.log.1.journal"));
        assertThat(JournalSlots.slot(first, 15)).isEqualTo(dir.resolve(".lockfreelog/app.log.15.journal"));
        assertThat(JournalSlots.slot(dir.resolve("custom"), 2)).isEqualTo(dir.resolve("custom.2"));
    }

    /**
     * The second engine takes the next slot and leaves the first one's journal alone, although it
     * holds events not yet written (its drainer is held back): every line is in the log once.
     */
    @Test
    void aSecondEngineTakesTheNextSlotAndLeavesTheFirstOnesJournalAlone() throws Exception {
        Path log = dir.resolve("app.log");
        GatedSink[] gate = new GatedSink[1];
        JournalEngine first = start(config("first", log, 16), s -> gate[0] = new GatedSink(s));
        for (int i = 0; i < 100; i++) {
            first.append(line("first " + i), false);
        }
        JournalEngine second = start(config("second", log, 16), UnaryOperator.identity());
        for (int i = 0; i < 100; i++) {
            second.append(line("second " + i), false);
        }
        assertThat(first.statistics().journal()).isEqualTo(dir.resolve(".lockfreelog/app.log.journal").toString());
        assertThat(second.statistics().journal()).isEqualTo(dir.resolve(".lockfreelog/app.log.1.journal").toString());
        assertThat(second.statistics().recoveredFrames()).isZero();
        gate[0].open();
        first.stop();
        second.stop();
        List<String> lines = Files.readAllLines(log);
        assertThat(lines).hasSize(200);
        for (String who : List.of("first", "second")) {
            assertThat(lines.stream().filter(l -> l.startsWith(who + " ")))
                    .containsExactlyElementsOf(numbered(who, 100));
        }
    }

    /**
     * A journal left in a free slot (a copy of a running engine's journal, taken while its drainer
     * was held back in a write: what a process killed at that moment leaves) is recovered into the
     * log by the next engine that starts, although that engine takes another slot, and deleted.
     */
    @Test
    void aJournalLeftInAFreeSlotIsRecoveredOnceByTheNextStartAndDeleted() throws Exception {
        Path elsewhere = dir.resolve("other/app.log");
        GatedSink[] gate = new GatedSink[1];
        EngineConfig crashed = EngineConfig.builder().name("crashed").logFile(elsewhere).journalFile(dir.resolve("other/crashed.journal"))
                .buffers(3, 64 * 1024).maxEventSize(16 * 1024).backpressure(Backpressure.BLOCK)
                .maxBlock(10, TimeUnit.SECONDS).flushInterval(20, TimeUnit.MILLISECONDS)
                .unblockTimeout(10, TimeUnit.SECONDS).stopTimeout(10, TimeUnit.SECONDS).build();
        JournalEngine running = start(crashed, s -> gate[0] = new GatedSink(s));
        for (int i = 0; i < 300; i++) {
            running.append(line("left " + i), false);
        }
        assertThat(gate[0].firstWriteArrived.await(10, TimeUnit.SECONDS)).isTrue();
        Path leftover = dir.resolve(".lockfreelog/app.log.3.journal");
        Files.createDirectories(leftover.getParent());
        Files.copy(crashed.journalFile(), leftover);
        gate[0].open();

        Path log = dir.resolve("app.log");
        Files.writeString(log, "already there\n");
        JournalEngine next = start(config("next", log, 16), UnaryOperator.identity());
        assertThat(next.statistics().journal()).as("the first free slot").endsWith("app.log.journal");
        assertThat(next.statistics().recoveredFrames()).isEqualTo(300);
        assertThat(leftover).doesNotExist();
        next.append(line("new"), false);
        next.stop();
        List<String> expected = new ArrayList<>();
        expected.add("already there");
        expected.addAll(numbered("left", 300));
        expected.add("new");
        assertThat(Files.readAllLines(log)).containsExactlyElementsOf(expected);

        // a later start finds nothing left to recover
        JournalEngine again = start(config("again", log, 16), UnaryOperator.identity());
        assertThat(again.statistics().recoveredFrames()).isZero();
    }

    @Test
    void whenEverySlotIsInUseTheStartFailsNamingTheFolder() throws Exception {
        Path log = dir.resolve("app.log");
        start(config("a", log, 2), UnaryOperator.identity());
        start(config("b", log, 2), UnaryOperator.identity());
        assertThatIOException().isThrownBy(() -> start(config("c", log, 2), UnaryOperator.identity()))
                .withMessageContaining("all 2 journals of this log file in " + dir.resolve(".lockfreelog"))
                .withMessageContaining("app.log.journal to app.log.1.journal");
    }

    @Test
    void aFixedJournalInUseIsRefusedNamingTheSetting() throws Exception {
        Path log = dir.resolve("app.log");
        start(config("a", log, 1), UnaryOperator.identity());
        assertThatIOException().isThrownBy(() -> start(config("b", log, 1), UnaryOperator.identity()))
                .withMessageContaining("is in use by another appender or process")
                .withMessageContaining("the setting journal");
    }

    /**
     * The engine itself refuses a journal folder on a file system that several hosts may mount, for
     * whoever starts it (a console appender's default journal in java.io.tmpdir, a replacement
     * journal), naming the folder and its type; nothing is created there.
     */
    @Test
    void aJournalOnAFileSystemThatHostsShareIsRefused() throws Exception {
        Path log = dir.resolve("app.log");
        Path folder = dir.resolve(".lockfreelog");
        Mounts.Restore fake = Mounts.replaceProbe(new Mounts.Probe() {
            @Override
            public Mounts.Mount mount(Path existing) {
                return new Mounts.Mount(existing, "nfs4", true, true);
            }
        });
        try {
            assertThatIOException().isThrownBy(() -> start(config("a", log, 2), UnaryOperator.identity()))
                    .withMessageContaining("the folder " + folder + " is on nfs4")
                    .withMessageContaining("set journal to a path on a local disk");
        } finally {
            fake.close();
        }
        assertThat(folder).doesNotExist();
    }

    /**
     * Whether a write that an instance of slot 2 begins now, against the log's present size, could
     * be searched for at its recovery: not while another write it must stay below is in flight.
     */
    private static boolean searchableFromNow(WriteLedger ledger, Path log) throws IOException {
        WriteLedger.Entry probe = ledger.entry(2);
        long size = Files.size(log);
        probe.begin(1, size);
        try {
            return probe.searchEnd(1, size) > size;
        } finally {
            probe.end();
        }
    }

    /**
     * An instance killed during a write (its entry left in flight, its slot's journal left behind
     * and unlocked) while another keeps running: the running one finds its owner gone, and from
     * then on the writes of every instance can be searched for again at their recovery, while the
     * dead write's own search still ends where the others' bytes begin. Before: every later write
     * was bounded at its own size (nothing to search: a write that had landed was written again).
     */
    @Test
    void aWriteLeftInFlightByAKilledInstanceStopsBoundingTheOthersOnceItsSlotIsFoundFree() throws Exception {
        Path log = dir.resolve("app.log");
        JournalEngine survivor = start(config("survivor", log, 16), UnaryOperator.identity());
        survivor.append(line("before"), false);
        org.awaitility.Awaitility.await().atMost(10, TimeUnit.SECONDS).until(() -> Files.size(log) > 0);
        Path first = dir.resolve(".lockfreelog/app.log.journal");
        Files.write(JournalSlots.slot(first, 1), new byte[0]); // what the killed instance left, no longer locked
        try (WriteLedger ledger = WriteLedger.open(log)) {
            long deadFrom = Files.size(log);
            ledger.entry(1).begin(7, deadFrom); // its last write, cut off by the kill
            assertThat(searchableFromNow(ledger, log)).as("bounded while its owner may live").isFalse();

            org.awaitility.Awaitility.await().atMost(10, TimeUnit.SECONDS).until(() -> searchableFromNow(ledger, log));
            for (int i = 0; i < 100; i++) {
                survivor.append(line("after " + i), false);
            }
            org.awaitility.Awaitility.await().atMost(10, TimeUnit.SECONDS)
                    .until(() -> Files.readAllLines(log).size() == 101);
            assertThat(searchableFromNow(ledger, log)).isTrue();
            assertThat(ledger.entry(1).searchEnd(7, deadFrom)).as("the dead write's search ends before the others' bytes")
                    .isEqualTo(deadFrom);
        }
        survivor.stop();
        assertThat(Files.readAllLines(log)).containsExactlyElementsOf(withBefore(numbered("after", 100)));
    }

    /** A write in flight whose instance lives (its drainer held in the write) bounds the others as long as it lasts. */
    @Test
    void aWriteInFlightOfALiveInstanceKeepsBoundingTheOthers() throws Exception {
        Path log = dir.resolve("app.log");
        GatedSink[] gate = new GatedSink[1];
        JournalEngine stuck = start(config("stuck", log, 16), s -> gate[0] = new GatedSink(s));
        JournalEngine other = start(config("other", log, 16), UnaryOperator.identity());
        stuck.append(line("stuck"), false);
        assertThat(gate[0].firstWriteArrived.await(10, TimeUnit.SECONDS)).isTrue();
        try (WriteLedger ledger = WriteLedger.open(log)) {
            other.append(line("other"), false);
            org.awaitility.Awaitility.await().during(1, TimeUnit.SECONDS).atMost(3, TimeUnit.SECONDS)
                    .until(() -> !searchableFromNow(ledger, log));
        }
        gate[0].open();
        stuck.stop();
        other.stop();
        assertThat(Files.readAllLines(log)).containsExactlyInAnyOrder("stuck", "other");
    }

    /**
     * A start that recovers the journal of a killed instance's slot (its last write had landed,
     * so recovery writes nothing) settles that write in the ledger too. Before: it stayed in flight
     * until another instance took that slot, and bounded every other write meanwhile.
     */
    @Test
    void recoveringAKilledInstancesJournalSettlesItsWriteInTheLedger() throws Exception {
        Path log = dir.resolve("app.log");
        Path first = dir.resolve(".lockfreelog/app.log.journal");
        JournalFiles.create(JournalSlots.slot(first, 1), 3, 64 * 1024).close(); // no event in it
        Files.write(log, line("landed"));
        try (WriteLedger ledger = WriteLedger.open(log)) {
            ledger.entry(1).begin(7, 0);
            assertThat(searchableFromNow(ledger, log)).isFalse();
            JournalEngine next = start(config("next", log, 16), UnaryOperator.identity());
            assertThat(next.statistics().journal()).isEqualTo(first.toString());
            assertThat(JournalSlots.slot(first, 1)).doesNotExist(); // recovered and deleted
            assertThat(searchableFromNow(ledger, log)).isTrue();
        }
    }

    private static List<String> withBefore(List<String> lines) {
        List<String> all = new ArrayList<>();
        all.add("before");
        all.addAll(lines);
        return all;
    }

    private static List<String> numbered(String prefix, int count) {
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            lines.add(prefix + " " + i);
        }
        return lines;
    }
}
