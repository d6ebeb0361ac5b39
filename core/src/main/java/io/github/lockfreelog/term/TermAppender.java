package io.github.lockfreelog.term;

import static io.github.lockfreelog.term.JournalDescriptor.*;

import io.github.lockfreelog.diagnostics.CrashPoint;

/**
 * The caller's side of the journal: reserve space in the active term, claim it, copy, commit; pad
 * the end of a term that a reservation does not fit; rotate to the next term. Lock-free; a frame of
 * up to 64 KiB is reserved with one fetch-and-add, which no caller repeats, whatever the number of
 * threads; the other steps are compare-and-sets that fail only when the drainer passed over a
 * stalled writer (or, for larger frames, when another caller moved the tail).
 *
 * <h2>Reservation</h2>
 * A caller reads the active buffer's raw tail and, when it has seen it in range, adds its frame's
 * aligned length with one fetch-and-add (see {@link JournalDescriptor}, "Tail and term start"): the
 * tail before the add is its frame, or, for the one caller whose add crossed the buffer's end, the
 * start of the padding it writes to the end. A caller that finds the tail past the end never adds,
 * so however long a fault lasts (a full disk, thousands of drops a second) a tail offset stays below
 * {@code bufferSize} plus one frame per caller in flight, far from its term id. Frames over
 * {@link Journal#maxAddedFrame()} are reserved with a compare-and-set that never moves a tail past
 * the end.
 */
public final class TermAppender {

    /** {@link #reserve} found the buffer full. */
    public static final long FULL = Long.MIN_VALUE;
    /**
     * Set in a reservation from {@link #reserve} that did not fit: the caller pads from its position to
     * the end of the buffer ({@link #restOf}, {@link #writePadding}) and then treats the buffer as full. Positions are
     * 8-byte aligned, so the lowest bit is free for this.
     */
    public static final long PAD_TO_END = 1;

    /** How {@link #copyAndCommit} ended. */
    public enum Commit {
        /** The event is in the journal: the drainer writes it and counts it. */
        COMMITTED,
        /** The drainer left the frame out while the caller stalled: the caller writes its event again. */
        ABANDONED,
        /** The copy failed; the frame is committed as padding, the event is the caller's to count as dropped. */
        FAILED
    }

    /** How {@link #tryRotate} ended. */
    public enum Rotation {
        /** The next buffer is not clean yet. */
        NOT_READY,
        /** This caller moved the active term. */
        ROTATED,
        /** The active term moved, or another caller is moving it: reserve anew. */
        MOVED
    }

    private final Journal journal;
    private final BufferStates states;
    private final int bufferCount;
    private final int bufferSize;
    private final int maxAddedFrame;

    public TermAppender(Journal journal, BufferStates states) {
        this.journal = journal;
        this.states = states;
        this.bufferCount = journal.bufferCount();
        this.bufferSize = journal.bufferSize();
        this.maxAddedFrame = journal.maxAddedFrame();
    }

    /**
     * Reserves {@code aligned} bytes in the buffer of term {@code termCount}. Returns
     * {@code (termId << 32) | position}, the absolute position of the reserved frame and the term
     * it belongs to (see {@link #position} and {@link #termIdOf}); the same with {@link #PAD_TO_END}
     * when the frame did not fit and this caller closed the buffer; or {@link #FULL}. The term is the
     * one the tail names when the add lands, which may be a later one than {@code termCount} if this
     * caller stalled (a free slot names its term, so such a caller claims only a slot of that term).
     * Nothing here after the atomic step calls a method, and the engine decodes the result with plain
     * arithmetic too, so a stack overflow cannot strike between the add and the caller's knowing of
     * its reservation; a fault delivered at the return's safepoint poll still can, and leaves a
     * reservation that the drainer pads over once the unblock timeout has passed.
     */
    public long reserve(long termCount, int aligned) {
        final Journal journal = this.journal;
        final int bufferSize = this.bufferSize;
        final int index = (int) (termCount % bufferCount);
        if (aligned > maxAddedFrame) {
            return reserveLarge(index, aligned);
        }
        if (tailOffset(journal.rawTailVolatile(index)) >= bufferSize) {
            return FULL; // look before adding: a full tail is never raised by a caller that saw it full
        }
        final int base = journal.bufferBase(index);
        final long rawTail = journal.getAndAddRawTail(index, aligned);
        // plain arithmetic from here on (tailOffset and termId written out): no call after the add
        final long offset = rawTail & 0xFFFF_FFFFL;
        if (offset >= bufferSize) {
            if (offset >= Integer.MAX_VALUE) {
                // over 24,000 callers of 64 KiB frames stopped between their look and their add, all in this term:
                // bring the tail back to the end before further adds could carry into the term id
                journal.casRawTail(index, rawTail + aligned, packTail(termId(rawTail), bufferSize));
            }
            return FULL; // another caller crossed the end first: this add only raised a full tail
        }
        final long reservation = (rawTail & 0xFFFF_FFFF_0000_0000L) | (base + offset);
        return offset + aligned > bufferSize ? reservation | PAD_TO_END : reservation;
    }

