package io.github.lockfreelog.term;

import static io.github.lockfreelog.term.JournalDescriptor.*;

import io.github.lockfreelog.term.FrameCodec.FrameKind;
import java.io.IOException;

/**
 * Walks the frames of one term and hands each to a {@link FrameHandler}: the one walk that the
 * drainer, recovery and tests share, so that all of them step over frames and re-synchronise
 * after damaged headers by the same rules ({@link FrameCodec}).
 *
 * <p>Offsets are relative to the buffer's base. A handler decides where the walk goes on: by the
 * common step ({@link #STEP}: a committed, claimed or abandoned frame is stepped over by its
 * length; after a free slot or a damaged header, the next plausible frame), from an offset of its
 * own (after it changed the frame, or waited for it), or not at all ({@link #STOP}).
 */
public final class TermReader {

    /** Returned by a handler: go on after this frame by the common step. */
    public static final int STEP = -1;
    /** Returned by a handler: end the walk at this frame. */
    public static final int STOP = -2;

    /** Handles one frame of a walk. */
    @FunctionalInterface
    public interface FrameHandler {
        /**
         * Handles the frame at {@code offset}, whose header (read with acquire) is {@code header}.
         *
         * @return the offset to go on from, {@link #STEP} or {@link #STOP}
         */
        int onFrame(int offset, long header, FrameKind kind) throws IOException;
    }

    /** Handles one committed data frame of a walk that recovery makes ({@link #readData}). */
    @FunctionalInterface
    public interface DataHandler {
        /** Handles the committed data frame at {@code offset}, of {@code length} bytes with its header. */
        void onData(int offset, int length) throws IOException;
    }

    /** Handles one term that a recovery reads ({@link #readTerms}). */
    @FunctionalInterface
    public interface TermHandler {
        /** Handles {@code [start, limit)} of term {@code term}, in the buffer at {@code base}. */
        void onTerm(long term, int base, int start, int limit) throws IOException;
    }

    private TermReader() {
    }

    /**
     * Hands {@code handler} each term a recovery reads, from term {@code term} at {@code offset} on, oldest first: a
     * term is read while its buffer still hosts it (the buffer's tail names it), from the later of {@code offset}
     * (for the first term; 0 after) and the term's start, up to its tail; at most one pass over the buffers.
     */
    public static void readTerms(Journal journal, long term, long offset, TermHandler handler) throws IOException {
        int bufferCount = journal.bufferCount();
        int bufferSize = journal.bufferSize();
        for (int seen = 0; seen < bufferCount; seen++, term++, offset = 0) {
            int index = (int) (term % bufferCount);
            long rawTail = journal.rawTailVolatile(index);
            if (termId(rawTail) != (int) term) {
                return;
            }
            int start = Math.max((int) offset, journal.termStartVolatile(index));
            handler.onTerm(term, journal.bufferBase(index), start, (int) Math.min(tailOffset(rawTail), bufferSize));
        }
    }

    /**
     * Walks the frames of term {@code termId} from {@code offset} up to {@code limit} as recovery reads them: each
     * committed data frame goes to {@code handler}, in order; padding and abandoned frames are stepped over (the
     * drainer left an abandoned frame out, and its writer wrote the event again); every other frame is one a writer
     * never finished (it died while copying, or before it wrote its header) or one that is damaged.
     *
     * @return how many unfinished or damaged frames the walk stepped over
     */
    public static long readData(Journal journal, int base, int offset, int limit, int termId, DataHandler handler)
            throws IOException {
        long[] skipped = {0};
        read(journal, base, offset, limit, termId, (at, header, kind) -> {
            switch (kind) {
                case COMMITTED:
                    if (headerType(header) == TYPE_DATA) {
                        handler.onData(at, headerLength(header));
                    }
                    break;
                case ABANDONED:
                    break;
                default:
                    skipped[0]++;
            }
            return STEP;
        });
        return skipped[0];
    }

    /**
     * Walks the frames of term {@code termId} in the buffer at {@code base}, from {@code offset} up
     * to {@code limit}.
     *
     * @return where the walk ended: {@code limit} or beyond, or the offset of the frame whose handler said {@link #STOP}
     */
    public static int read(Journal journal, int base, int offset, int limit, int termId, FrameHandler handler)
            throws IOException {
        while (offset < limit) {
            final long header = journal.getLongAcquire(base + offset);
            final FrameKind kind = FrameCodec.kindOf(header, limit - offset, termId);
            final int next = handler.onFrame(offset, header, kind);
            if (next == STOP) {
                return offset;
            }
            offset = next == STEP ? step(journal, base, offset, limit, header, kind) : next;
        }
        return offset;
    }

    /** Where the frame after the one at {@code offset} starts, by the common step. */
    public static int step(Journal journal, int base, int offset, int limit, long header, FrameKind kind) {
        switch (kind) {
            case COMMITTED:
                return offset + align(headerLength(header));
            case CLAIMED:
            case ABANDONED:
                return offset + align(-headerLength(header));
            default:
                return FrameCodec.nextPlausibleFrame(journal, base, offset + FRAME_ALIGNMENT, limit);
        }
    }
}
