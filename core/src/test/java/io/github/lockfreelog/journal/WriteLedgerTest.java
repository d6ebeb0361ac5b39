package io.github.lockfreelog.journal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The write ledger on its own: what renewing its time writes, and the search bound it gives. */
class WriteLedgerTest {

    @TempDir
    Path dir;

    /**
     * Renewing the ledger's modification time while another process begins a write in entry 0
     * (the begin is run once the renewal's first read or write returned): the write stays in
     * flight, and the renewal writes no byte that an entry uses. Before: it read entry 0's sequence
     * number and wrote it back, so a begin between the two was undone and the write read as idle.
     */
    @Test
    void renewingTheLedgersTimeNeverUndoesABeginOfAnotherProcess() throws Exception {
        Path log = dir.resolve("app.log");
        try (WriteLedger ledger = WriteLedger.open(log);
                FileChannel channel = FileChannel.open(WriteLedger.fileOf(log), StandardOpenOption.READ,
                        StandardOpenOption.WRITE)) {
            Path file = WriteLedger.fileOf(log);
            FileTime old = FileTime.from(Instant.now().minus(Duration.ofHours(2)));
            Files.setLastModifiedTime(file, old);
            WatchedChannel watched = new WatchedChannel(channel, () -> ledger.entry(0).begin(9, 500));

            WriteLedger.refresh(file, watched);

            assertThat(watched.calls).as("the renewal wrote something").isNotEmpty();
            assertThat(Files.getLastModifiedTime(file)).isGreaterThan(old);
            assertThat(ledger.entry(1).othersInFlight()).as("entry 0's write is still in flight").isNotZero();
            ledger.entry(1).begin(1, 600); // another write after it: the search for entry 0's ends there
            assertThat(ledger.entry(0).searchEnd(9, 500)).isEqualTo(600);
            for (long[] write : watched.writes) {
                assertThat(write[0]).as("a renewal's write lies past every entry's fields")
                        .isGreaterThanOrEqualTo((long) (WriteLedger.ENTRIES - 1) * WriteLedger.ENTRY_LENGTH
                                + WriteLedger.ENTRY_FIELDS);
            }
        }
    }

    /**
     * A file channel that runs {@code after} once, when its first positional read or write returned,
     * and records the writes ({@code position, length}); what the renewal of a file's time does not
     * use throws.
     */
    static final class WatchedChannel extends FileChannel {
        private final FileChannel real;
        private Runnable after;
        final List<String> calls = new ArrayList<>();
        final List<long[]> writes = new ArrayList<>();

        WatchedChannel(FileChannel real, Runnable after) {
            this.real = real;
            this.after = after;
        }

        @Override
        public int read(ByteBuffer dst, long position) throws IOException {
            calls.add("read " + position);
            return returned(real.read(dst, position));
        }

        @Override
        public int write(ByteBuffer src, long position) throws IOException {
            calls.add("write " + position);
            writes.add(new long[] {position, src.remaining()});
            return returned(real.write(src, position));
        }

        private int returned(int result) {
            Runnable once = after;
            after = null;
            if (once != null) {
                once.run();
            }
            return result;
        }

        @Override
        public long size() throws IOException {
            return real.size();
        }

        @Override
        public int read(ByteBuffer dst) {
            throw new UnsupportedOperationException();
        }

        @Override
        public long read(ByteBuffer[] dsts, int offset, int length) {
            throw new UnsupportedOperationException();
        }

        @Override
        public int write(ByteBuffer src) {
            throw new UnsupportedOperationException();
        }

        @Override
        public long write(ByteBuffer[] srcs, int offset, int length) {
            throw new UnsupportedOperationException();
        }

        @Override
        public long position() {
            throw new UnsupportedOperationException();
        }

        @Override
        public FileChannel position(long newPosition) {
            throw new UnsupportedOperationException();
        }

        @Override
        public FileChannel truncate(long size) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void force(boolean metaData) {
            throw new UnsupportedOperationException();
        }

        @Override
        public long transferTo(long position, long count, WritableByteChannel target) {
            throw new UnsupportedOperationException();
        }

        @Override
        public long transferFrom(ReadableByteChannel src, long position, long count) {
            throw new UnsupportedOperationException();
        }

        @Override
        public MappedByteBuffer map(MapMode mode, long position, long size) {
            throw new UnsupportedOperationException();
        }

        @Override
        public FileLock lock(long position, long size, boolean shared) {
            throw new UnsupportedOperationException();
        }

        @Override
        public FileLock tryLock(long position, long size, boolean shared) {
            throw new UnsupportedOperationException();
        }

        @Override
        protected void implCloseChannel() {
            // the real channel is closed by its owner
        }
    }
}
