package io.github.lockfreelog.journal;

import io.github.lockfreelog.files.FileMapping;
import io.github.lockfreelog.files.FileTimes;
import io.github.lockfreelog.files.PrivateFolders;
import io.github.lockfreelog.files.SafeFiles;
import io.github.lockfreelog.sink.LandedBytes;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The writes in flight to one log file, shared by every instance that writes it, so that a write a
 * crash cut off is looked for only among bytes that no other instance wrote after it.
 *
 * <p>Recovery settles such a write by content ({@link LandedBytes}): it searches the log after the
 * size the write was recorded against. Another instance that writes the very same bytes afterwards
 * (lines without a timestamp) would be found there, and the lost write taken as landed. The ledger
 * bounds the search: before each write, every drainer marks each other instance's write in flight
 * with the size of the log it is about to write after, since its own bytes land at or after it, and
 * marks its own with the size the other's was recorded against.
 * A write found in flight at recovery is then looked for between the size it was recorded against
 * and the smallest such mark: bytes that other instances wrote after it are out of reach, foreign
 * writers (an operator's {@code echo}) aside.
 *
 * <h2>Layout</h2>
 * A file of {@link #ENTRIES} entries of {@link #ENTRY_LENGTH} bytes ({@code .lockfreelog/<log file
 * name>.writes}, owner-only, 16 KB), mapped by each instance; entry {@code i} belongs to the journal
 * of slot {@code i} ({@link JournalSlots}), and an explicitly set journal to an entry from 16 on
 * chosen by its path (two explicit journals on one log file that happen to share an entry search
 * as without a ledger). Little-endian longs:
 * <pre>
 *   0: seq         the write's intent number in its journal; 0 while none is in flight (written last, with release)
 *   8: sizeBefore  the log's size the write was recorded against
 *  16: othersFrom  the smallest size another instance read before writing meanwhile; Long.MAX_VALUE if none
 *  24: goneFrom    0 while the write's owner may live; once another instance found its slot's locks free,
 *                  1 + the log's size it read then: every byte of the write lies below that size
 * </pre>
 * Only a journal's owner writes {@code seq} and {@code sizeBefore}, and clears {@code goneFrom};
 * others lower {@code othersFrom}, by compare-and-set, and set {@code goneFrom} only while they
 * hold the locks of the entry's slot, which its owner holds for as long as it lives.
 *
 * <p>A write whose owner died stays in flight until its journal is recovered, so that its own search
 * stays bounded; but it no longer bounds a write recorded against a size at or above its
 * {@code goneFrom}: no byte of the dead write can follow that write's. The running instances of
 * the slots look a few times a second ({@link Entry#lookForGoneOwners}) for a write that stays in
 * flight, and mark it while they hold its slot's locks, found free ({@link JournalLock#whileFree});
 * the slot's next owner clears the mark when it begins a write. Entries of journals set explicitly
 * are not looked at (their path is not known from the entry): their instance settles its write when
 * it starts again, and a start that recovers a journal settles its write ({@link Entry#end}).
 *
 * <p>The rest of an entry is never written; the file's last eight bytes are written (zeros) only to
 * renew its modification time, so that no byte of an entry is ever read and written back.
 *
 * <p>An {@code othersFrom} at or below the write's own {@code sizeBefore}
 * (another instance wrote right after it, or its mark raced with the owner starting this write)
 * leaves nothing to search: the write is written again at recovery. So a write that raced with
 * another's (both in the kernel at once) may be written twice, never lost. Without a ledger (a file
 * system that cannot map it) recovery searches the log for the write's bytes.
 */
public final class WriteLedger implements AutoCloseable {

    static final int ENTRIES = 256;
    static final int ENTRY_LENGTH = 64;
    /** The bytes of an entry that its fields use; the rest is never written. */
    static final int ENTRY_FIELDS = 32;
    /** Entries from here on are for journals set explicitly, chosen by their path. */
    static final int EXPLICIT_ENTRIES_FROM = JournalSlots.DEFAULT_SLOTS;
    public static final long UNBOUNDED = Long.MAX_VALUE;
    /** The file's last eight bytes, past the fields of the last entry: written (zeros) only to renew its time. */
    static final long TOUCH_OFFSET = (long) ENTRIES * ENTRY_LENGTH - Long.BYTES;
    private static final int SEQ = 0;
    private static final int SIZE_BEFORE = 8;
    private static final int OTHERS_FROM = 16;
    private static final int GONE_FROM = 24;
    private static final VarHandle LONG = MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private final Path logFile;
    private final Path file;
    private final FileChannel channel;
    private final FileMapping mapping;
    private final ByteBuffer map;
    /** The first slot's journal, and how many of the entries are slots whose owners are looked for. */
    private final Path firstSlot;
    private final int slots;
    /** The write in flight that each entry held at the last look for gone owners ({@code seq, sizeBefore}). */
    private final long[] seen = new long[2 * JournalSlots.DEFAULT_SLOTS];
    private boolean closed;

    private WriteLedger(Path logFile, Path file, FileChannel channel, FileMapping mapping, Path firstSlot, int slots) {
        this.logFile = logFile;
        this.file = file;
        this.channel = channel;
        this.mapping = mapping;
        this.map = mapping.buffer();
        this.firstSlot = firstSlot;
        this.slots = slots > 1 ? Math.min(slots, EXPLICIT_ENTRIES_FROM) : 0;
    }

    /** The ledger file of {@code logFile} (a real path), beside its journals. */
    public static Path fileOf(Path logFile) {
        return JournalSlots.hiddenFolderOf(logFile).resolve(logFile.getFileName() + ".writes");
    }

    /** The entry of the journal of slot {@code slot}, or of the journal {@code explicit} (slot -1). */
    public static int entryOf(int slot, Path explicit) {
        return slot >= 0 ? slot
                : EXPLICIT_ENTRIES_FROM + Math.floorMod(explicit.toString().hashCode(), ENTRIES - EXPLICIT_ENTRIES_FROM);
    }

    /** Maps the ledger of {@code logFile}, creating it (owner-only, in an owner-only folder) if missing. */
    public static WriteLedger open(Path logFile) throws IOException {
        return open(logFile, null, 0);
    }

    /**
     * As {@link #open(Path)}, for an instance of the {@code slots} slots of {@code firstSlot}
     * ({@link JournalSlots}): it looks for the writes of those slots whose owner is gone.
     */
    public static WriteLedger open(Path logFile, Path firstSlot, int slots) throws IOException {
        Path file = fileOf(logFile);
        PrivateFolders.ensure(file.getParent());
        FileChannel channel = SafeFiles.openOwnerOnly(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE);
        try {
            long length = (long) ENTRIES * ENTRY_LENGTH;
            if (channel.size() < length) {
                ByteBuffer zeros = ByteBuffer.allocate((int) (length - channel.size()));
                channel.write(zeros, channel.size()); // written, not sparse: a store never faults on a full disk
            }
            return new WriteLedger(logFile, file, channel, FileMapping.map(channel, length), firstSlot, slots);
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    /** Renews the ledger's modification time when it is old (an idle log), so a sweep by age leaves it. */
    public void refresh() {
        refresh(file, channel);
    }

    /** {@link #refresh()} of the ledger {@code file} open as {@code channel} (tests give a channel that watches). */
    static void refresh(Path file, FileChannel channel) {
        FileTimes.refresh(file, channel, TOUCH_OFFSET, Long.BYTES);
    }

    /** One journal's entry: the view its drain log writes through. */
    public Entry entry(int index) {
        if (index < 0 || index >= ENTRIES) {
            throw new IllegalArgumentException("ledger entry " + index + " is not 0 to " + (ENTRIES - 1));
        }
        return new Entry(index * ENTRY_LENGTH);
    }

    /** A journal's entry. */
    public final class Entry {
        private final int at;

        private Entry(int at) {
            this.at = at;
        }

        /**
         * Before a write of this journal's, recorded against a log of {@code sizeBefore} bytes: marks
         * the other writes in flight (this one's bytes land at or after that size), then this one.
         */
        public void begin(long seq, long sizeBefore) {
            // published before the others are looked at, both volatile: of two writers that begin at
            // once, at least one sees the other, and it bounds them both
            LONG.setVolatile(map, at + GONE_FROM, 0L); // the slot's owner now: a mark a dead one's write got goes
            LONG.setVolatile(map, at + SIZE_BEFORE, sizeBefore);
            LONG.setVolatile(map, at + OTHERS_FROM, UNBOUNDED);
            LONG.setVolatile(map, at + SEQ, seq);
            for (int other = 0; other < ENTRIES * ENTRY_LENGTH; other += ENTRY_LENGTH) {
                if (other != at && (long) LONG.getVolatile(map, other + SEQ) != 0) {
                    lower(other + OTHERS_FROM, sizeBefore); // its bytes may be followed by ours
                    if (!goneBefore(other, sizeBefore)) {
                        lower(at + OTHERS_FROM, (long) LONG.getVolatile(map, other + SIZE_BEFORE)); // and ours by its
                    }
                }
            }
        }

        /**
         * The other journals' writes in flight, as one number that changes whenever one of them
         * begins or ends (0 if none): a write that stays in flight while the log file does not
         * grow is one whose process died during it. A write whose owner was found gone is not counted.
         */
        public long othersInFlight() {
            long flight = 0;
            for (int other = 0; other < ENTRIES * ENTRY_LENGTH; other += ENTRY_LENGTH) {
                long seq = other == at ? 0 : (long) LONG.getVolatile(map, other + SEQ);
                if (seq != 0 && (long) LONG.getVolatile(map, other + GONE_FROM) == 0) {
                    flight = flight * 31 + other + seq;
                }
            }
            return flight;
        }

        /** After the write was recorded in the journal (or found failed): nothing of this journal's is in flight. */
        public void end() {
            LONG.setRelease(map, at + SEQ, 0L);
        }

        /**
         * Where the search for this journal's write {@code seq}, recorded against {@code sizeBefore},
         * may end: before the bytes other instances wrote after it; {@link #UNBOUNDED} when the ledger
         * does not know that write.
         */
        public long searchEnd(long seq, long sizeBefore) {
            if ((long) LONG.getAcquire(map, at + SEQ) != seq || (long) LONG.get(map, at + SIZE_BEFORE) != sizeBefore) {
                return UNBOUNDED;
            }
            long othersFrom = (long) LONG.getVolatile(map, at + OTHERS_FROM);
            // a mark at or below its own size (another read that size, or raced with its start): nothing
            // may be taken for it, and it is written again should it have landed: a duplicate, not a loss
            return othersFrom == UNBOUNDED ? UNBOUNDED : Math.max(othersFrom, sizeBefore);
        }

        /**
         * Marks the writes that other slots' journals left in flight, and whose owners are gone, so
         * that they bound no later write (see the class comment). A write is looked at once it was
         * in flight, the same, at the last call too (the drainer calls this a few times a second;
         * a live write ends within milliseconds): its slot's locks are tried, and it is marked while
         * they are held. Never throws; files are touched only for such a write.
         */
        public void lookForGoneOwners() {
            for (int slot = 0; slot < slots; slot++) {
                int entry = slot * ENTRY_LENGTH;
                long seq = entry == at ? 0 : (long) LONG.getVolatile(map, entry + SEQ);
                long sizeBefore = (long) LONG.getVolatile(map, entry + SIZE_BEFORE);
                boolean same = seq == seen[2 * slot] && sizeBefore == seen[2 * slot + 1];
                seen[2 * slot] = seq;
                seen[2 * slot + 1] = sizeBefore;
                if (seq != 0 && same && (long) LONG.getVolatile(map, entry + GONE_FROM) == 0) {
                    JournalLock.whileFree(JournalSlots.slot(firstSlot, slot), () -> markGone(entry, seq));
                }
            }
        }
    }

    /** Whether the write of the entry at {@code entry} is marked gone below {@code size}: it cannot follow bytes from there. */
    private boolean goneBefore(int entry, long size) {
        long gone = (long) LONG.getVolatile(map, entry + GONE_FROM);
        return gone != 0 && size >= gone - 1;
    }

    /** Marks the write {@code seq} of the entry at {@code entry} gone; its slot's locks are held, found free. */
    private void markGone(int entry, long seq) {
        long size;
        try {
            size = Files.size(logFile); // read now that its owner is known dead: all its bytes lie below
        } catch (IOException e) {
            return; // looked at again at the next call
        }
        if ((long) LONG.getVolatile(map, entry + SEQ) == seq) {
            lower(entry + OTHERS_FROM, size); // what follows is others': its own search ends there
            LONG.setVolatile(map, entry + GONE_FROM, size + 1);
        }
    }

    private void lower(int offset, long size) {
        for (long current = (long) LONG.getVolatile(map, offset); size < current;
                current = (long) LONG.getVolatile(map, offset)) {
            if (LONG.compareAndSet(map, offset, current, size)) {
                return;
            }
        }
    }

    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        mapping.closeAndRelease(channel);
    }
}
