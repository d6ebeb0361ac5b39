package io.github.lockfreelog.journal;

import static io.github.lockfreelog.journal.JournalDescriptor.*;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The one background thread of an appender. It writes the payloads of committed frames to the
 * log file (copied through a staging buffer, one write per megabyte), records in the journal how
 * far the log file reached, zeroes each drained buffer (which also pre-touches its pages for the
 * next writers) and marks it clean. Between flush intervals it parks; a swap or a waiting caller
 * unparks it.
 *
 * <p>Frames of a dirty term are waited for until committed. A reservation whose writer has not
 * even written its header after {@code unblockTimeout} is padded over, 8 bytes at a time with
 * compare-and-set, so one stalled thread cannot stop the log; the stalled writer's own
 * compare-and-set then fails and it reserves again, so its event is not lost.
 */
final class Drainer implements Runnable {

    private static final int STAGING_BYTES = 1 << 20;
    private static final long FAULT_SAMPLE_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final long IO_RETRY_NANOS = TimeUnit.MILLISECONDS.toNanos(500);
    private static final long COMMIT_PARK_NANOS = TimeUnit.MICROSECONDS.toNanos(50);

    private final JournalEngine engine;
    private final Journal journal;
    private final LogSink sink;
    private final JournalCounters counters;
    private final StatusReporter status;
    private final int bufferCount;
    private final int bufferSize;
    private final long flushIntervalNanos;
    private final long unblockTimeoutNanos;

    /**
     * Payloads are copied from the mapping into this buffer and written with one call. (A gathering
     * write of one vector entry per event was measured first: the kernel's page-cache path costs
     * about as much per entry as per page, which made the drainer 3 times slower for 150-byte lines.)
     */
    private final ByteBuffer staging = ByteBuffer.allocateDirect(STAGING_BYTES);
    /** A view of the whole mapping: the source of copies into staging (its limit never changes). */
    private final ByteBuffer mapping;
    /** A second view, positioned on an event larger than staging, which is written straight from the mapping. */
    private final ByteBuffer large;
    /** What is being written now (staging, or a large event's view); kept across a failed write to resume it. */
    private final ByteBuffer[] out = new ByteBuffer[1];
    private int batchEvents;
    private long batchBytes;

    /** Term being drained and the offset in it up to which everything reached the log file. */
    volatile long drainTerm;
    volatile int drainOffset;
    /** How far frames were gathered into the pending batch. */
    private int scanOffset;
    private long drainSeq;
    private long lastLogSize;

    /** Per buffer: offsets of frames abandoned in the term it holds, and how many. */
    private final int[][] abandoned;
    private final int[] abandonedCount;
    /** Per buffer: the term it will host once its abandoned frames are acknowledged, or -1. */
    private final long[] quarantinedUntil;

    private volatile boolean stopRequested;
    private volatile boolean finishedCleanly;
    private long lastFaultSample;
    volatile long[] threadFaults;
    volatile long[] threadFaultsAtStart;
    private long lastErrorReport;

    Drainer(JournalEngine engine, Journal journal, LogSink sink, JournalCounters counters, StatusReporter status,
            JournalEngine.Config config, long logSize, long firstSeq) {
        this.engine = engine;
        this.lastLogSize = logSize;
        this.drainSeq = firstSeq;
        this.journal = journal;
        this.sink = sink;
        this.counters = counters;
        this.status = status;
        this.bufferCount = config.bufferCount();
        this.bufferSize = config.bufferSize();
        this.flushIntervalNanos = config.flushIntervalNanos();
        this.unblockTimeoutNanos = config.unblockTimeoutNanos();
        this.mapping = journal.duplicate();
        this.abandoned = new int[bufferCount][4];
        this.abandonedCount = new int[bufferCount];
        this.quarantinedUntil = new long[bufferCount];
        java.util.Arrays.fill(quarantinedUntil, -1);
        this.large = journal.duplicate();
    }

