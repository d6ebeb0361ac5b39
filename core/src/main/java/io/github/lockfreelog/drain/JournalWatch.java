package io.github.lockfreelog.drain;

import io.github.lockfreelog.diagnostics.StatusReporter;
import io.github.lockfreelog.journal.JournalLock;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Watches, a few times a second, whether the journal being drained is still on disk (see
 * {@link JournalLock#check}, which also puts back a lock file a sweep removed), has a new one
 * built when its file is gone, and unmaps replaced journals once no caller can touch them.
 */
final class JournalWatch {

    /** How often the drainer looks whether its journal and lock file are still on disk. */
    static final long CHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(200);
    /** How often a replacement for a journal gone from disk is tried while building one fails. */
    private static final long REPLACE_RETRY_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final EngineState state;
    private final JournalReplacer replacer;
    private final DrainFailures failures;
    private final StatusReporter status;
    /** Journals drained to their end, still mapped until no caller can touch them. */
    private final List<ActiveJournal> retired = new ArrayList<>();
    private long lastCheck;
    private long lastReplaceFailure;

    JournalWatch(EngineState state, JournalReplacer replacer, DrainFailures failures, StatusReporter status) {
        this.state = state;
        this.replacer = replacer;
        this.failures = failures;
        this.status = status;
    }

    /** Nanoseconds until the next check is due (at most the time to park for). */
    long nanosUntilCheck() {
        return lastCheck + CHECK_NANOS - System.nanoTime();
    }

    /**
     * Checks {@code current}, the journal being drained up to term {@code drainTerm}, if a check is
     * due. When its file is gone (its folder was deleted), a new journal is built for callers to
     * move to, and {@code current} is retired: the drainer drains it to its end first, so events of
     * both reach the log in order, and crash safety returns at once for new events.
     *
     * @param lookForLoss whether a journal gone from disk is to be replaced now (not while a
     *        replacement waits to be drained into, nor at stop)
     * @return the journal that replaces {@code current}, or {@code null}
     */
    ActiveJournal check(ActiveJournal current, long drainTerm, boolean lookForLoss) {
        long now = System.nanoTime();
        if (now - lastCheck < CHECK_NANOS) {
            return null;
        }
        lastCheck = now;
        if (!retired.isEmpty() && state.nobodyInside()) {
            closeRetired();
        }
        if (current.ledger != null) {
            current.ledger.refresh();
            current.ledgerEntry.lookForGoneOwners(); // writes that dead instances left in flight bound no more
        }
        if (current.lock == null || !lookForLoss || current.lock.check(status) == JournalLock.Check.INTACT
                || now - lastReplaceFailure < REPLACE_RETRY_NANOS) {
            return null;
        }
        Path gone = current.journal.path();
        ActiveJournal next;
        try {
            next = replacer.replace(current);
        } catch (IOException | RuntimeException e) {
            lastReplaceFailure = now;
            failures.failed(new IOException("the journal " + gone + " is gone from disk and a new one could not be made"
                    + " (tried again every second; events are kept in memory meanwhile): " + e.getMessage(), e));
            return null;
        }
        state.activate(next);
        current.retire(drainTerm);
        status.warn("the journal " + gone + " was deleted while in use (its folder removed?); new events are kept in"
                + " the journal " + next.journal.path() + ", and those still in the deleted one are written to the log"
                + " first", null);
        return next;
    }

    /** Takes {@code drained}, a replaced journal drained to its end: its files go now, its mapping once no caller can touch it. */
    void retired(ActiveJournal drained) {
        drained.releaseFiles(); // its files are gone from disk; only its mapping waits for callers
        retired.add(drained);
    }

    /** Unmaps the journals retired and drained so far; no caller may touch them any more. */
    void closeRetired() {
        for (ActiveJournal old : retired) {
            close(old);
        }
        retired.clear();
    }

    static void close(ActiveJournal old) {
        try {
            old.close(false);
        } catch (IOException | RuntimeException e) {
            // unmapped regardless; its file is gone
        }
    }
}
