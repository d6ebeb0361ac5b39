package io.github.lockfreelog.drain;

import io.github.lockfreelog.diagnostics.Printable;
import io.github.lockfreelog.diagnostics.StatusReporter;
import io.github.lockfreelog.sink.LogClosedException;
import io.github.lockfreelog.sink.ReaderGoneException;
import io.github.lockfreelog.sink.RecordSink;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Keeps the record of the drainer's failures: counts each, remembers the last, marks the episode
 * (callers then count drops as {@code io}), reports at most one error every 10 seconds (a console
 * whose reader went away, once), and says once when writing works again.
 */
final class DrainFailures {

    /** How long the drainer waits before it tries again after a failure. */
    static final long RETRY_NANOS = TimeUnit.MILLISECONDS.toNanos(500);
    private static final long REPORT_EVERY_NANOS = TimeUnit.SECONDS.toNanos(10);

    private final EngineState state;
    private final JournalCounters counters;
    private final StatusReporter status;
    /** What failed, in the reports: "writing the log file", "delivering events to the record sink". */
    private final String action;
    private long lastReport;
    /** Whether the last failure was the console's reader gone: said once, until writing works again. */
    private boolean readerGone;

    DrainFailures(EngineState state, StatusReporter status, String action) {
        this.state = state;
        this.action = action;
        this.counters = state.counters;
        this.status = status;
    }

    /**
     * Records a failure of the drainer's step. A log found closed (by a stop that timed out while
     * this drainer was busy) is said once, as a WARN: the drainer then ends.
     */
    void failed(Throwable e) {
        if (!state.ioFailing()) {
            counters.failingSince(System.currentTimeMillis()); // retries keep the episode's start
        }
        state.ioFailing(true);
        String message = e.getClass().getSimpleName() + ": " + e.getMessage();
        counters.countDrainerError(Printable.withoutAddresses(message)); // shown to whoever reads the endpoint
        if (e instanceof LogClosedException) {
            status.warn(e.getMessage(), null); // the drainer ends: said once
            return;
        }
        long now = System.nanoTime();
        boolean readerStillGone = e instanceof ReaderGoneException && readerGone;
        readerGone = e instanceof ReaderGoneException;
        if (!readerStillGone && (now - lastReport > REPORT_EVERY_NANOS || lastReport == 0)) {
            lastReport = now;
            status.error(action + " failed (retrying every " + TimeUnit.NANOSECONDS.toMillis(RETRY_NANOS)
                    + " ms; events stay in the journal meanwhile): " + message, e);
        }
    }

    /**
     * Records a failed try of the backlog (what a record sink must take before the journal's events): counted and
     * kept as {@link #failed} does; the first of an outage ({@code first}) marks it (health says DOWN, a full
     * journal's drops count as {@code io}) and says once where the events wait: an ERROR where the sink refused
     * them (a setting or a grant to change), a WARN for an outage. The drainer tries again, with growing waits.
     */
    void backlogFailed(Throwable e, boolean first, Path journal, long retryMaxNanos) {
        counters.countDrainerError(Printable.withoutAddresses(e.getClass().getSimpleName() + ": " + e.getMessage()));
        if (!first) {
            return;
        }
        counters.failingSince(System.currentTimeMillis());
        state.ioFailing(true);
        String message = "the sink cannot take events yet (" + e.getMessage() + "); events gather in the journal "
                + journal + " and go out, oldest first, once it can (retrying every "
                + TimeUnit.NANOSECONDS.toMillis(retryMaxNanos) + " ms at most); this is said once";
        if (e instanceof RecordSink.RefusedException) {
            status.error(message, null);
        } else {
            status.warn(message, null);
        }
    }

    /** Records that the backlog went out after {@code failedTries} failed tries; ends the outage. */
    void backlogSent(int failedTries) {
        state.ioFailing(false);
        counters.failingSince(0);
        status.info("the sink takes events again after " + failedTries + " failed tries; the events that gathered"
                + " meanwhile go out now, in order");
    }

    /** Records that a write to the log file worked; ends an episode of failures. */
    void wrote() {
        readerGone = false;
        if (state.ioFailing()) {
            state.ioFailing(false);
            counters.failingSince(0);
            status.info(action + " works again");
        }
    }
}