    void requestStop() {
        stopRequested = true;
    }

    boolean finishedCleanly() {
        return finishedCleanly;
    }

    @Override
    public void run() {
        try {
            drain();
        } finally {
            engine.drainerExited();
        }
    }

    private void drain() {
        threadFaultsAtStart = ProcStat.threadFaults();
        threadFaults = threadFaultsAtStart;
        lastFaultSample = System.nanoTime();
        long nextFlush = System.nanoTime() + flushIntervalNanos;
        for (;;) {
            try {
                sampleFaults();
                releaseQuarantined();
                if (out[0] != null) {
                    writeBatch(); // a write that failed before: finish it first
                }
                long active = journal.activeTermCountAcquire();
                if (drainTerm < active) {
                    drainDirtyTerm();
                    continue;
                }
                if (stopRequested) {
                    drainActiveTerm(true);
                    finishedCleanly = true;
                    return;
                }
                long now = System.nanoTime();
                if (now - nextFlush >= 0) {
                    drainActiveTerm(false);
                    nextFlush = now + flushIntervalNanos;
                }
                if (journal.activeTermCountAcquire() == drainTerm && !stopRequested) {
                    LockSupport.parkNanos(this, Math.max(1, nextFlush - System.nanoTime()));
                }
            } catch (Throwable e) { // an I/O error, a fault in mapped memory, even an OutOfMemoryError: report, retry
                failed(e);
                if (engine.stopGaveUp()) {
                    return; // stop timed out and closed the log file: the next start recovers the journal
                }
                LockSupport.parkNanos(this, IO_RETRY_NANOS);
            }
        }
    }

    private void failed(Throwable e) {
        engine.ioFailing = true;
        counters.drainerErrors++;
        String message = e.getClass().getSimpleName() + ": " + e.getMessage();
        counters.lastError = message;
        long now = System.nanoTime();
        if (now - lastErrorReport > TimeUnit.SECONDS.toNanos(10) || lastErrorReport == 0) {
            lastErrorReport = now;
            status.error("writing the log file failed (retrying every " + TimeUnit.NANOSECONDS.toMillis(IO_RETRY_NANOS)
                    + " ms; events stay in the journal meanwhile): " + message, e);
        }
    }

    private void sampleFaults() {
        long now = System.nanoTime();
        if (now - lastFaultSample >= FAULT_SAMPLE_NANOS) {
            lastFaultSample = now;
            long[] faults = ProcStat.threadFaults();
            if (faults != null) {
                threadFaults = faults;
            }
        }
    }

    /** Drains the whole of term {@link #drainTerm}, which writers have left, then cleans its buffer. */
    private void drainDirtyTerm() throws IOException {
        final int index = (int) (drainTerm % bufferCount);
        final int base = journal.bufferBase(index);
        while (scanOffset < bufferSize) {
            final int at = base + scanOffset;
            int length = journal.getIntAcquire(at + FRAME_LENGTH_OFFSET);
            if (length <= 0) {
                writeBatch();
                length = awaitCommit(at, bufferSize - scanOffset);
            }
            if (!plausible(at, length, bufferSize)) {
                continue;
            }
            gather(at, length);
        }
        writeBatch();
        final long hostsNext = drainTerm + bufferCount;
        final boolean quarantine = abandonedCount[index] > 0;
        if (!quarantine) {
            // the free slots of the term this buffer hosts next (this also pre-touches its pages)
            journal.fillEmpty(base, bufferSize, (int) hostsNext);
        }
        long next = drainTerm + 1;
        // record first, then hand the buffer back: once writers may reuse it, recovery must not
        // start from the term it held
        journal.writeDrainRecord(next, 0, lastLogSize, drainSeq++);
        drainTerm = next;
        drainOffset = 0;
        scanOffset = 0;
        if (quarantine) {
            quarantinedUntil[index] = hostsNext; // handed back once its stalled writers resume
        } else {
            engine.markClean(index, hostsNext);
        }
    }

