package io.github.lockfreelog.logback.rolling;

import io.github.lockfreelog.diagnostics.StatusReporter;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Spaces out the attempts of a roll that fails and their reports: after a failure the live file is
 * written on for {@link #RETRY_NANOS} before the next attempt, and an ERROR status names the roll
 * and its cause at most every 10 s. Used by the drainer thread only.
 */
final class RollRetry {

    /** After a roll failed, how long the live file is written on before the roll is tried again. */
    static final long RETRY_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final long ERROR_REPORT_NANOS = TimeUnit.SECONDS.toNanos(10);

    private final StatusReporter status;
    /** Before this ({@link System#nanoTime()}) no roll is tried: the last one failed. */
    private long nextAttempt;
    private long lastReport;

    RollRetry(StatusReporter status) {
        this.status = status;
    }

    /** Whether a roll may be tried at {@code nanoTime}: none failed, or the last failure is {@link #RETRY_NANOS} old. */
    boolean allows(long nanoTime) {
        return nanoTime - nextAttempt >= 0;
    }

    /** A roll of {@code file} (to {@code target}, where it was chosen) failed: holds the next attempt back and reports it. */
    void failed(Path file, String target, Exception cause) {
        long now = System.nanoTime();
        nextAttempt = now + RETRY_NANOS;
        if (lastReport == 0 || now - lastReport > ERROR_REPORT_NANOS) {
            lastReport = now;
            status.error("rolling the log file " + file + (target == null ? "" : " to " + target) + " failed ("
                    + cause + "); the live file is written on, past its size or period, and the roll is tried again"
                    + " every " + TimeUnit.NANOSECONDS.toMillis(RETRY_NANOS) + " ms", cause);
        }
    }
}
