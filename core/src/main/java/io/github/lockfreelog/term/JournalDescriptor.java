package io.github.lockfreelog.term;

/**
 * Layout of the journal file: one metadata page followed by {@code bufferCount} buffers of
 * {@code bufferSize} bytes each. Every multi-byte value is <b>little-endian</b>.
 *
 * <h2>Metadata page</h2>
 * <pre>
 *   0                   8       12      16      20      24              32        120     128
 *   +-------------------+-------+-------+-------+-------+---------------+-- ... --+-------+
 *   | magic "LFJRNL01"  |version|count  |size   |(res.) | journal id    |(reserved)| touch |
 *   +-------------------+-------+-------+-------+-------+---------------+-- ... --+-------+
 *   128: active term count (long)             own 128-byte line: written on every swap
 *   256: drain record copy 0 (5 longs)        written by the drainer only
 *   320: drain record copy 1 (5 longs)
 *   384: write intent (8 longs)               written by the drainer before each write to the log
 *   512 + i * 128: raw tail of buffer i (long) own 128-byte line each: the contended counters
 *                  raw tail = (termId &lt;&lt; 32) | offset; offset at or past bufferSize: full
 *   512 + i * 128 + 64: term start of buffer i (int): where the term it hosts starts (see below)
 *   4096: buffer 0, 4096 + bufferSize: buffer 1, ...
 * </pre>
 * The journal id is a random non-zero number written when the journal is created: a record sink names the journal by it in the positions it commits,
 * so that a position of one journal is never taken for one of the next journal in the same file.
 * A term is one use of a buffer: term {@code n} lives in buffer {@code n % bufferCount} and
 * its term id is {@code (int) n}. Buffers cycle clean, active, dirty, clean.
 *
 * <h2>Drain record</h2>
 * The drainer writes {@code (seq, termCount, offset, logSize, check)} into slot {@code seq % 2}
 * after each write to the log file: everything of term {@code termCount} below {@code offset}
 * (and every earlier term) has reached the log file, which was then {@code logSize} bytes
 * long. {@code check = seq ^ termCount ^ offset ^ logSize ^ CHECK_SALT}; at recovery the valid
 * slot with the higher {@code seq} wins, so a record torn by a crash is never trusted.
 *
 * <h2>Write intent</h2>
 * Before each write to the log file the drainer records {@code (seq, termCount, from, to, skip,
 * logSizeBefore, check)}: it is about to write the payloads of the data frames of term
 * {@code termCount} in {@code [from, to)}, less the first {@code skip} bytes (written by earlier
 * calls of the same batch), to a log file that was {@code logSizeBefore} bytes long. The write
 * may land after bytes that are not ours (another process appending to the same file), so at
 * recovery an intent that no drain record covers is settled by content: the log is searched after
 * {@code logSizeBefore} for those bytes, and only what is not there is written. An intent torn by
 * a crash fails its check; it was written before its write began, so nothing of it is in the log.
 * When the write fails (the call returns an error, which means it wrote nothing), the intent is
 * written again with {@code state = 1}: exactly {@code skip} bytes of the range landed, and recovery
 * writes the rest without searching, so bytes that another process wrote meanwhile, however alike,
 * are never taken for this write. The check covers the state.
 *
 * <h2>Tail and term start</h2>
 * A caller reserves with one fetch-and-add on the raw tail, after reading it in range: it reads the
 * tail, gives up (the buffer is full) if the offset is at or past {@code bufferSize}, and otherwise adds
 * its frame's aligned length. The add returns the tail before it, which says everything: an offset
 * whose frame fits is the caller's frame; an offset below {@code bufferSize} whose frame does not fit
 * makes that caller, the only one whose add crossed the end, pad from its offset to the end; an offset
 * at or past the end means another caller crossed it first, and this add only raised a full tail. No
 * caller ever repeats its add. Because each caller looks before it adds, only the callers that read
 * the tail in range and had not added yet can push it past the end, each by one frame: a tail offset
 * stays below {@code bufferSize + callers x MAX_ADDED_FRAME} however long the buffers stay full, far
 * from the term id (over 57,000 callers would have to stop between their look and their add). A frame
 * larger than {@link #MAX_ADDED_FRAME} is reserved with a compare-and-set instead, which moves the tail
 * only while the frame fits, or to {@code bufferSize} when it does not (and pads the rest); so does
 * the drainer when it closes a term. Readers of a tail take {@code min(offset, bufferSize)}.
 * A term usually starts at 0; it
 * starts later when a writer stalled mid-copy in an earlier term of the buffer and has not
 * resumed yet (its frame was abandoned, see below): the term then starts after that frame, so the
 * writer's late copy can only land in its own frame.
 *
 * <h2>Frame</h2>
 * <pre>
 *   0               4               8
 *   +---------------+---------------+-----------------------------+---------+
 *   | frame length  | type          | payload (length - 8 bytes)  | to 8    |
 *   +---------------+---------------+-----------------------------+---------+
 * </pre>
 * Frames start on 8-byte boundaries. A free 8-byte slot of term {@code t} holds
 * {@link #emptyHeader(int) emptyHeader(t)}: length 0 and the term id in the type word. The drainer
 * fills a buffer with the free slots of the term it will host next when it cleans it. The commit
 * protocol of a writer that reserved {@code [offset, offset + align(length))} in term {@code t}:
 * <ol>
 *   <li>compare-and-set the header long from {@code emptyHeader(t)} to
 *       {@code (length -length, type)}: a negative length means the writer is still copying. The
 *       compare fails only if the drainer padded over a stalled reservation; the writer then
 *       reserves again. Because the expected value names the term, a writer that stalls until
 *       its buffer hosts a later term can never claim a slot there;</li>
 *   <li>copy the payload;</li>
 *   <li>compare-and-set the header from {@code (-length, type)} to {@code (+length, type)}: a
 *       positive length means committed. A reader loads the length with acquire and, if it is
 *       positive, may read the type and payload.</li>
 * </ol>
 * A writer that stays between claim and commit for longer than the unblock timeout has its frame
 * <em>abandoned</em> by the drainer: compare-and-set from {@code (-length, type)} to
 * {@code (-length, ABANDONED)}. The frame is left out of the log; later terms of its buffer start
 * after it until the writer resumes: its commit then fails, it marks the frame
 * {@code ACKNOWLEDGED} and writes its event again elsewhere. So a stalled writer costs some room
 * in one buffer, never the log, and its late copy can never land in a frame of a later term.
 * A {@link #TYPE_PADDING} frame fills the end of a buffer that a reservation crossed, or a
 * reservation whose writer never wrote its header. Type words carry the ASCII marker
 * {@code "LF"} in their upper half so that recovery can re-synchronise on a valid header.
 */