    /**
     * Drains the committed prefix of the active term. At stop ({@code all}) every reservation up
     * to the tail is waited for (bounded by the unblock timeout) so nothing accepted is left.
     */
    private void drainActiveTerm(boolean all) throws IOException {
        final int index = (int) (drainTerm % bufferCount);
        final int base = journal.bufferBase(index);
        final long rawTail = journal.rawTailVolatile(index);
        if (termId(rawTail) != (int) drainTerm) {
            return;
        }
        final int limit = (int) Math.min(tailOffset(rawTail), bufferSize);
        while (scanOffset < limit) {
            final int at = base + scanOffset;
            int length = journal.getIntAcquire(at + FRAME_LENGTH_OFFSET);
            if (length <= 0) {
                if (!all) {
                    break;
                }
                writeBatch();
                length = awaitCommit(at, limit - scanOffset);
            }
            if (!plausible(at, length, limit)) {
                continue;
            }
            gather(at, length);
        }
        writeBatch();
    }

    /**
     * Checks a committed frame's length and type before trusting them. A damaged header (which the
     * commit protocol never produces) is reported and skipped by re-synchronising on the next
     * plausible frame, so it cannot make the drainer discard the rest of the term.
     */
    private boolean plausible(int at, int length, int limit) {
        int type = journal.getIntPlain(at + FRAME_TYPE_OFFSET);
        if (length >= HEADER_LENGTH && length <= limit - scanOffset && align(length) <= limit - scanOffset
                && isValidType(type)) {
            return true;
        }
        int base = at - scanOffset;
        int next = Recovery.nextPlausibleFrame(journal, base, scanOffset + FRAME_ALIGNMENT, limit);
        counters.unblocked++;
        status.warn("damaged frame header (length=" + length + ", type=0x" + Integer.toHexString(type)
                + ") at journal offset " + at + "; skipped " + (next - scanOffset) + " bytes", null);
        scanOffset = next;
        return false;
    }

    /** Adds a committed frame to the batch; writes the batch when staging is full. */
    private void gather(int at, int length) throws IOException {
        if (journal.getIntPlain(at + FRAME_TYPE_OFFSET) == TYPE_DATA) {
            final int payload = length - HEADER_LENGTH;
            if (sink.shouldRoll(batchBytes, payload)) {
                roll();
            }
            if (payload > staging.remaining()) {
                writeBatch();
            }
            if (payload > staging.capacity()) {
                // larger than staging: written straight from the mapping, on its own
                out[0] = large.limit(at + length).position(at + HEADER_LENGTH);
                batchEvents = 1;
                batchBytes = payload;
                scanOffset += align(length);
                writeBatch();
                return;
            }
            staging.put(staging.position(), mapping, at + HEADER_LENGTH, payload);
            staging.position(staging.position() + payload);
            batchEvents++;
            batchBytes += payload;
        }
        scanOffset += align(length);
    }

    /**
     * Rolls the log file between two events: what was gathered is written and recorded first, and
     * the new file's empty size is recorded right after, so recovery never writes an event into
     * the new file that already reached the rolled one.
     */
    private void roll() throws IOException {
        writeBatch();
        sink.roll();
        lastLogSize = sink.size();
        journal.writeDrainRecord(drainTerm, drainOffset, lastLogSize, drainSeq++);
    }

    /** Writes the batch (resuming after a partial or failed write), then records the drain position. */
    private void writeBatch() throws IOException {
        if (out[0] == null) {
            if (scanOffset == drainOffset && staging.position() == 0) {
                return;
            }
            out[0] = staging.flip();
        }
        while (out[0].hasRemaining()) {
            sink.write(out, 0, 1);
        }
        out[0] = null;
        staging.clear();
        counters.eventsWritten += batchEvents;
        counters.bytesWritten += batchBytes;
        batchEvents = 0;
        batchBytes = 0;
        lastLogSize = sink.size();
        drainOffset = scanOffset;
        journal.writeDrainRecord(drainTerm, scanOffset, lastLogSize, drainSeq++);
        if (engine.ioFailing) {
            engine.ioFailing = false;
            status.info("writing the log file works again");
        }
    }

