package io.github.lockfreelog.recovery;

import static io.github.lockfreelog.term.JournalDescriptor.HEADER_LENGTH;
import static io.github.lockfreelog.term.JournalDescriptor.TYPE_DATA;
import static io.github.lockfreelog.term.JournalDescriptor.align;
import static io.github.lockfreelog.term.JournalDescriptor.header;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.lockfreelog.journal.JournalLock;
import io.github.lockfreelog.records.RecordRecovery;
import io.github.lockfreelog.sink.FileLogSink;
import io.github.lockfreelog.sink.JournalPosition;
import io.github.lockfreelog.sink.RecordBatch;
import io.github.lockfreelog.sink.RecordSink;
import io.github.lockfreelog.term.Journal;
import io.github.lockfreelog.term.JournalFiles;
import io.github.lockfreelog.testing.TestStatus;
import io.github.lockfreelog.testsupport.Allocations;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Journals made by hand, as someone who may write the journal's folder could make them, with buffers and frames as
 * large as the format allows: recovery allocates what its own bounds say (a batch, a part of the log file searched),
 * never what the journal says (the size of a frame or of a write), and a journal whose contents no write of
 * lockfreelog's could have left is moved aside, the start going on.
 */
class CraftedJournalTest {

    private static final int MIB = 1 << 20;

    @TempDir
    Path dir;

    private final TestStatus.Recording status = TestStatus.recording();

    @Test
    void aLargeEventWhoseWriteACrashCutIsFinishedWithoutAllocatingItsSize() throws Exception {
        byte[] event = lines(12 * MIB);
        Path journalFile = dir.resolve("app.log.journal");
        try (Journal journal = craft(journalFile, 16 * MIB, event)) {
            journal.writeIntent(1, 0, 0, align(HEADER_LENGTH + event.length), 0, 0); // the write the crash cut
        }
        Path log = dir.resolve("app.log");
        Files.write(log, Arrays.copyOf(event, 5 * MIB)); // what of it landed
        Recovery.Result[] result = new Recovery.Result[1];
        long allocated = Allocations.allocatedBy(() -> result[0] = recoverInto(journalFile, log), 1);
        assertThat(status.problems()).isEmpty();
        assertThat(result[0].recoveredFrames()).isEqualTo(1);
        assertThat(Files.mismatch(log, write(dir.resolve("expected"), event))).as("the event once, whole").isEqualTo(-1);
        assertThat(allocated).as("bytes allocated by the recovery of a 12 MiB event").isLessThan(6L * MIB);
    }

    @Test
    void aLargeEventIsReplayedFromTheJournalWithoutAllocatingItsSize() throws Exception {
        byte[] event = lines(12 * MIB);
        Path journalFile = dir.resolve("app.log.journal");
        craft(journalFile, 16 * MIB, event).close();
        Path log = dir.resolve("app.log");
        Recovery.Result[] result = new Recovery.Result[1];
        long allocated = Allocations.allocatedBy(() -> result[0] = recoverInto(journalFile, log), 1);
        assertThat(result[0].recoveredFrames()).isEqualTo(1);
        assertThat(Files.mismatch(log, write(dir.resolve("expected"), event))).isEqualTo(-1);
        assertThat(allocated).isLessThan(4L * MIB);
    }

