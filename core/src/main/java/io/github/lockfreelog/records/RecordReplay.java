package io.github.lockfreelog.records;

import static io.github.lockfreelog.term.JournalDescriptor.*;

import io.github.lockfreelog.diagnostics.CrashPoint;
import io.github.lockfreelog.recovery.Recovery;
import io.github.lockfreelog.sink.JournalPosition;
import io.github.lockfreelog.sink.RecordSink;
import io.github.lockfreelog.term.Journal;
import io.github.lockfreelog.term.TermReader;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * One pass over the undelivered frames of a journal that a process left, for {@link RecordRecovery}: from the later
 * of its drain record and what the sink committed of it, term after term, its committed events delivered in batches
 * through a {@link RecordLog} on that journal, so that each batch's position is recorded as it commits. Recovered
 * events that the sink leaves out as too large are not
 * counted among the drops (those are of the events appended since start); the sink reports them itself.
 */
final class RecordReplay {

    private final Journal journal;
    private final RecordSink sink;
    private final Journal.DrainRecord record;
    private final ByteBuffer batch;
    private int[] ends = new int[1024];
    private int[] offsets = new int[1024];
    private int events;
    private int batchFrom;
    private long recovered;
    private long recoveredBytes;
    private long skipped;
    private RecordLog log;

    RecordReplay(Journal journal, RecordSink sink, Journal.DrainRecord record) {
        this.journal = journal;
        this.sink = sink;
        this.record = record;
        this.batch = ByteBuffer.allocate(RecordRecovery.batchBytes(journal.bufferSize())); // a batch is one term's at most
    }

    Recovery.Result run() throws IOException {
        long term = record.termCount();
        long offset = record.offset();
        JournalPosition committed = RecordLog.held(journal, sink.committed(journal.journalId()));
        if (committed != null && committed.covers(term, offset)) {
            term = committed.termCount(); // the sink holds more than the journal knows: a crash after a commit
            offset = committed.offset();
        }
        log = new RecordLog(journal, sink, record.seq() + 1);
        TermReader.readTerms(journal, term, offset, this::replayTerm);
        return new Recovery.Result(recovered, recoveredBytes, skipped);
    }

    /** Delivers the data frames of {@code [offset, limit)} of term {@code term}, in batches. */
    private void replayTerm(long term, int base, int offset, int limit) throws IOException {
        batchFrom = offset;
        skipped += TermReader.readData(journal, base, offset, limit, (int) term, (at, length) -> add(term, base, at, length));
        deliver(term, limit);
    }

    /** Adds the data frame of {@code length} bytes at {@code at} to the batch; a full batch is delivered first. */
    private void add(long term, int base, int at, int length) throws IOException {
        int payload = length - HEADER_LENGTH;
        if (payload > batch.remaining() && events > 0) {
            deliver(term, at);
        }
        if (payload > batch.capacity()) { // delivered from where it lies: nothing the size of a buffer is allocated
            int from = base + at + HEADER_LENGTH;
            log.write(journal.slice(from, payload), 0, new int[] {payload},
                    new int[] {at}, 1, term, at, at + align(length));
            batchFrom = at + align(length);
        } else {
            journal.getBytes(base + at + HEADER_LENGTH, batch, batch.position(), payload);
            batch.position(batch.position() + payload);
            if (events == ends.length) {
                ends = Arrays.copyOf(ends, events * 2);
                offsets = Arrays.copyOf(offsets, events * 2);
            }
            offsets[events] = at;
            ends[events++] = batch.position();
        }
        recovered++;
        recoveredBytes += payload;
    }

    /** Delivers the batch, the events of {@code [batchFrom, to)} of term {@code term}, and records it. */
    private void deliver(long term, int to) throws IOException {
        batch.flip();
        if (events > 0) {
            log.write(batch, 0, ends, offsets, events, term, batchFrom, to);
            CrashPoint.reached(CrashPoint.MID_RECOVERY);
        } else if (to > batchFrom) {
            log.record(term, to);
        }
        batch.clear();
        events = 0;
        batchFrom = to;
    }
}
