package io.github.lockfreelog.recovery;

import static io.github.lockfreelog.term.JournalDescriptor.*;

import io.github.lockfreelog.diagnostics.CrashPoint;
import io.github.lockfreelog.drain.DrainLog;
import io.github.lockfreelog.journal.WriteLedger;
import io.github.lockfreelog.sink.LogSink;
import io.github.lockfreelog.term.FrameCodec;
import io.github.lockfreelog.term.Journal;
import io.github.lockfreelog.term.TermReader;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * One pass of {@link Recovery} over a journal's undrained frames: the interrupted write settled by content, then every
 * committed frame after it written once, through a {@link DrainLog} on the old journal.
 */
final class JournalReplay {

    /** Recovered events are written in batches of about this many bytes (the drainer's writes gather as much). */
    static final int BATCH_BYTES = 1 << 20;

    private final Journal journal;
    private final LogSink sink;
    private final Journal.DrainRecord record;
    private final WriteLedger.Entry ledger;
    private final ByteBuffer batch = ByteBuffer.allocate(BATCH_BYTES);
    private DrainLog log;
    private long recovered;
    private long recoveredBytes;
    private long skipped;
    /** Where the journal range of the pending batch starts, in the term being replayed. */
    private int batchFrom;

    JournalReplay(Journal journal, LogSink sink, Journal.DrainRecord record, WriteLedger.Entry ledger) {
        this.journal = journal;
        this.sink = sink;
        this.record = record;
        this.ledger = ledger;
    }

    Recovery.Result run() throws IOException {
        Journal.WriteIntent intent = journal.readIntent();
        // intents only need a non-zero sequence number; the old journal's own is not needed
        // the ledger's word on the interrupted write is read before this recovery's own writes replace it
        long searchEnd = intent == null || ledger == null ? WriteLedger.UNBOUNDED
                : ledger.searchEnd(intent.seq(), intent.logSizeBefore());
        log = new DrainLog(journal, sink, record.seq() + 1, 0, ledger);
        TermReader.readTerms(journal, record.termCount(), record.offset(), (term, base, start, limit) -> {
            // the write recorded last, if no drain record covers it: in any term (a recovery that
            // died after writing a later term left its intent there)
            if (intent != null && intent.termCount() == term && intent.from() == start
                    && intent.to() > start && intent.to() <= limit) {
                settle(term, base, intent, searchEnd);
                start = (int) intent.to();
            }
            replayTerm(term, base, start, limit);
        });
        return new Recovery.Result(recovered, recoveredBytes, skipped);
    }

