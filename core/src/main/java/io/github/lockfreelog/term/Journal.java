package io.github.lockfreelog.term;

import static io.github.lockfreelog.term.JournalDescriptor.*;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The journal file, mapped once and kept mapped until {@link #close()}. All access to shared
 * words goes through the methods below, whose names say their memory ordering: {@code plain}
 * (no ordering), {@code Acquire}, {@code Release}, {@code Volatile} and {@code cas} (volatile).
 * Offsets are absolute within the file and must be aligned to the size of the value.
 *
 * <h2>The memory seam</h2>
 * This class holds the layout and the protocol's named accesses; the abstract methods below are
 * the memory they run on. {@link MappedJournal}, the mapped file, is the only implementation in
 * production: with one subclass loaded, the JIT binds every call to it statically (class
 * hierarchy analysis) and inlines it as if this class were final, with no type check and no extra
 * load. The model-checking test adds a heap implementation whose every access the checker sees;
 * the constructor is package-private, so no other code can add one. {@link JournalFiles} creates
 * and opens journal files.
 */
public abstract class Journal implements AutoCloseable {

    private final Path path;
    private final int bufferCount;
    private final int bufferSize;

    Journal(Path path, int bufferCount, int bufferSize) {
        this.path = path;
        this.bufferCount = bufferCount;
        this.bufferSize = bufferSize;
    }

    /**
     * Writes the metadata and the free slots of a fresh journal (whose memory is all zeros), the
     * magic last: a file that a kill cut off before it has none, and is known as half-made.
     */
    final void initialise() {
        putIntPlain(VERSION_OFFSET, VERSION);
        putIntPlain(BUFFER_COUNT_OFFSET, bufferCount);
        putIntPlain(BUFFER_SIZE_OFFSET, bufferSize);
        putLongPlain(JOURNAL_ID_OFFSET, ThreadLocalRandom.current().nextLong() | 1L);
        // Term 0 is active in buffer 0; every other buffer looks full, as if it held the term
        // bufferCount before the one it will host next, so that a stale writer cannot reserve in it.
        for (int i = 0; i < bufferCount; i++) {
            long raw = i == 0 ? packTail(0, 0) : packTail(i - bufferCount, bufferSize);
            putLongVolatile(tailCounterOffset(i), raw);
            putIntVolatile(termStartOffset(i), 0);
            if (i > 0) {
                fillEmpty(bufferBase(i), bufferSize, i); // buffer i hosts term i first (term 0's free slots are zeros)
            }
        }
        putLongVolatile(ACTIVE_TERM_COUNT_OFFSET, 0L);
        writeDrainRecord(0, 0, 0, 0);
        putLongVolatile(MAGIC_OFFSET, MAGIC);
    }

    /** The id this journal got when it was created ({@link JournalDescriptor}): random, never 0. */
    public long journalId() {
        return getLongPlain(JOURNAL_ID_OFFSET);
    }

    public Path path() {
        return path;
    }

    public int bufferCount() {
        return bufferCount;
    }

    public int bufferSize() {
        return bufferSize;
    }

    /** Absolute offset of the first byte of buffer {@code index}. */
    public int bufferBase(int index) {
        return bufferOffset(index, bufferSize);
    }

    // ---- ordered access: the memory seam ----------------------------------------------------

    /**
     * A view of the whole mapping (position and limit are the caller's), for writing an event
     * larger than the drainer's staging buffer straight from the journal.
     */
    public abstract ByteBuffer duplicate();

    /** A view of the {@code length} bytes at {@code at} of the mapping: an event written from where it lies. */
    public final ByteBuffer slice(int at, int length) {
        return duplicate().limit(at + length).position(at).slice();
    }

    public abstract int getIntPlain(int offset);

    public abstract void putIntPlain(int offset, int value);

    public abstract void putIntRelease(int offset, int value);

    public abstract int getIntVolatile(int offset);

    public abstract void putIntVolatile(int offset, int value);

    public abstract long getLongPlain(int offset);

    public abstract void putLongPlain(int offset, long value);

    public abstract void putLongRelease(int offset, long value);

    public abstract void putLongVolatile(int offset, long value);

    public abstract long getLongVolatile(int offset);

    public abstract long getLongAcquire(int offset);

    public abstract boolean casLong(int offset, long expected, long value);

    /** Atomically adds {@code delta} to the long at {@code offset}; returns the value before (volatile). */
    public abstract long getAndAddLong(int offset, long delta);

    /** Copies {@code length} bytes from the journal at {@code offset} into {@code dst} (plain loads). */
    public abstract void getBytes(int offset, byte[] dst, int dstOffset, int length);

    /**
     * Copies {@code length} bytes from the journal at {@code offset} into {@code dst} at
     * {@code dstIndex} (plain loads; {@code dst}'s position is left as it was).
     */
    public abstract void getBytes(int offset, ByteBuffer dst, int dstIndex, int length);

    /** Absolute bulk copy into the journal (plain stores; publish with a release store after). */
    public abstract void putBytes(int offset, byte[] src, int srcOffset, int length);

    /**
     * Fills {@code [offset, offset + length)} with the free slots of term {@code termId}
     * ({@link JournalDescriptor#emptyHeader}); writing every page also faults it in (pre-touch).
     * What it writes is visible to any thread that then reads a value stored after it with release.
     */
    public abstract void fillEmpty(int offset, int length, int termId);

    // ---- metadata ---------------------------------------------------------------------------

    public long activeTermCountAcquire() {
        return getLongAcquire(ACTIVE_TERM_COUNT_OFFSET);
    }

    /** The active term count, read with a volatile load (ordered after the reader's own volatile stores). */
    public long activeTermCountVolatile() {
        return getLongVolatile(ACTIVE_TERM_COUNT_OFFSET);
    }

    public boolean casActiveTermCount(long expected, long value) {
        return casLong(ACTIVE_TERM_COUNT_OFFSET, expected, value);
    }

    public long rawTailVolatile(int index) {
        return getLongVolatile(tailCounterOffset(index));
    }

    /** Where the term that buffer {@code index} hosts starts (written by the drainer before the buffer is handed out). */
    public int termStartVolatile(int index) {
        return getIntVolatile(termStartOffset(index));
    }

    public void putTermStartVolatile(int index, int start) {
        putIntVolatile(termStartOffset(index), start);
    }

    public boolean casRawTail(int index, long expected, long value) {
        return casLong(tailCounterOffset(index), expected, value);
    }

    /** Adds {@code aligned} to the raw tail of buffer {@code index}; returns the raw tail before the add. */
    public long getAndAddRawTail(int index, int aligned) {
        return getAndAddLong(tailCounterOffset(index), aligned);
    }

    /**
     * The largest frame a caller reserves with one fetch-and-add ({@link TermAppender#reserve}); larger
     * ones take the compare-and-set path. The model check's heap journal lowers it so that one scenario
     * runs both paths.
     */
    public int maxAddedFrame() {
        return MAX_ADDED_FRAME;
    }

    /** Writes the drain record into the one of its two copies not holding the newest; only the drainer calls this. */
    public void writeDrainRecord(long termCount, long offset, long logSize, long seq) {
        int copy = DRAIN_RECORD_OFFSET + (int) (seq & 1) * DRAIN_RECORD_LENGTH;
        putLongPlain(copy + DRAIN_TERM_FIELD, termCount);
        putLongPlain(copy + DRAIN_OFFSET_FIELD, offset);
        putLongPlain(copy + DRAIN_LOG_SIZE_FIELD, logSize);
        putLongPlain(copy + DRAIN_CHECK_FIELD, seq ^ termCount ^ offset ^ logSize ^ CHECK_SALT);
        putLongRelease(copy + DRAIN_SEQ_FIELD, seq);
    }

    /** Reads the newest intact drain record, or {@code null} if neither copy is intact. */
    public DrainRecord readDrainRecord() {
        DrainRecord best = null;
        for (int i = 0; i < 2; i++) {
            int copy = DRAIN_RECORD_OFFSET + i * DRAIN_RECORD_LENGTH;
            long seq = getLongAcquire(copy + DRAIN_SEQ_FIELD);
            long term = getLongPlain(copy + DRAIN_TERM_FIELD);
            long offset = getLongPlain(copy + DRAIN_OFFSET_FIELD);
            long logSize = getLongPlain(copy + DRAIN_LOG_SIZE_FIELD);
            long check = getLongPlain(copy + DRAIN_CHECK_FIELD);
            boolean intact = check == (seq ^ term ^ offset ^ logSize ^ CHECK_SALT) && (seq & 1) == i;
            if (intact && (best == null || seq > best.seq())) {
                best = new DrainRecord(seq, term, offset, logSize);
            }
        }
        return best;
    }

    /** Where the log file stood after a drain; see {@link JournalDescriptor}. */
    public record DrainRecord(long seq, long termCount, long offset, long logSize) {
    }

    /** Records the write the drainer is about to make; see {@link JournalDescriptor}. */
    public void writeIntent(long seq, long termCount, long from, long to, long skip, long logSizeBefore) {
        writeIntent(seq, termCount, from, to, skip, logSizeBefore, false);
    }

    /**
     * Records the write the drainer is about to make, or with {@code failed}, that it failed with
     * exactly {@code skip} bytes of it landed; see {@link JournalDescriptor}.
     */
    public void writeIntent(long seq, long termCount, long from, long to, long skip, long logSizeBefore, boolean failed) {
        int at = INTENT_OFFSET;
        long state = failed ? 1 : 0;
        putLongVolatile(at + INTENT_SEQ_FIELD, 0L); // torn from here until the check is written
        putLongPlain(at + INTENT_TERM_FIELD, termCount);
        putLongPlain(at + INTENT_FROM_FIELD, from);
        putLongPlain(at + INTENT_TO_FIELD, to);
        putLongPlain(at + INTENT_SKIP_FIELD, skip);
        putLongPlain(at + INTENT_LOG_SIZE_FIELD, logSizeBefore);
        putLongPlain(at + INTENT_STATE_FIELD, state);
        putLongPlain(at + INTENT_CHECK_FIELD, intentCheck(seq, termCount, from, to, skip, logSizeBefore, state));
        putLongRelease(at + INTENT_SEQ_FIELD, seq);
    }

    /** The intent last recorded, or {@code null} if none is intact. */
    public WriteIntent readIntent() {
        int at = INTENT_OFFSET;
        long seq = getLongAcquire(at + INTENT_SEQ_FIELD);
        long term = getLongPlain(at + INTENT_TERM_FIELD);
        long from = getLongPlain(at + INTENT_FROM_FIELD);
        long to = getLongPlain(at + INTENT_TO_FIELD);
        long skip = getLongPlain(at + INTENT_SKIP_FIELD);
        long logSize = getLongPlain(at + INTENT_LOG_SIZE_FIELD);
        long state = getLongPlain(at + INTENT_STATE_FIELD);
        long check = getLongPlain(at + INTENT_CHECK_FIELD);
        if (seq == 0 || check != intentCheck(seq, term, from, to, skip, logSize, state)) {
            return null;
        }
        return new WriteIntent(seq, term, from, to, skip, logSize, state == 1);
    }

    private static long intentCheck(long seq, long term, long from, long to, long skip, long logSize, long state) {
        return seq ^ Long.rotateLeft(term, 7) ^ Long.rotateLeft(from, 19) ^ Long.rotateLeft(to, 29)
                ^ Long.rotateLeft(skip, 37) ^ Long.rotateLeft(logSize, 47) ^ Long.rotateLeft(state, 53) ^ CHECK_SALT;
    }

    /**
     * A write the drainer was about to make; see {@link JournalDescriptor}. With {@code failed}, it
     * failed and exactly {@code skip} bytes of it are in the log.
     */
    public record WriteIntent(long seq, long termCount, long from, long to, long skip, long logSizeBefore,
            boolean failed) {
    }

    /**
     * Unmaps the journal, and closes its file if it is the journal's own. The caller guarantees that no thread touches the mapping
     * any more: an access after unmapping would crash the JVM.
     */
    @Override
    public abstract void close() throws IOException;

    /**
     * Unmaps the journal and truncates its file to zero bytes (through the journal's own channel:
     * the file it mapped, whatever its name stands for now), then closes the file if it is the
     * journal's own.
     */
    public abstract void closeAndEmpty() throws IOException;
}
