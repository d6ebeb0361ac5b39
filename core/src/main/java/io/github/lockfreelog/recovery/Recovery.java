package io.github.lockfreelog.recovery;

import static io.github.lockfreelog.term.JournalDescriptor.*;

import io.github.lockfreelog.diagnostics.CrashPoint;
import io.github.lockfreelog.diagnostics.StatusReporter;
import io.github.lockfreelog.drain.DrainLog;
import io.github.lockfreelog.files.SafeFiles;
import io.github.lockfreelog.journal.JournalLock;
import io.github.lockfreelog.journal.JournalSlots;
import io.github.lockfreelog.journal.WriteLedger;
import io.github.lockfreelog.sink.LogSink;
import io.github.lockfreelog.term.FrameCodec;
import io.github.lockfreelog.term.Journal;
import io.github.lockfreelog.term.JournalDescriptor;
import io.github.lockfreelog.term.JournalFiles;
import io.github.lockfreelog.term.JournalFormatException;
import io.github.lockfreelog.term.TermReader;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/**
 * Appends to the log file, exactly once, the committed events that a previous process left in
 * its journal when it died.
 *
 * <p>The newest intact drain record says up to which term and offset the log file had been
 * written. If the write intent names the range right after it, in whichever term that is, the
 * process died during or just after that write: the log file is searched, by content, for those
 * bytes after the size it had then ({@link LogSink#landed}), and only what did not land is written.
 * Bytes that others appended to the log meanwhile therefore never cost an event or tear a line. A
 * write the crash cut short mid-line is finished where it was cut when the cut is still the end of
 * the file; when others wrote after it (another instance ended the cut line, see {@code DrainLog}),
 * the cut event is written again, whole: the log keeps the cut part as a line of its own, and the
 * event once whole. An intent marked failed (the write returned an error) is not searched for: exactly its
 * {@code skip} bytes landed.
 *
 * <p>Frames are then read from there onwards, term after term while a buffer's tail still carries
 * the expected term id, each term from its start ({@link JournalDescriptor}). A committed data
 * frame is recovered; padding and frames the drainer left out are skipped; a frame whose writer
 * died mid-copy (negative length) is skipped and counted; a reservation whose header was never
 * written is skipped by re-synchronising on the next plausible header, and counted.
 *
 * <p>Recovery writes through a {@link DrainLog} on the old journal, so a crash during recovery
 * is itself recovered exactly once by the next start.
 */
public final class Recovery {

    /** Recovered events are written in batches of about this many bytes. */
    private static final int BATCH_BYTES = 1 << 20;

    public record Result(long recoveredFrames, long recoveredBytes, long skippedFrames) {
        public static final Result NONE = new Result(0, 0, 0);

        public Result plus(Result other) {
            return new Result(recoveredFrames + other.recoveredFrames, recoveredBytes + other.recoveredBytes,
                    skippedFrames + other.skippedFrames);
        }
    }

    private Recovery() {
    }

    /**
     * Recovers the journal that {@code hold} locks, through the channel it holds. A journal that
     * cannot be read is moved aside (never deleted) and a new file takes its name, locked by the
     * same hold; one left half-made by a start cut short (it holds nothing) is emptied, an INFO says so.
     * Then the journal's write is settled in the ledger: nothing will look for it again.
     */
    public static Result recover(JournalLock hold, LogSink sink, WriteLedger.Entry ledger, StatusReporter status)
            throws IOException {
        Result result = recover(hold, (journal, record) -> new Replay(journal, sink, record, ledger).run(),
                "the log file", status);
        if (ledger != null) {
            ledger.end();
        }
        return result;
    }

    /**
     * Replays what a journal holds after its newest drain record; the log file's is {@link Replay}, a record
     * sink's lives with that sink's output.
     */
    @FunctionalInterface
    public interface Replayer {
        Result replay(Journal journal, Journal.DrainRecord record) throws IOException;
    }

    /**
     * Recovers the journal that {@code hold} locks through {@code replayer}, into {@code into} (named in the
     * INFO that counts what was recovered): a journal that cannot be read is moved aside, one left half-made
     * emptied, as for the log file.
     */
    public static Result recover(JournalLock hold, Replayer replayer, String into, StatusReporter status)
            throws IOException {
        Path journalFile = hold.journalFile();
        if (hold.journalChannel().size() == 0) {
            return Result.NONE;
        }
        Journal journal;
        try {
            journal = JournalFiles.open(journalFile, hold.journalChannel());
        } catch (JournalFormatException e) {
            if (e.halfMade()) {
                hold.journalChannel().truncate(0); // nothing in it was acknowledged: its space goes back
                status.info(e.getMessage() + "; removed it");
            } else {
                moveAside(hold, e.getMessage(), status);
            }
            return Result.NONE;
        }
        try {
            Journal.DrainRecord record;
            Result result;
            try {
                record = journal.readDrainRecord();
                if (record == null) {
                    journal.close();
                    moveAside(hold, "journal " + journalFile + " has no intact drain record", status);
                    return Result.NONE;
                }
                result = replayer.replay(journal, record);
            } catch (RuntimeException | OutOfMemoryError | InternalError e) {
                // a crafted or damaged journal (an intent no write made, a file cut short under the mapping): what was
                // read from it is garbage now
                journal.close();
                moveAside(hold, "journal " + journalFile + " could not be read to its end (" + e + ")", status);
                return Result.NONE;
            }
            if (result.recoveredFrames() > 0 || result.skippedFrames() > 0) {
                status.info("recovered " + result.recoveredFrames() + " events (" + result.recoveredBytes()
                        + " bytes) from journal " + journalFile + " into " + into + "; skipped "
                        + result.skippedFrames() + " unfinished or damaged frames");
            }
            return result;
        } finally {
            journal.close();
        }
    }