    /**
     * Writes what of the interrupted write {@code intent} did not reach the log file. What it holds is read where
     * it lies in the journal when it is one event (a large one is written alone), else gathered into one array:
     * a write of several events gathers at most {@link #BATCH_BYTES} (the drainer's as recovery's), so an intent
     * that claims more was not written by lockfreelog, and the journal is refused, never read into memory.
     */
    private void settle(long term, int base, Journal.WriteIntent intent, long searchEnd) throws IOException {
        int from = (int) intent.from();
        int to = (int) intent.to();
        long[] sizes = new long[3]; // bytes, events, offset of the last event's frame
        TermReader.read(journal, base, from, to, (int) term, (offset, header, kind) -> {
            int payload = FrameCodec.dataPayload(header, to - offset);
            if (payload >= 0) {
                sizes[0] += payload;
                sizes[1]++;
                sizes[2] = offset;
            }
            return TermReader.STEP;
        });
        int length = (int) sizes[0];
        ByteBuffer bytes;
        int[] ends;
        if (sizes[1] <= 1) {
            int at = base + (int) sizes[2] + HEADER_LENGTH;
            bytes = journal.slice(at, length);
            ends = new int[] {length};
        } else {
            if (sizes[0] > BATCH_BYTES) {
                throw new IllegalStateException("its interrupted write [" + from + ", " + to + ") of term " + term
                        + " holds " + sizes[0] + " bytes in " + sizes[1] + " events, more than one write of several"
                        + " events gathers (" + BATCH_BYTES + ")");
            }
            byte[] gathered = new byte[length];
            ends = new int[(int) sizes[1]];
            int[] filled = new int[2]; // bytes, events
            TermReader.read(journal, base, from, to, (int) term, (offset, header, kind) -> {
                int payload = FrameCodec.dataPayload(header, to - offset);
                if (payload >= 0) {
                    journal.getBytes(base + offset + HEADER_LENGTH, gathered, filled[0], payload);
                    filled[0] += payload;
                    ends[filled[1]++] = filled[0];
                }
                return TermReader.STEP;
            });
            bytes = ByteBuffer.wrap(gathered);
        }
        int events = ends.length;
        int skip = (int) Math.min(Math.max(intent.skip(), 0), length);
        // the file's size bounds the search too, so that a cut found at the bound is known to be
        // followed by other bytes, or not
        long until = Math.min(searchEnd, sink.size());
        // a write known to have failed landed exactly skip bytes: nothing is searched for, so bytes
        // that another process wrote meanwhile, however alike, are never taken for it
        int landed = intent.failed() ? 0
                : sink.landed(intent.logSizeBefore(), until, bytes.duplicate().position(skip));
        int done = skip + landed;
        if (!intent.failed() && until <= intent.logSizeBefore()) {
            // nothing could be searched (the ledger says it raced with another instance's write): it is
            // written again whole, and a part of it the crash cut may end the file; end that line first
            log.othersMayHaveWritten();
        }
        boolean startsEvent = false;
        if (landed > 0 && done < length && until < sink.size()) {
            // cut at the bound, and others wrote after the cut (or ended the cut line): the cut event is
            // written again, whole, on a line of its own; what was cut stays as it is
            done = eventStart(ends, done);
            startsEvent = true;
        }
        for (int i = 0; i < events; i++) {
            if (ends[i] > done) {
                recovered++;
            }
        }
        recoveredBytes += length - done;
        if (done < length) {
            log.write(bytes.duplicate().position(done), 0, term, from, to, startsEvent || done == 0);
        } else {
            log.record(term, to);
        }
    }

    /** Where the event that {@code offset} falls in begins: the end of the one before it, or 0. */
    private static int eventStart(int[] ends, int offset) {
        int start = 0;
        for (int end : ends) {
            if (end > offset) {
                break;
            }
            start = end;
        }
        return start;
    }

    /** Writes the data frames of {@code [offset, limit)} of term {@code term}, in batches. */
    private void replayTerm(long term, int base, int offset, int limit) throws IOException {
        batchFrom = offset;
        skipped += TermReader.readData(journal, base, offset, limit, (int) term,
                (at, length) -> replay(term, base, at, length));
        write(term, batchFrom, limit);
    }

    /** Adds the data frame of {@code length} bytes at {@code offset} to the batch (a large one is written alone). */
    private void replay(long term, int base, int offset, int length) throws IOException {
        int payload = length - HEADER_LENGTH;
        if (payload > batch.remaining()) {
            write(term, batchFrom, offset);
            batchFrom = offset;
        }
        if (payload > batch.capacity()) { // written from where it lies: nothing the size of a buffer is allocated
            int at = base + offset + HEADER_LENGTH;
            log.write(journal.slice(at, payload), 0, term, offset, offset + align(length));
            batchFrom = offset + align(length);
        } else {
            journal.getBytes(base + offset + HEADER_LENGTH, batch.array(), batch.position(), payload);
            batch.position(batch.position() + payload);
        }
        recovered++;
        recoveredBytes += payload;
    }

    /** Writes the batch, the data of {@code [from, to)} of term {@code term}, and records it. */
    private void write(long term, int from, int to) throws IOException {
        batch.flip();
        if (batch.hasRemaining()) {
            log.write(batch, 0, term, from, to);
            CrashPoint.reached(CrashPoint.MID_RECOVERY);
        } else if (to > from) {
            log.record(term, to);
        }
        batch.clear();
    }
}