    @Test
    void anInterruptedWriteOfSeveralEventsLargerThanAnyWriteGathersMovesTheJournalAside() throws Exception {
        byte[] event = lines(600 * 1024);
        Path journalFile = dir.resolve("app.log.journal");
        try (Journal journal = craft(journalFile, 4 * MIB, event, event, event)) {
            journal.writeIntent(1, 0, 0, 3 * align(HEADER_LENGTH + event.length), 0, 0);
        }
        Path log = dir.resolve("app.log");
        Recovery.Result result = recoverInto(journalFile, log);
        assertThat(result.recoveredFrames()).isZero();
        assertThat(status.problems()).singleElement().satisfies(m -> assertThat(m).contains("journal " + journalFile
                + " could not be read to its end").contains("more than one write of several events gathers")
                .contains("moved it to " + journalFile + ".bad-").contains("started a fresh journal"));
        assertThat(Files.size(journalFile)).as("a fresh journal at its name").isZero();
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString())).anyMatch(n -> n.startsWith("app.log.journal.bad-"));
        }
    }

    @Test
    void aLargeEventIsDeliveredToARecordSinkWithoutAllocatingItsSize() throws Exception {
        byte[] event = lines(20 * MIB); // more than a delivery gathers (16 MiB): delivered alone
        Path journalFile = dir.resolve("app.journal");
        craft(journalFile, 32 * MIB, event).close();
        CRC32 expected = new CRC32();
        expected.update(event);
        CheckingSink sink = new CheckingSink();
        Recovery.Result[] result = new Recovery.Result[1];
        JournalLock hold = JournalLock.tryAcquire(journalFile, status);
        long allocated;
        try {
            allocated = Allocations.allocatedBy(() -> {
                try {
                    result[0] = RecordRecovery.recover(hold, sink, status);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }, 1);
        } finally {
            hold.close();
        }
        assertThat(status.problems()).isEmpty();
        assertThat(result[0].recoveredFrames()).isEqualTo(1);
        assertThat(sink.sizes).containsExactly(event.length);
        assertThat(sink.checksums).containsExactly(expected.getValue());
        // its batch (16 MiB, the most a delivery gathers) and little else
        assertThat(allocated).as("bytes allocated by the recovery of a 20 MiB event").isLessThan(18L * MIB);
    }

    /** A journal of two buffers of {@code bufferSize} whose term 0 holds {@code events}, none of them drained. */
    private static Journal craft(Path file, int bufferSize, byte[]... events) throws IOException {
        Journal journal = JournalFiles.create(file, 2, bufferSize);
        int base = journal.bufferBase(0);
        int at = 0;
        for (byte[] event : events) {
            int length = HEADER_LENGTH + event.length;
            journal.putBytes(base + at + HEADER_LENGTH, event, 0, event.length);
            journal.putLongVolatile(base + at, header(length, TYPE_DATA));
            at += align(length);
        }
        journal.getAndAddRawTail(0, at);
        return journal;
    }

    private Recovery.Result recoverInto(Path journalFile, Path log) {
        try {
            JournalLock hold = JournalLock.tryAcquire(journalFile, status);
            try {
                FileLogSink sink = new FileLogSink(log, status);
                try {
                    return Recovery.recover(hold, sink, null, status);
                } finally {
                    sink.close();
                }
            } finally {
                hold.close();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code length} bytes of numbered lines, the last one cut to fit and ended by a newline. */
    private static byte[] lines(int length) {
        byte[] bytes = new byte[length];
        int at = 0;
        for (int i = 0; at < length; i++) {
            byte[] line = ("line " + i + " of a large event\n").getBytes(StandardCharsets.US_ASCII);
            int n = Math.min(line.length, length - at);
            System.arraycopy(line, 0, bytes, at, n);
            at += n;
        }
        bytes[length - 1] = '\n';
        return bytes;
    }

    private static Path write(Path file, byte[] bytes) throws IOException {
        return Files.write(file, bytes);
    }

    /** Keeps each event's size and checksum, not the event: what it allocates is not the recovery's to answer for. */
    private static final class CheckingSink implements RecordSink {
        final List<Integer> sizes = new CopyOnWriteArrayList<>();
        final List<Long> checksums = new CopyOnWriteArrayList<>();

        @Override
        public JournalPosition committed(long journalId) {
            return null;
        }

        @Override
        public void deliver(RecordBatch batch) {
            for (int i = 0; i < batch.count(); i++) {
                ByteBuffer event = batch.event(i);
                sizes.add(event.remaining());
                CRC32 crc = new CRC32();
                crc.update(event);
                checksums.add(crc.getValue());
            }
            batch.end();
        }

        @Override
        public void close(long timeoutNanos) {
        }
    }
}
