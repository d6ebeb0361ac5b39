package io.github.lockfreelog.logback.rolling;

import ch.qos.logback.core.Context;
import ch.qos.logback.core.rolling.helper.ArchiveRemover;
import ch.qos.logback.core.rolling.helper.SizeAndTimeBasedArchiveRemover;
import ch.qos.logback.core.rolling.helper.TimeBasedArchiveRemover;
import io.github.lockfreelog.diagnostics.StatusReporter;
import java.time.Instant;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Deletes the old archives of one file name pattern for {@code maxHistory} and {@code totalSizeCap},
 * through Logback's own {@link ArchiveRemover}.
 */
final class HistoryCleanup {

    private final ArchiveRemover remover;
    private final StatusReporter status;

    private HistoryCleanup(ArchiveRemover remover, StatusReporter status) {
        this.remover = remover;
        this.status = status;
    }

    /** The clean-up for these archives, or {@code null} where neither {@code maxHistory} nor {@code totalSizeCap} is set. */
    static HistoryCleanup of(ArchiveNaming naming, int maxHistory, long totalSizeCap, Context context, StatusReporter status) {
        if (maxHistory <= 0 && totalSizeCap <= 0) {
            return null;
        }
        TimeBasedArchiveRemover remover = naming.indexed()
                ? new SizeAndTimeBasedArchiveRemover(naming.pattern(), naming.calendar())
                : new TimeBasedArchiveRemover(naming.pattern(), naming.calendar());
        remover.setContext(context);
        remover.setMaxHistory(maxHistory);
        remover.setTotalSizeCap(totalSizeCap);
        return new HistoryCleanup(remover, status);
    }

    /**
     * Applies maxHistory and totalSizeCap as at {@code now}. Logback applies the size cap only in
     * its asynchronous clean-up, so that is what runs here; waiting for it on the archiver thread
     * keeps clean-up and compression from overlapping.
     */
    void run(long now) {
        try {
            remover.cleanAsynchronously(Instant.ofEpochMilli(now)).get(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            status.warn("cleaning old rolled files failed", e);
        }
    }
}
