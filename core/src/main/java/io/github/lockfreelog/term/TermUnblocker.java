package io.github.lockfreelog.term;

import static io.github.lockfreelog.term.JournalDescriptor.*;

import java.util.Arrays;

/**
 * Passes over writers that stall, so that one stalled thread can never stop the log. Used by the
 * drainer alone.
 *
 * <ul>
 *   <li>A frame is <em>overdue</em> once the drainer has waited {@code unblockTimeout} for it.
 *       The wait starts when the drainer first finds the frame unfinished, in the active term as
 *       in a dirty one; it does not start again at each frame: every frame reserved before the
 *       wait began (below the tail seen then) is overdue as soon as the first one is.</li>
 *   <li>An overdue reservation whose header was never written is padded over, 8 bytes at a time
 *       with compare-and-set, up to the next written header; the writer's claim then fails and it
 *       reserves again.</li>
 *   <li>An overdue frame claimed mid-copy is abandoned (left out of the log). Until its writer
 *       resumes and acknowledges it, later terms of its buffer start after it, so the late copy
 *       lands in its own frame only; the rest of the buffer is used as before.</li>
 * </ul>
 */
public final class TermUnblocker {

    private final Journal journal;
    private final long timeoutNanos;

    /** The frame being waited for (absolute position), since when, and the tail then. */
    private int waitingAt = -1;
    private long waitingSince;
    private int tailWhenWaitBegan;
    /** Frames below this absolute position are overdue (they were reserved before a wait that timed out). */
    private int overdueBelow = -1;

    /** Per buffer: abandoned frames not yet acknowledged (absolute position, end). */
    private final int[][] abandoned;
    private final int[] abandonedCount;

    public TermUnblocker(Journal journal, long timeoutNanos) {
        this.journal = journal;
        this.timeoutNanos = timeoutNanos;
        this.abandoned = new int[journal.bufferCount()][8];
        this.abandonedCount = new int[journal.bufferCount()];
    }

    /** Forgets the wait: the drainer moved to another term. */
    public void termChanged() {
        waitingAt = -1;
        overdueBelow = -1;
    }

    /**
     * Whether the unfinished frame at {@code at} is overdue. {@code tail} is the absolute position
     * of the term's tail now (the buffer's end for a dirty term).
     */
    public boolean overdue(int at, int tail, long now) {
        if (at < overdueBelow) {
            return true;
        }
        if (at != waitingAt) {
            waitingAt = at;
            waitingSince = now;
            tailWhenWaitBegan = tail;
            return false;
        }
        if (now - waitingSince >= timeoutNanos) {
            overdueBelow = tailWhenWaitBegan;
            return true;
        }
        return false;
    }

    /** Since when the drainer waits for the frame at {@code at} (for reports). */
    public long waitingSince() {
        return waitingSince;
    }

    /**
     * Pads over a reservation of term {@code termId} at {@code at} whose header was never written,
     * and over the free slots after it up to {@code end} or the next written header.
     *
     * @return whether the first slot was padded (else its writer claimed it meanwhile)
     */
    public boolean padOver(int at, int end, int termId) {
        if (!TermAppender.writePadding(journal, at, FRAME_ALIGNMENT, termId)) {
            return false;
        }
        for (int next = at + FRAME_ALIGNMENT; next < end; next += FRAME_ALIGNMENT) {
            if (!TermAppender.writePadding(journal, next, FRAME_ALIGNMENT, termId)) {
                break;
            }
        }
        return true;
    }

    /**
     * Abandons the frame claimed mid-copy at {@code at} in buffer {@code index}.
     *
     * @return {@code false} if the writer committed meanwhile
     */
    public boolean abandon(int index, int at, long claimed) {
        int length = headerLength(claimed);
        if (!journal.casLong(at, claimed, header(length, TYPE_ABANDONED))) {
            return false;
        }
        int[] frames = abandoned[index];
        int count = abandonedCount[index];
        if (count + 2 > frames.length) {
            abandoned[index] = frames = Arrays.copyOf(frames, frames.length * 2);
        }
        frames[count] = at;
        frames[count + 1] = at + align(-length);
        abandonedCount[index] = count + 2;
        return true;
    }

    /**
     * Where the next term of buffer {@code index} may start (relative to the buffer): after every
     * abandoned frame there whose writer has not acknowledged it yet; 0 when there is none.
     */
    public int nextTermStart(int index) {
        int[] frames = abandoned[index];
        int kept = 0;
        int end = 0;
        for (int i = 0; i < abandonedCount[index]; i += 2) {
            if (headerType(journal.getLongVolatile(frames[i])) != TYPE_ACKNOWLEDGED) {
                frames[kept] = frames[i];
                frames[kept + 1] = frames[i + 1];
                kept += 2;
                end = Math.max(end, frames[i + 1]);
            }
        }
        abandonedCount[index] = kept;
        return kept == 0 ? 0 : end - journal.bufferBase(index);
    }
}
