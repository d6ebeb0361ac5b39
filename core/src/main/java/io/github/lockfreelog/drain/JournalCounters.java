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
     * The only fields written from outside, for that reason (a method call may overflow the stack again);
     * {@code JournalEngine} alone writes them.
     */
    public volatile long lateIoDrops;
    public volatile long lateExits;
    /** Events of callers that failed and could not settle their frame: settled, and counted, by the drainer. */
    private volatile long orphanDrops;

    /** Events and bytes written, at {@link #EVENTS} and {@link #BYTES}, padded by 128 bytes on each side. */
    private final long[] written = new long[WRITTEN_LENGTH];
    private static final int EVENTS = 16;
    private static final int BYTES = 17;
    private static final int WRITTEN_LENGTH = 34;
    private static final VarHandle WRITTEN = MethodHandles.arrayElementVarHandle(long[].class);
    // Written by one thread at a time (the start, then the drainer), read by any: volatile, plain increments.
    private volatile long recoveredFrames;
    private volatile long recoveredBytes;
    private volatile long skippedFrames;
    private volatile long unblocked;
    private volatile long drainerErrors;
    private volatile String lastError;
    /** Wall-clock time of the first failure of the current episode of drainer errors; 0 when none is going on. */
    private volatile long failingSinceEpochMillis;

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

    /** Counts what a recovery found: events and bytes written again, frames it could not read (the start's, then a backlog's). */
    public void countRecovered(long frames, long bytes, long skipped) {
        recoveredFrames += frames;
        recoveredBytes += bytes;
        skippedFrames += skipped;
    }

    public long recoveredFrames() {
        return recoveredFrames;
    }

    public long recoveredBytes() {
        return recoveredBytes;
    }

    /** Frames passed over: unreadable at recovery, and those of stalled writers the drainer unblocked. */
    public long skippedFrames() {
        return skippedFrames + unblocked;
    }

    /** Counts a frame of a stalled writer passed over (the drainer's alone). */
    void countUnblocked() {
        unblocked++;
    }

    /** Counts an event of a caller that failed and could not settle its frame (the drainer's alone). */
    void countOrphanDrop() {
        orphanDrops++;
    }

    /** Events lost to I/O faults outside the drop counters: callers' late drops and orphaned frames. */
    public long lateIoDrops() {
        return lateIoDrops + orphanDrops;
    }

    /** Counts a failure of the drainer, kept as {@code lastError} (already made printable). */
    void countDrainerError(String printableError) {
        drainerErrors++;
        lastError = printableError;
    }

    public long drainerErrors() {
        return drainerErrors;
    }

    public String lastError() {
        return lastError;
    }

    /** Marks the start of an episode of failures ({@code 0}: none is going on). */
    void failingSince(long epochMillis) {
        failingSinceEpochMillis = epochMillis;
    }

    public long failingSinceEpochMillis() {
        return failingSinceEpochMillis;
    }
}
