package io.github.lockfreelog.records;

import static io.github.lockfreelog.term.JournalDescriptor.*;

import io.github.lockfreelog.diagnostics.CrashPoint;
import io.github.lockfreelog.diagnostics.StatusReporter;
import io.github.lockfreelog.journal.JournalLock;
import io.github.lockfreelog.journal.JournalSlots;
import io.github.lockfreelog.recovery.Recovery;
import io.github.lockfreelog.sink.JournalPosition;
import io.github.lockfreelog.sink.RecordSink;
import io.github.lockfreelog.term.Journal;
import io.github.lockfreelog.term.TermReader;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Delivers to a {@link RecordSink}, exactly once, the committed events that a process which died left in its
 * journal. Recovery starts at the later of the journal's drain record and the position the sink has committed
 * for this journal ({@link RecordSink#committed}, asked after the sink fenced the dead process's deliveries), so
 * a batch the sink committed just before the crash, which the journal never learnt of, is not delivered again.
 * From there, frames are read term after term as for the log file ({@code Recovery}): committed data frames are
 * delivered in batches through a {@link RecordLog} on the old journal (a crash during recovery is itself
 * recovered exactly once); unfinished and damaged frames are skipped and counted.
 */
public final class RecordRecovery {

    /** Recovered events are delivered in batches of at most this many bytes (a larger event alone). */
    static final int BATCH_BYTES = 1 << 20;

    private RecordRecovery() {
    }

    /** Recovers the journal that {@code hold} locks into {@code sink}, the sink of the journal's slot. */
    public static Recovery.Result recover(JournalLock hold, RecordSink sink, StatusReporter status)
            throws IOException {
        return Recovery.recover(hold, (journal, record) -> new Replay(journal, sink, record).run(), "the record sink",
                status);
    }

    /**
     * Recovers, and deletes, the journal of every slot other than {@code own} whose locks are free: a process
     * that died left it. Each goes to the sink of its own slot, opened by {@code sinks} for it and closed after.
     */
    public static Recovery.Result recoverLeftovers(Path first, int slots, Path own, RecordSink.Factory sinks,
            long closeTimeoutNanos, StatusReporter status) throws IOException {
        Recovery.Result all = Recovery.Result.NONE;
        for (int i = 0; i < slots; i++) {
            Path journal = JournalSlots.slot(first, i);
            if (journal.equals(own) || !Files.exists(journal, LinkOption.NOFOLLOW_LINKS)) {
                continue;
            }
            JournalLock lock = JournalLock.tryAcquire(journal, status);
            if (lock == null) {
                continue; // a running engine's, in this process or another one
            }
            try {
                if (lock.journalChannel().size() > 0) {
                    RecordSink sink = sinks.open(i);
                    try {
                        all = all.plus(recover(lock, sink, status));
                    } finally {
                        sink.close(closeTimeoutNanos);
                    }
                }
                if (lock.journalIsNamed()) {
                    Files.delete(journal); // all it held is in the sink now; still locked, so no one else has it open
                }
            } finally {
                lock.close();
            }
        }
        return all;
    }

    /** One pass over the journal's undelivered frames. */
    private static final class Replay {
        private final Journal journal;
        private final RecordSink sink;
        private final Journal.DrainRecord record;
        private final ByteBuffer batch = ByteBuffer.allocate(BATCH_BYTES);
        private int[] ends = new int[1024];
        private int events;
        private int batchFrom;
        private long recovered;
        private long recoveredBytes;
        private long skipped;
        private RecordLog log;

        Replay(Journal journal, RecordSink sink, Journal.DrainRecord record) {
            this.journal = journal;
            this.sink = sink;
            this.record = record;
        }

        Recovery.Result run() throws IOException {
            long term = record.termCount();
            long offset = record.offset();
            JournalPosition committed = sink.committed(journal.journalId());
            if (committed != null && committed.covers(term, offset)) {
                term = committed.termCount(); // the sink holds more than the journal knows: a crash after a commit
                offset = committed.offset();
            }
            log = new RecordLog(journal, sink, record.seq() + 1);
            int bufferCount = journal.bufferCount();
            int bufferSize = journal.bufferSize();
            for (int seen = 0; seen < bufferCount; seen++, term++, offset = 0) {
                int index = (int) (term % bufferCount);
                long rawTail = journal.rawTailVolatile(index);
                if (termId(rawTail) != (int) term) {
                    break;
                }
                int base = journal.bufferBase(index);
                int start = Math.max((int) offset, journal.termStartVolatile(index));
                int limit = (int) Math.min(tailOffset(rawTail), bufferSize);
                replayTerm(term, base, start, limit);
            }
            return new Recovery.Result(recovered, recoveredBytes, skipped);
        }

        /** Delivers the data frames of {@code [offset, limit)} of term {@code term}, in batches. */
        private void replayTerm(long term, int base, int offset, int limit) throws IOException {
            batchFrom = offset;
            TermReader.read(journal, base, offset, limit, (int) term, (at, header, kind) -> {
                switch (kind) {
                    case COMMITTED:
                        if (headerType(header) == TYPE_DATA) {
                            add(term, base, at, headerLength(header));
                        }
                        break;
                    case ABANDONED:
                        break; // left out by the drainer; its writer wrote the event again
                    default:
                        skipped++; // the writer died while copying, or never wrote its header, or it is damaged
                }
                return TermReader.STEP;
            });
            deliver(term, limit);
        }

        /** Adds the data frame of {@code length} bytes at {@code at} to the batch; a full batch is delivered first. */
        private void add(long term, int base, int at, int length) throws IOException {
            int payload = length - HEADER_LENGTH;
            if (payload > batch.remaining() && events > 0) {
                deliver(term, at);
            }
            if (payload > batch.capacity()) {
                ByteBuffer large = ByteBuffer.allocate(payload);
                journal.getBytes(base + at + HEADER_LENGTH, large, 0, payload);
                log.write(large, 0, new int[] {payload}, 1, term, at, at + align(length));
                batchFrom = at + align(length);
            } else {
                journal.getBytes(base + at + HEADER_LENGTH, batch, batch.position(), payload);
                batch.position(batch.position() + payload);
                if (events == ends.length) {
                    ends = Arrays.copyOf(ends, events * 2);
                }
                ends[events++] = batch.position();
            }
            recovered++;
            recoveredBytes += payload;
        }

        /** Delivers the batch, the events of {@code [batchFrom, to)} of term {@code term}, and records it. */
        private void deliver(long term, int to) throws IOException {
            batch.flip();
            if (events > 0) {
                log.write(batch, 0, ends, events, term, batchFrom, to);
                CrashPoint.reached(CrashPoint.MID_RECOVERY);
            } else if (to > batchFrom) {
                log.record(term, to);
            }
            batch.clear();
            events = 0;
            batchFrom = to;
        }
    }
}