    /**
     * Reserves a frame larger than {@link Journal#maxAddedFrame()} (and closes a term for
     * {@link #seal}): a compare-and-set moves the tail only while the frame fits, else to the buffer's
     * end, so these frames never push a tail past it.
     */
    private long reserveLarge(int index, int aligned) {
        final Journal journal = this.journal;
        final int bufferSize = this.bufferSize;
        for (;;) {
            final long rawTail = journal.rawTailVolatile(index);
            final long offset = tailOffset(rawTail);
            if (offset >= bufferSize) {
                return FULL;
            }
            final int termId = termId(rawTail);
            final long reservation = ((long) termId << 32) | (journal.bufferBase(index) + offset);
            if (offset + aligned > bufferSize) {
                if (journal.casRawTail(index, rawTail, packTail(termId, bufferSize))) {
                    return reservation | PAD_TO_END;
                }
            } else if (journal.casRawTail(index, rawTail, rawTail + aligned)) {
                return reservation;
            }
        }
    }

    public static int position(long reservation) {
        return (int) (reservation & ~PAD_TO_END);
    }

    /** The length of the padding frame that closes the buffer of a {@link #PAD_TO_END} reservation. */
    public int restOf(long reservation) {
        int at = position(reservation);
        return bufferSize - (at - METADATA_LENGTH) % bufferSize;
    }

    /**
     * Settles a reservation whose caller failed before finishing it: a free slot is padded over
     * ({@code reserved} bytes); a frame it had claimed, as data or as the padding that closes a
     * buffer, is committed as padding ({@link #settleClaimed}). The drainer calls this too, for a
     * caller that left a hint (see {@code ActiveJournal}) and whose own attempt failed.
     *
     * @return whether the frame had been committed as data before the failure (a fault delivered
     *         just after the commit): its event reaches the log, so it is not a drop
     */
    public static boolean settle(Journal journal, int at, int termId, int reserved, int frameLength) {
        if (writePadding(journal, at, reserved, termId)) {
            return false;
        }
        settleClaimed(journal, at, journal.getLongAcquire(at));
        return journal.getLongAcquire(at) == header(frameLength, TYPE_DATA);
    }

    /**
     * Commits as padding a frame (header {@code header}) claimed by a writer that failed before
     * committing it, whether it claimed it as data or as padding; acknowledges it if the drainer
     * abandoned it meanwhile. Anything else (committed already) is left as it is.
     */
    public static void settleClaimed(Journal journal, int at, long header) {
        int length = headerLength(header);
        int type = headerType(header);
        if (length >= 0 || length == Integer.MIN_VALUE) {
            return;
        }
        if (type == TYPE_DATA || type == TYPE_PADDING) {
            commit(journal, at, -length, type, TYPE_PADDING);
        } else if (type == TYPE_ABANDONED) {
            journal.casLong(at, header, header(length, TYPE_ACKNOWLEDGED));
        }
    }

    public static int termIdOf(long reservation) {
        return (int) (reservation >>> 32);
    }

    /**
     * Claims the reserved frame: its free slot becomes {@code (-frameLength, DATA)}. Fails only if
     * the drainer padded over the reservation while this writer stalled; the writer then reserves again.
     */
    public static boolean claim(Journal journal, long reservation, int frameLength) {
        return journal.casLong(position(reservation), emptyHeader(termIdOf(reservation)),
                header(-frameLength, TYPE_DATA));
    }

    /**
     * Copies the payload (and the truncation marker) after the claimed header and commits the
     * frame. A copy that throws (a fault in mapped memory surfaces as {@link InternalError}; a
     * stack overflow is treated alike) has its frame committed as padding, so that the drainer is
     * not held up, and returns {@link Commit#FAILED}; the caller's own {@code finally} settles the frame
     * again should that throw too.
     */
    public static Commit copyAndCommit(Journal journal, int at, int frameLength, byte[] payload, int kept, byte[] marker) {
        try {
            journal.putBytes(at + HEADER_LENGTH, payload, 0, kept);
            if (marker != null) {
                journal.putBytes(at + HEADER_LENGTH + kept, marker, 0, marker.length);
            }
        } catch (Throwable e) {
            settleClaimed(journal, at, header(-frameLength, TYPE_DATA));
            return Commit.FAILED;
        }
        return commit(journal, at, frameLength, TYPE_DATA, TYPE_DATA) ? Commit.COMMITTED : Commit.ABANDONED;
    }

