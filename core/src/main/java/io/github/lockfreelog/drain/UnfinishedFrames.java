package io.github.lockfreelog.drain;

import static io.github.lockfreelog.term.JournalDescriptor.*;

import io.github.lockfreelog.diagnostics.StatusReporter;
import io.github.lockfreelog.term.FrameCodec;
import io.github.lockfreelog.term.Journal;
import io.github.lockfreelog.term.TermAppender;
import io.github.lockfreelog.term.TermUnblocker;
import java.util.concurrent.TimeUnit;

/**
 * Settles the frames the drainer finds unfinished: those of callers that failed between reserving
 * and committing (they left a hint in the {@link ActiveJournal}), and those of writers that
 * stalled, once the {@link TermUnblocker} finds them overdue; and counts the events of both.
 */
final class UnfinishedFrames {

    private final JournalCounters counters;
    private final StatusReporter status;
    private ActiveJournal draining;
    private Journal journal;
    private TermUnblocker unblocker;

    UnfinishedFrames(JournalCounters counters, StatusReporter status) {
        this.counters = counters;
        this.status = status;
    }

    /** The drainer moved on to {@code draining}, whose stalled frames {@code unblocker} watches. */
    void journalChanged(ActiveJournal draining, TermUnblocker unblocker) {
        this.draining = draining;
        this.journal = draining.journal;
        this.unblocker = unblocker;
    }

    /**
     * Settles the unfinished frame at {@code at} (buffer {@code index}, whose tail is at
     * {@code tail}, in term {@code termId}) if its caller failed or it is overdue. Returns whether
     * the walk may go on past it.
     */
    boolean settle(int index, int at, long header, int tail, int termId) {
        if (draining.takeOrphan(at, termId)) {
            // its caller failed before finishing, and its own attempt to settle it failed too (or
            // has not come yet: taking the hint leaves the settling and the counting to us)
            if (!settleOrphan(at, tail, termId)) {
                counters.countOrphanDrop();
            }
            return true;
        }
        long now = System.nanoTime();
        if (!unblocker.overdue(at, tail, now)) {
            return false;
        }
        if (headerLength(header) == 0) {
            if (unblocker.padOver(at, tail, termId)) {
                counters.countUnblocked();
            }
            return true;
        }
        if (unblocker.abandon(index, at, header)) {
            counters.countUnblocked();
            status.warn("a writer stalled for over " + TimeUnit.NANOSECONDS.toMillis(now - unblocker.waitingSince())
                    + " ms while copying its event (journal offset " + at + "): its frame is left out, the"
                    + " writer writes the event again when it resumes, and later terms of this buffer start"
                    + " after the frame until then", null);
        }
        return true;
    }

    /**
     * Settles the frame at {@code at} of a caller that failed, as it is now (the caller may have
     * changed it since the scan read it): a free slot is padded over, a claimed frame committed as
     * padding. Returns whether it holds a committed data frame (its event is written, not dropped).
     */
    private boolean settleOrphan(int at, int tail, int termId) {
        final long data = (long) TYPE_DATA << 32;
        for (int tries = 0; tries < 3; tries++) {
            long header = journal.getLongAcquire(at);
            if (FrameCodec.isCommitted(header, journal.bufferSize())) {
                return (header & 0xFFFF_FFFF_0000_0000L) == data;
            }
            if (headerLength(header) == 0) {
                unblocker.padOver(at, tail, termId);
            } else {
                TermAppender.settleClaimed(journal, at, header);
            }
        }
        return false;
    }

    /**
     * A committed frame at {@code at}, looked at while callers have left hints: if its caller
     * failed after all its effects, even settling, but could not count them, a data frame is
     * written (not a drop), any other is its event dropped.
     */
    void countCommitted(int at, long header, int termId) {
        // looked at first, as most committed frames have no hint: a compare-and-set only for one that has
        if (draining.isOrphan(at, termId) && draining.takeOrphan(at, termId) && headerType(header) != TYPE_DATA) {
            counters.countOrphanDrop();
        }
    }
}