    /**
     * Waits for the frame at {@code at} to be committed and returns its length. A reservation
     * whose header is still zero after the unblock timeout is padded over, 8 bytes at a time.
     */
    private int awaitCommit(int at, int room) {
        final long start = System.nanoTime();
        for (int tries = 0;; tries++) {
            int length = journal.getIntAcquire(at + FRAME_LENGTH_OFFSET);
            if (length > 0) {
                return length;
            }
            long waited = System.nanoTime() - start;
            if (waited >= unblockTimeoutNanos) {
                if (length == 0 && JournalEngine.writePadding(journal, at, FRAME_ALIGNMENT, (int) drainTerm)) {
                    counters.unblocked++;
                    padFollowingGap(at + FRAME_ALIGNMENT, room - FRAME_ALIGNMENT);
                    return FRAME_ALIGNMENT;
                }
                if (length < 0 && abandon(at, length)) {
                    counters.unblocked++;
                    status.warn("a writer stalled for over " + TimeUnit.NANOSECONDS.toMillis(waited)
                            + " ms while copying its event (journal offset " + at + "): its frame is left out, the"
                            + " writer writes the event again when it resumes, and this buffer is reused only then", null);
                    return -length;
                }
            }
            if (tries < 100) {
                Thread.onSpinWait();
            } else {
                LockSupport.parkNanos(this, COMMIT_PARK_NANOS);
            }
        }
    }

    /**
     * Abandons the claimed frame at {@code at} (length {@code length} &lt; 0) and remembers it, so
     * that its buffer is not reused before the writer has resumed and acknowledged.
     *
     * @return {@code false} if the writer committed meanwhile
     */
    private boolean abandon(int at, int length) {
        long claimed = journal.getLongVolatile(at);
        int type = headerType(claimed);
        if (headerLength(claimed) != length || (type != TYPE_DATA && type != TYPE_PADDING)
                || !journal.casLong(at, claimed, header(length, TYPE_ABANDONED))) {
            return false;
        }
        int index = (int) (drainTerm % bufferCount);
        int[] offsets = abandoned[index];
        if (abandonedCount[index] == offsets.length) {
            abandoned[index] = offsets = java.util.Arrays.copyOf(offsets, offsets.length * 2);
        }
        offsets[abandonedCount[index]++] = at;
        return true;
    }

    /**
     * Hands back, cleaned, every drained buffer whose abandoned frames have all been acknowledged
     * by their resumed writers.
     */
    private void releaseQuarantined() {
        buffers:
        for (int index = 0; index < bufferCount; index++) {
            long next = quarantinedUntil[index];
            if (next < 0) {
                continue;
            }
            for (int i = 0; i < abandonedCount[index]; i++) {
                if (headerType(journal.getLongVolatile(abandoned[index][i])) != TYPE_ACKNOWLEDGED) {
                    continue buffers;
                }
            }
            abandonedCount[index] = 0;
            quarantinedUntil[index] = -1;
            journal.fillEmpty(journal.bufferBase(index), bufferSize, (int) next);
            engine.markClean(index, next);
        }
    }

    /**
     * After padding over a stalled reservation, goes on padding over the zero words that follow
     * it (the rest of that reservation) up to the next written header. Every step is a
     * compare-and-set, so a writer that publishes its header meanwhile keeps its frame.
     */
    private void padFollowingGap(int at, int room) {
        for (int end = at + room; at < end; at += FRAME_ALIGNMENT) {
            if (!JournalEngine.writePadding(journal, at, FRAME_ALIGNMENT, (int) drainTerm)) {
                return;
            }
        }
    }
}
