package io.github.lockfreelog.journal;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Which buffer is clean for which term: the one piece of state that callers and the drainer share
 * besides the journal itself. The drainer marks a buffer clean for the term it hosts next once it
 * has written that term's start and free slots; a caller rotates into a buffer only when it is
 * clean for exactly the next term.
 */
final class BufferStates {

    /** Per buffer: the term count it is clean for and may host next. */
    private final AtomicLongArray readyTerm;

    BufferStates(int bufferCount) {
        this.readyTerm = new AtomicLongArray(bufferCount);
        for (int i = 0; i < bufferCount; i++) {
            readyTerm.set(i, i);
        }
    }

    boolean isCleanFor(int index, long termCount) {
        return readyTerm.get(index) == termCount;
    }

    /** Hands buffer {@code index} out for term {@code termCount} (release: its preparation is visible first). */
    void markClean(int index, long termCount) {
        readyTerm.set(index, termCount);
    }
}
