package io.github.lockfreelog.logback.encoder;

import ch.qos.logback.core.spi.ContextAware;
import io.github.lockfreelog.diagnostics.DropReason;
import io.github.lockfreelog.engine.JournalEngine;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Events whose encoding threw on the caller's thread (an encoder, or a converter such as {@code %kvp} over a value
 * whose {@code toString()} throws): each is counted as dropped with reason {@code encoding}, and an ERROR status
 * names the appender and the exception at most once every 10 seconds, so that a faulty value logged in a loop
 * neither floods the status manager nor goes unseen. Nothing reaches the caller.
 */
public final class EncodingFailures {

    private static final long REPORT_EVERY_NANOS = TimeUnit.SECONDS.toNanos(10);
    /** {@link #lastReport}'s value before the first report. */
    private static final long NEVER = Long.MIN_VALUE;

    private final ContextAware status;
    private final String suffix;
    private final AtomicLong lastReport = new AtomicLong(NEVER);

    public EncodingFailures(ContextAware status, String suffix) {
        this.status = status;
        this.suffix = suffix;
    }

    /** Counts the event whose encoding threw {@code failure} and reports it, unless another report is recent. */
    public void failed(JournalEngine engine, Throwable failure) {
        engine.countDropped(DropReason.ENCODING);
        long now = System.nanoTime();
        long last = lastReport.get();
        if ((last == NEVER || now - last > REPORT_EVERY_NANOS) && lastReport.compareAndSet(last, now)) {
            status.addError("An event was dropped" + suffix + " because encoding it threw " + failure
                    + " (counted under the drop reason \"encoding\"; reported at most every 10 seconds, see the"
                    + " appender's statistics for the count)", failure);
        }
    }
}