public final class JournalDescriptor {

    /** Size of a page; buffer sizes must be multiples of it. */
    public static final int PAGE_SIZE = 4096;
    /** Distance between hot counters, two cache lines so that adjacent-line prefetch does not couple them. */
    public static final int COUNTER_PADDING = 128;
    /** Alignment of every frame. */
    public static final int FRAME_ALIGNMENT = 8;

    public static final long MAGIC = 0x3130_4C4E_524A_464CL; // "LFJRNL01" read as little-endian bytes
    public static final int VERSION = 2;

    public static final int MAGIC_OFFSET = 0;
    public static final int VERSION_OFFSET = MAGIC_OFFSET + Long.BYTES;
    public static final int BUFFER_COUNT_OFFSET = VERSION_OFFSET + Integer.BYTES;
    public static final int BUFFER_SIZE_OFFSET = BUFFER_COUNT_OFFSET + Integer.BYTES;
    /** The journal's id (a long, 8-aligned): random, non-zero, written at creation; see above. */
    public static final int JOURNAL_ID_OFFSET = BUFFER_SIZE_OFFSET + 2 * Integer.BYTES;

    /**
     * Eight reserved bytes of the header, always zero: the holder of a journal writes them (zeros)
     * to renew the file's modification time ({@code FileTimes}), so that no live byte is rewritten.
     */
    public static final int TOUCH_OFFSET = COUNTER_PADDING - Long.BYTES;

