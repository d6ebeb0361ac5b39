package io.github.lockfreelog.term;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Which buffer is clean for which term: the one piece of state that callers and the drainer share
 * besides the journal itself. The drainer marks a buffer clean for the term it hosts next once it
 * has written that term's start and free slots; a caller rotates into a buffer only when it is
 * clean for exactly the next term.
 */
public final class BufferStates {

    /** Per buffer: the term count it is clean for and may host next; {@link #NEVER} once retired. */
    private final AtomicLongArray readyTerm;
    private static final long NEVER = -1;
    /** Written and read by the drainer alone. */
    private boolean retired;

    public BufferStates(int bufferCount) {
        this.readyTerm = new AtomicLongArray(bufferCount);
        for (int i = 0; i < bufferCount; i++) {
            readyTerm.set(i, i);
        }
    }

    boolean isCleanFor(int index, long termCount) {
        return readyTerm.get(index) == termCount;
    }

    /** Hands buffer {@code index} out for term {@code termCount} (release: its preparation is visible first). */
    public void markClean(int index, long termCount) {
        if (!retired) {
            readyTerm.set(index, termCount);
        }
    }

    /** No buffer is handed out again (the journal is retired); a caller that has not rotated yet never will. */
    void retire() {
        retired = true;
        for (int i = 0; i < readyTerm.length(); i++) {
            readyTerm.set(i, NEVER);
        }
    }

    /** Whether buffers are no longer handed out. */
    public boolean isRetired() {
        return retired;
    }
}
