package io.github.lockfreelog.drain;

import io.github.lockfreelog.journal.JournalLock;
import io.github.lockfreelog.journal.WriteLedger;
import io.github.lockfreelog.term.BufferStates;
import io.github.lockfreelog.term.Journal;
import io.github.lockfreelog.term.TermAppender;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One journal as callers and the drainer use it: its memory, the callers' side of it
 * ({@link TermAppender}), which of its buffers are clean ({@link BufferStates}), the hints that
 * failed callers leave in it, and the hold on its file. The engine writes into one at a time; when
 * the file of the one in use is gone from disk (its folder deleted), the drainer builds another,
 * callers move to it, and the old one is {@link #retire retired}: sealed to writers, drained to its
 * end, and unmapped once no caller can still touch it.
 */
public final class ActiveJournal {

    /**
     * Hints left by callers that failed between reserving and committing (a stack overflow, a
     * fault in mapped memory): {@code (termId << 32) | position} at index {@code (position >>> 3) % 256}.
     * Written with a plain array store, which calls no method and so cannot itself overflow the
     * stack; the drainer settles a frame it waits for at once when a hint names it (a hint names
     * one reservation: a position is reserved once per term). Whoever clears the hint
     * ({@link #takeOrphan}) counts the event: the caller, once its own settling worked, or the
     * drainer, when the caller's failed too; never both. A hint of a caller whose settling failed
     * can be overwritten by another such caller's at the same index before the drainer reaches it:
     * that first event is then counted nowhere (two faults in one append, twice within 2 KB of the
     * drainer's lag).
     */
    public static final int ORPHAN_HINTS = 256;
    private static final VarHandle ORPHAN = MethodHandles.arrayElementVarHandle(long[].class);

    public final Journal journal;
    final BufferStates states;
    public final TermAppender appender;
    public final long[] orphans = new long[ORPHAN_HINTS];
    /** The hold on the journal's file; {@code null} for a journal of the model check, which has no file. */
    public final JournalLock lock;
    /** The log file's write ledger, mapped for this journal, and the journal's entry in it; {@code null} without one. */
    final WriteLedger ledger;
    final WriteLedger.Entry ledgerEntry;
    /**
     * Set (and never cleared) once a caller left a hint, before it settles its frame: should that
     * settling fail after it committed the frame (as data or padding), the drainer, which then
     * looks for hints at committed frames too, counts the event.
     */
    public volatile boolean orphansLeft;
    /** Set once callers must move on to the engine's next journal. */
    private volatile boolean retired;

    public ActiveJournal(Journal journal, JournalLock lock, WriteLedger ledger, int ledgerEntry) {
        this.journal = journal;
        this.lock = lock;
        this.ledger = ledger;
        this.ledgerEntry = ledger == null ? null : ledger.entry(ledgerEntry);
        this.states = new BufferStates(journal.bufferCount());
        this.appender = new TermAppender(journal, states);
    }

    /**
     * Lets the files of a replaced journal go once the drainer is done with it (its lock, which
     * holds a file gone from disk, and its ledger mapping, which only the drainer used); the journal
     * stays mapped for callers that may still touch it, until {@link #close}.
     */
    void releaseFiles() {
        try {
            if (ledger != null) {
                ledger.close();
            }
        } catch (IOException e) {
            // unmapped regardless
        } finally {
            if (lock != null) {
                lock.close();
            }
        }
    }

    /** Unmaps the journal and the ledger, and lets the file go: no caller may touch it any more. */
    public void close(boolean empty) throws IOException {
        try {
            if (empty) {
                journal.closeAndEmpty();
            } else {
                journal.close();
            }
        } finally {
            try {
                if (ledger != null) {
                    ledger.close();
                }
            } finally {
                if (lock != null) {
                    lock.close();
                }
            }
        }
    }

    /** Whether callers must leave this journal for the engine's current one. */
    public boolean isRetired() {
        return retired;
    }

    /**
     * Retires this journal (the drainer, once the engine's current journal is another): callers
     * that still find it move on, no buffer is handed out again, and the active term is closed, so
     * that everything ever written here lies in the terms up to the active one.
     *
     * @param drainTerm the term the drainer drains now in this journal
     */
    public void retire(long drainTerm) {
        retired = true;
        appender.seal(drainTerm);
    }

    /** Whether a failed caller left a hint for the reservation at {@code at} of term {@code termId}. */
    boolean isOrphan(int at, int termId) {
        return (long) ORPHAN.getVolatile(orphans, hintIndex(at)) == hint(at, termId);
    }

    /** Clears the hint for the reservation at {@code at} of term {@code termId}; returns whether this call did. */
    public boolean takeOrphan(int at, int termId) {
        long hint = hint(at, termId);
        return ORPHAN.compareAndSet(orphans, hintIndex(at), hint, 0L);
    }

    static int hintIndex(int at) {
        return (at >>> 3) & (ORPHAN_HINTS - 1);
    }

    static long hint(int at, int termId) {
        return ((long) termId << 32) | at;
    }
}