    public static final int ACTIVE_TERM_COUNT_OFFSET = COUNTER_PADDING;

    public static final int DRAIN_RECORD_OFFSET = ACTIVE_TERM_COUNT_OFFSET + COUNTER_PADDING;
    public static final int DRAIN_RECORD_LENGTH = 64;
    public static final int DRAIN_SEQ_FIELD = 0;
    public static final int DRAIN_TERM_FIELD = 8;
    public static final int DRAIN_OFFSET_FIELD = 16;
    public static final int DRAIN_LOG_SIZE_FIELD = 24;
    public static final int DRAIN_CHECK_FIELD = 32;
    public static final long CHECK_SALT = 0x5AFE_D0C5_1234_ABCDL;

    public static final int INTENT_OFFSET = DRAIN_RECORD_OFFSET + 2 * DRAIN_RECORD_LENGTH;
    public static final int INTENT_SEQ_FIELD = 0;
    public static final int INTENT_TERM_FIELD = 8;
    public static final int INTENT_FROM_FIELD = 16;
    public static final int INTENT_TO_FIELD = 24;
    public static final int INTENT_SKIP_FIELD = 32;
    public static final int INTENT_LOG_SIZE_FIELD = 40;
    public static final int INTENT_CHECK_FIELD = 48;
    /** 0: the write may have landed (search the log for it); 1: it failed, exactly {@code skip} bytes landed. */
    public static final int INTENT_STATE_FIELD = 56;
    public static final int INTENT_LENGTH = 128;

    public static final int TAIL_COUNTERS_OFFSET = INTENT_OFFSET + INTENT_LENGTH;
    /** Offset of a buffer's term start within its tail counter's 128 bytes (a line of its own). */
    public static final int TERM_START_FIELD = 64;

    public static final int MIN_BUFFER_COUNT = 2;
    public static final int MAX_BUFFER_COUNT = 16;
    /** Smallest buffer: 64 KiB. */
    public static final int MIN_BUFFER_SIZE = 64 * 1024;
    /** Largest buffer: 512 MiB, so that a tail offset never runs into the term id bits. */
    public static final int MAX_BUFFER_SIZE = 512 * 1024 * 1024;
    /**
     * Largest frame reserved with a fetch-and-add: 64 KiB. A tail offset then needs over 57,000 callers
     * stopped between their look at the tail and their add to run from {@code MAX_BUFFER_SIZE} into the
     * term id bits; larger frames (rare, and costlier to copy than any retry) take the compare-and-set.
     */
    public static final int MAX_ADDED_FRAME = 64 * 1024;

    public static final int METADATA_LENGTH = PAGE_SIZE;

    public static final int FRAME_LENGTH_OFFSET = 0;
    public static final int FRAME_TYPE_OFFSET = 4;
    public static final int HEADER_LENGTH = 8;

    private static final int TYPE_MARKER = 0x4C46_0000; // "LF"
    public static final int TYPE_DATA = TYPE_MARKER | 1;
    public static final int TYPE_PADDING = TYPE_MARKER | 2;
    /** A claimed frame whose writer stalled: left out of the log; its buffer waits for the writer. */
    public static final int TYPE_ABANDONED = TYPE_MARKER | 3;
    /** An abandoned frame whose writer has resumed and written its event again elsewhere. */
    public static final int TYPE_ACKNOWLEDGED = TYPE_MARKER | 4;

    static {
        if (TAIL_COUNTERS_OFFSET + MAX_BUFFER_COUNT * COUNTER_PADDING > METADATA_LENGTH) {
            throw new AssertionError("metadata layout overflows its page");
        }
    }

    private JournalDescriptor() {
    }