    /**
     * Commits a claimed frame: {@code (-length, claimedType)} becomes {@code (+length, committedType)}.
     * If the drainer abandoned the frame meanwhile, marks it acknowledged instead (so that its
     * space may be reused) and returns {@code false}: the caller then writes its event again.
     */
    public static boolean commit(Journal journal, int at, int frameLength, int claimedType, int committedType) {
        if (journal.casLong(at, header(-frameLength, claimedType), header(frameLength, committedType))) {
            return true;
        }
        journal.casLong(at, header(-frameLength, TYPE_ABANDONED), header(-frameLength, TYPE_ACKNOWLEDGED));
        return false;
    }

    /** Claims the free slot at {@code at} of term {@code termId} as a padding frame of {@code length} bytes. */
    public static boolean writePadding(Journal journal, int at, int length, int termId) {
        if (journal.casLong(at, emptyHeader(termId), header(-length, TYPE_PADDING))) {
            commit(journal, at, length, TYPE_PADDING, TYPE_PADDING);
            return true;
        }
        return false;
    }

    /**
     * Closes the journal to writers for good; the drainer calls it once callers have another
     * journal to go to. No buffer is clean for any term any more ({@link BufferStates#retire}); a
     * rotation under way (the next buffer's tail set, the active count not moved yet) is finished;
     * if the next buffer was drained (so it may be clean, and a caller may have seen it so), its tail
     * is set to a term id no rotation expects, so that caller can no longer rotate into it (a buffer
     * not drained yet was never clean, and keeps its term's tail for the drainer); and the rest of
     * the active term is padded, as a caller that does not fit would. Afterwards every reservation
     * ever made here lies in the terms up to the active one, below tails at or past the buffer's end.
     *
     * @param drainTerm the term the drainer drains now: terms below it are drained
     */
    public void seal(long drainTerm) {
        states.retire();
        for (;;) {
            final long active = journal.activeTermCountAcquire();
            final long next = active + 1;
            final int nextIndex = (int) (next % bufferCount);
            final long nextTail = journal.rawTailVolatile(nextIndex);
            if (termId(nextTail) == (int) next) {
                journal.casActiveTermCount(active, next); // finish the rotation a caller began
                continue;
            }
            final long held = next - bufferCount; // the term the next buffer held
            final int sealedId = (int) held - 1; // neither the term it held nor one it could host
            if (held < drainTerm && termId(nextTail) != sealedId
                    && !journal.casRawTail(nextIndex, nextTail, packTail(sealedId, bufferSize))) {
                continue; // a caller moved it meanwhile: look again
            }
            final long reservation = reserveLarge((int) (active % bufferCount), bufferSize + FRAME_ALIGNMENT); // closes the term
            if (reservation != FULL) {
                writePadding(journal, position(reservation), restOf(reservation), termIdOf(reservation));
            }
            if (journal.activeTermCountAcquire() == active) {
                return;
            }
        }
    }

    /** Whether the buffer of term {@code termCount} is clean for it (the drainer has drained what it held before). */
    public boolean isClean(long termCount) {
        return states.isCleanFor((int) (termCount % bufferCount), termCount);
    }

    /**
     * Makes term {@code termCount + 1} active if its buffer is clean. The next buffer's tail is set
     * to {@code (nextTermId, termStart)} before the active term count moves; either step may be
     * done by any of the racing callers, and each is done once.
     */
    public Rotation tryRotate(long termCount) {
        final long next = termCount + 1;
        final int nextIndex = (int) (next % bufferCount);
        if (!states.isCleanFor(nextIndex, next)) {
            return journal.activeTermCountAcquire() != termCount ? Rotation.MOVED : Rotation.NOT_READY;
        }
        final int start = journal.termStartVolatile(nextIndex);
        for (long rawTail = journal.rawTailVolatile(nextIndex); termId(rawTail) != (int) next;
                rawTail = journal.rawTailVolatile(nextIndex)) {
            if (termId(rawTail) != (int) (next - bufferCount)) {
                return Rotation.MOVED; // our view is stale: the buffer already hosts a later term
            }
            if (journal.casRawTail(nextIndex, rawTail, packTail((int) next, start))) {
                CrashPoint.reached(CrashPoint.BEFORE_ACTIVE_TERM_MOVES);
                break;
            }
        }
        return journal.casActiveTermCount(termCount, next) ? Rotation.ROTATED : Rotation.MOVED;
    }
}
