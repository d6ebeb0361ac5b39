package io.github.lockfreelog.drain;

import io.github.lockfreelog.diagnostics.DropReason;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Every number the engine reports. Callers touch only striped {@link LongAdder}s (no shared
 * cache line between threads; a cell is allocated once per contended stripe, never per event),
 * and the engine keeps its own references to the two they count every call with, so that callers
 * never read this object. Fields written by the drainer alone are volatile longs with a single
 * writer; the two it writes on every pass ({@link #countWritten}) sit in the middle of an array of
 * their own, 128 bytes from anything else, so that no object a caller reads shares their line.
 *
 * <p>Accounting identity: {@code appended = written + dropped + inFlight}.
 */
public final class JournalCounters {

    public final LongAdder appended = new LongAdder();
    /** Calls that have left {@code append}; with {@link #appended} it tells how many are inside. */
    public final LongAdder exited = new LongAdder();
    public final LongAdder[] drops = new LongAdder[DropReason.values().length];
    public final LongAdder truncated = new LongAdder();
    public final LongAdder swaps = new LongAdder();
    public final LongAdder waits = new LongAdder();
    public final LongAdder waitTotalNanos = new LongAdder();
    public final AtomicLong waitMaxNanos = new AtomicLong();

    /**
     * Counted with a plain read-modify-write, which calls no method, by a caller whose accounting
     * itself failed with an {@code Error} (a second stack overflow): racy, but such calls are rare.
     */
    public volatile long lateIoDrops;
    public volatile long lateExits;
    /** Events of callers that failed and could not settle their frame: settled, and counted, by the drainer. */
    public volatile long orphanDrops;

    /** Events and bytes written, at {@link #EVENTS} and {@link #BYTES}, padded by 128 bytes on each side. */
    private final long[] written = new long[WRITTEN_LENGTH];
    private static final int EVENTS = 16;
    private static final int BYTES = 17;
    private static final int WRITTEN_LENGTH = 34;
    private static final VarHandle WRITTEN = MethodHandles.arrayElementVarHandle(long[].class);
    public volatile long recoveredFrames;
    public volatile long recoveredBytes;
    public volatile long skippedFrames;
    public volatile long unblocked;
    public volatile long drainerErrors;
    public volatile String lastError;
    /** Wall-clock time of the first failure of the current episode of drainer errors; 0 when none is going on. */
    public volatile long failingSinceEpochMillis;

    public JournalCounters() {
        for (int i = 0; i < drops.length; i++) {
            drops[i] = new LongAdder();
        }
    }

    /** Counts {@code events} events of {@code bytes} bytes written (the drainer's alone: a single writer). */
    public void countWritten(long events, long bytes) {
        WRITTEN.setVolatile(written, EVENTS, (long) WRITTEN.getVolatile(written, EVENTS) + events);
        WRITTEN.setVolatile(written, BYTES, (long) WRITTEN.getVolatile(written, BYTES) + bytes);
    }

    /** Events written to the log since start (recovered ones not included). */
    public long eventsWritten() {
        return (long) WRITTEN.getVolatile(written, EVENTS);
    }

    /** Bytes written to the log since start (recovered ones not included). */
    public long bytesWritten() {
        return (long) WRITTEN.getVolatile(written, BYTES);
    }

    public void drop(DropReason reason) {
        drops[reason.ordinal()].increment();
    }

    /** Counts {@code events} dropped for {@code reason} at once (the drainer's, for a sink that left them out). */
    public void drop(DropReason reason, int events) {
        drops[reason.ordinal()].add(events);
    }

    public void recordWait(long nanos) {
        waits.increment();
        waitTotalNanos.add(nanos);
        long max;
        while (nanos > (max = waitMaxNanos.get()) && !waitMaxNanos.compareAndSet(max, nanos)) {
            // retry: another waiter raised the maximum meanwhile
        }
    }

    public long inside() {
        // exited first: every call counted there was counted in appended before
        long out = exited.sum() + lateExits;
        return appended.sum() - out;
    }
}