    public static int tailCounterOffset(int bufferIndex) {
        return TAIL_COUNTERS_OFFSET + bufferIndex * COUNTER_PADDING;
    }

    public static int termStartOffset(int bufferIndex) {
        return tailCounterOffset(bufferIndex) + TERM_START_FIELD;
    }

    public static int bufferOffset(int bufferIndex, int bufferSize) {
        return METADATA_LENGTH + bufferIndex * bufferSize;
    }

    public static long journalLength(int bufferCount, int bufferSize) {
        return METADATA_LENGTH + (long) bufferCount * bufferSize;
    }

    /** Header long of a free slot in term {@code termId} (length 0; little-endian: the type word is the high half). */
    public static long emptyHeader(int termId) {
        return (long) termId << 32;
    }

    /** Header long with the given length and type words. */
    public static long header(int length, int type) {
        return ((long) type << 32) | (length & 0xFFFF_FFFFL);
    }

    public static int align(int length) {
        return (length + FRAME_ALIGNMENT - 1) & -FRAME_ALIGNMENT;
    }

    public static long packTail(int termId, int offset) {
        return ((long) termId << 32) | (offset & 0xFFFF_FFFFL);
    }

    public static int termId(long rawTail) {
        return (int) (rawTail >>> 32);
    }

    /** Offset part of a raw tail; past the buffer size when callers added to a full tail (readers clamp it). */
    public static long tailOffset(long rawTail) {
        return rawTail & 0xFFFF_FFFFL;
    }

    public static boolean isValidType(int type) {
        return type == TYPE_DATA || type == TYPE_PADDING || type == TYPE_ABANDONED || type == TYPE_ACKNOWLEDGED;
    }

    /** The length word of a header long. */
    public static int headerLength(long header) {
        return (int) header;
    }

    /** The type word of a header long. */
    public static int headerType(long header) {
        return (int) (header >>> 32);
    }

    /** What {@code bufferCount} may be, as a sentence fragment (messages of every check use it). */
    public static final String BUFFER_COUNT_RULE = MIN_BUFFER_COUNT + " to " + MAX_BUFFER_COUNT;
    /** What {@code bufferSize} may be, as a sentence fragment. */
    public static final String BUFFER_SIZE_RULE = "a multiple of the page size (" + PAGE_SIZE + " bytes) from 64KB to 512MB";
    /** What {@code bufferSize} may be for {@code bufferCount} buffers, as a sentence fragment. */
    public static String geometryRule(int bufferCount) {
        return "a size that keeps bufferSize x bufferCount (" + bufferCount + ") under 2GB";
    }

    /** Whether a journal of {@code bufferCount} buffers may exist. */
    public static boolean isBufferCountAllowed(int bufferCount) {
        return bufferCount >= MIN_BUFFER_COUNT && bufferCount <= MAX_BUFFER_COUNT;
    }

    /** Whether a buffer of {@code bufferSize} bytes may exist. */
    public static boolean isBufferSizeAllowed(long bufferSize) {
        return bufferSize >= MIN_BUFFER_SIZE && bufferSize <= MAX_BUFFER_SIZE && bufferSize % PAGE_SIZE == 0;
    }

    /**
     * Checks buffer count and size together (the journal is one mapping, under 2 GiB); returns an
     * error message naming the first value not allowed, or {@code null} when both are.
     */
    public static String checkGeometry(int bufferCount, long bufferSize) {
        if (!isBufferCountAllowed(bufferCount)) {
            return "bufferCount=" + bufferCount + " is not allowed: use " + BUFFER_COUNT_RULE;
        }
        if (!isBufferSizeAllowed(bufferSize)) {
            return "bufferSize=" + bufferSize + " bytes is not allowed: use " + BUFFER_SIZE_RULE;
        }
        if (journalLength(bufferCount, (int) bufferSize) > Integer.MAX_VALUE) {
            return "bufferSize=" + bufferSize + " is not allowed: use " + geometryRule(bufferCount);
        }
        return null;
    }
}
