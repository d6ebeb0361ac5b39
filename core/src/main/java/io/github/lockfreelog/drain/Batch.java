package io.github.lockfreelog.drain;

import static io.github.lockfreelog.term.JournalDescriptor.HEADER_LENGTH;

import io.github.lockfreelog.diagnostics.DropReason;
import io.github.lockfreelog.term.Journal;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Gathers the payloads of committed frames for one write to the log file (or one delivery to a
 * record sink), with where each event ends, and writes them through the {@link DrainOutput}. Payloads are copied from the mapping into a staging buffer and written
 * with one call (docs/design-notes.md says why not a gathering write). An event larger than staging is written straight from the
 * mapping, on its own. A write that failed is kept, and finished by {@link #resume}.
 */
final class Batch {

    /** A log file's writes gather at most this many bytes (or a journal buffer's, if smaller). */
    static final int STAGING_BYTES = 1 << 20;

    private final JournalCounters counters;
    private final ByteBuffer staging;
    /** A view of the whole mapping, positioned on an event larger than staging; made when the first such event comes. */
    private ByteBuffer large;
    /** What is being written now (staging, or a large event's view), its first byte, and the end of its range; kept across a failed write. */
    private ByteBuffer out;
    private int outStart;
    private int outTo;
    private int events;
    private long bytes;
    /** Where each gathered event ends, relative to the first byte of {@link #out}: records are delivered one per event. */
    private int[] ends = new int[1024];
    /** Where each gathered event's frame starts in its term: a record sink names each record by it. */
    private int[] offsets = new int[1024];

    /** A batch that gathers at most {@code stagingBytes} bytes of events for one write ({@link DrainOutput.Factory#batchBytes}). */
    Batch(JournalCounters counters, int stagingBytes) {
        this.counters = counters;
        this.staging = ByteBuffer.allocateDirect(stagingBytes);
    }

    /** Bytes gathered so far. */
    long bytes() {
        return bytes;
    }

    /** Whether nothing is staged. */
    boolean isEmpty() {
        return staging.position() == 0;
    }

    /** Whether {@code payload} more bytes fit in staging. */
    boolean fits(int payload) {
        return payload <= staging.remaining();
    }

    /** Whether an event of {@code payload} bytes is too large for staging: it is written on its own. */
    boolean isLarge(int payload) {
        return payload > staging.capacity();
    }

    /**
     * Copies the payload of the data frame at {@code at} of {@code journal} (at {@code offset} of its term) into
     * staging.
     */
    void add(Journal journal, int at, int offset, int payload) {
        journal.getBytes(at + HEADER_LENGTH, staging, staging.position(), payload);
        staging.position(staging.position() + payload);
        if (events == ends.length) {
            ends = java.util.Arrays.copyOf(ends, events * 2);
            offsets = java.util.Arrays.copyOf(offsets, events * 2);
        }
        ends[events] = staging.position();
        offsets[events] = offset;
        events++;
        bytes += payload;
    }

    /**
     * Sets up the write of one large event, the frame of {@code length} bytes at {@code at} (at {@code offset} of
     * its term), whose journal range ends at {@code to}; {@link #resume} writes it. Staging must be written first.
     */
    void stageLarge(Journal journal, int at, int offset, int length, int to) {
        if (large == null) {
            large = journal.duplicate();
        }
        out = large.limit(at + length).position(at + HEADER_LENGTH);
        outStart = at + HEADER_LENGTH;
        outTo = to;
        events = 1;
        bytes = length - HEADER_LENGTH;
        ends[0] = length - HEADER_LENGTH;
        offsets[0] = offset;
    }

    /** Whether a write was begun and has not finished (it failed, or it is a large event's). */
    boolean hasUnwritten() {
        return out != null;
    }

    /**
     * Writes what is staged as the journal range {@code [from, to)} of term {@code term}.
     *
     * @return {@code to}, how far the log file now reaches in the term
     */
    int write(DrainOutput log, long term, int from, int to) throws IOException {
        out = staging.flip();
        outStart = 0;
        outTo = to;
        return resume(log, term, from);
    }

    /**
     * Writes (again) the write begun for the journal range from {@code from} in term {@code term}.
     *
     * @return the end of its range, how far the log file now reaches in the term
     */
    int resume(DrainOutput log, long term, int from) throws IOException {
        int leftOut = log.write(out, outStart, ends, offsets, events, term, from, outTo);
        out = null;
        staging.clear();
        if (leftOut > 0) {
            counters.drop(DropReason.TOO_LARGE, leftOut); // dropped, so not written
        }
        counters.countWritten(events - leftOut, bytes);
        events = 0;
        bytes = 0;
        return outTo;
    }

    /** Forgets the view of the journal drained before (another journal is drained now). */
    void journalChanged() {
        large = null;
    }
}
