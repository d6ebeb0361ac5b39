package io.github.lockfreelog.term;

import static io.github.lockfreelog.term.JournalDescriptor.*;


/**
 * Reads a frame header: what kind of frame it describes, by one rule for what is plausible, and
 * where the next plausible frame starts after a gap or a damaged header. A header is always read
 * as one 64-bit value, since claims and commits change it with one 64-bit compare-and-set.
 * {@link TermReader} walks frames by these rules; the writer's side is {@link TermAppender}.
 */
public final class FrameCodec {

    /** What a frame header says. */
    public enum FrameKind {
        /** Committed: padding, data, or a frame left out; stepped over by its length. */
        COMMITTED,
        /** Claimed by a writer that is still copying (or died doing so); stepped over by its length. */
        CLAIMED,
        /** Claimed, then left out by the drainer because its writer stalled; stepped over by its length. */
        ABANDONED,
        /** A free slot of the term: reserved space whose writer has not written its header yet. */
        FREE,
        /** A header the commit protocol never produces: readers re-synchronise after it. */
        DAMAGED
    }

    private FrameCodec() {
    }

    /** A committed frame (padding, data, or one left out) that fits in {@code room} bytes. */
    public static boolean isCommitted(long header, int room) {
        int length = headerLength(header);
        return length >= HEADER_LENGTH && isValidType(headerType(header)) && fits(length, room);
    }

    /** A frame claimed by a writer that is still copying (or died doing so) and fits in {@code room}. */
    public static boolean isClaimed(long header, int room) {
        int length = headerLength(header);
        int type = headerType(header);
        return length < 0 && length != Integer.MIN_VALUE && -length >= HEADER_LENGTH && fits(-length, room)
                && (type == TYPE_DATA || type == TYPE_PADDING);
    }

    /** A claimed frame that the drainer left out because its writer stalled mid-copy. */
    public static boolean isAbandoned(long header, int room) {
        int length = headerLength(header);
        int type = headerType(header);
        return length < 0 && length != Integer.MIN_VALUE && -length >= HEADER_LENGTH && fits(-length, room)
                && (type == TYPE_ABANDONED || type == TYPE_ACKNOWLEDGED);
    }

    /** Whether a frame of {@code length} bytes, aligned, fits in {@code room} (without overflowing). */
    private static boolean fits(int length, int room) {
        return length <= room && align(length) <= room;
    }

    /** A free slot of term {@code termId}: reserved space whose writer has not written its header yet. */
    public static boolean isFree(long header, int termId) {
        return header == emptyHeader(termId);
    }

    /** The kind of the frame whose header is {@code header}, with {@code room} bytes left in term {@code termId}. */
    public static FrameKind kindOf(long header, int room, int termId) {
        if (isCommitted(header, room)) {
            return FrameKind.COMMITTED;
        }
        if (isClaimed(header, room)) {
            return FrameKind.CLAIMED;
        }
        if (isAbandoned(header, room)) {
            return FrameKind.ABANDONED;
        }
        return isFree(header, termId) ? FrameKind.FREE : FrameKind.DAMAGED;
    }

    /** The payload length of a committed data frame with this header that fits in {@code room}, else -1. */
    public static int dataPayload(long header, int room) {
        return isCommitted(header, room) && headerType(header) == TYPE_DATA ? headerLength(header) - HEADER_LENGTH : -1;
    }

    /**
     * Re-synchronises after a gap or a damaged header: the offset (relative to {@code base}) of the
     * next 8-byte slot at or after {@code offset} that holds a plausible committed header, or
     * {@code limit} if none does.
     */
    public static int nextPlausibleFrame(Journal journal, int base, int offset, int limit) {
        for (; offset < limit; offset += FRAME_ALIGNMENT) {
            if (isCommitted(journal.getLongAcquire(base + offset), limit - offset)) {
                return offset;
            }
        }
        return limit;
    }
}