    /** Renames the journal aside (it stays locked until replaced) and locks the new file that takes its name. */
    private static void moveAside(JournalLock hold, String why, StatusReporter status) throws IOException {
        Path aside = SafeFiles.moveAside(hold.journalFile());
        hold.replaceJournal(status);
        status.warn(why + "; moved it to " + aside + " and started a fresh journal", null);
    }

    /** One pass over the journal's undrained frames. */
    private static final class Replay {
        private final Journal journal;
        private final LogSink sink;
        private final Journal.DrainRecord record;
        private final WriteLedger.Entry ledger;
        private final int bufferCount;
        private final int bufferSize;
        private final ByteBuffer batch = ByteBuffer.allocate(BATCH_BYTES);
        private DrainLog log;
        private long recovered;
        private long recoveredBytes;
        private long skipped;
        /** Where the journal range of the pending batch starts, in the term being replayed. */
        private int batchFrom;

        Replay(Journal journal, LogSink sink, Journal.DrainRecord record, WriteLedger.Entry ledger) {
            this.journal = journal;
            this.sink = sink;
            this.record = record;
            this.ledger = ledger;
            this.bufferCount = journal.bufferCount();
            this.bufferSize = journal.bufferSize();
        }

        Result run() throws IOException {
            Journal.WriteIntent intent = journal.readIntent();
            // intents only need a non-zero sequence number; the old journal's own is not needed
            // the ledger's word on the interrupted write is read before this recovery's own writes replace it
            long searchEnd = intent == null || ledger == null ? WriteLedger.UNBOUNDED
                    : ledger.searchEnd(intent.seq(), intent.logSizeBefore());
            log = new DrainLog(journal, sink, record.seq() + 1, 0, ledger);
            long term = record.termCount();
            long offset = record.offset();
            for (int seen = 0; seen < bufferCount; seen++, term++, offset = 0) {
                int index = (int) (term % bufferCount);
                long rawTail = journal.rawTailVolatile(index);
                if (termId(rawTail) != (int) term) {
                    break;
                }
                int base = journal.bufferBase(index);
                int start = Math.max((int) offset, journal.termStartVolatile(index));
                int limit = (int) Math.min(tailOffset(rawTail), bufferSize);
                // the write recorded last, if no drain record covers it: in any term (a recovery that
                // died after writing a later term left its intent there)
                if (intent != null && intent.termCount() == term && intent.from() == start
                        && intent.to() > start && intent.to() <= limit) {
                    settle(term, base, intent, searchEnd);
                    start = (int) intent.to();
                }
                replayTerm(term, base, start, limit);
            }
            return new Result(recovered, recoveredBytes, skipped);
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
                bytes = journal.duplicate().limit(at + length).position(at).slice();
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
            TermReader.read(journal, base, offset, limit, (int) term, (at, header, kind) -> {
                switch (kind) {
                    case COMMITTED:
                        if (headerType(header) == TYPE_DATA) {
                            replay(term, base, at, headerLength(header));
                        }
                        break;
                    case ABANDONED:
                        break; // left out by the drainer; its writer wrote the event again
                    default:
                        skipped++; // the writer died while copying, or never wrote its header, or it is damaged
                }
                return TermReader.STEP;
            });
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
                log.write(journal.duplicate().limit(at + payload).position(at).slice(), 0, term, offset,
                        offset + align(length));
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

    /**
     * Recovers into {@code sink}, and deletes, the journal of every slot other than {@code own}
     * whose locks are free: a process that died left it.
     */
    public static Result recoverLeftovers(Path first, int slots, Path own, LogSink sink, WriteLedger ledger,
            StatusReporter status) throws IOException {
        Result all = Result.NONE;
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
                all = all.plus(recover(lock, sink, ledger == null ? null : ledger.entry(i), status));
                if (lock.journalIsNamed()) {
                    SafeFiles.delete(journal); // all it held is in the log now; still locked, so no one else has it open
                }
            } finally {
                lock.close();
            }
        }
        return all;
    }
}
