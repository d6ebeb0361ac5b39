package io.github.lockfreelog.recovery;

import static io.github.lockfreelog.term.JournalDescriptor.*;

import io.github.lockfreelog.diagnostics.StatusReporter;
import io.github.lockfreelog.drain.DrainLog;
import io.github.lockfreelog.files.SafeFiles;
import io.github.lockfreelog.journal.JournalLock;
import io.github.lockfreelog.journal.JournalSlots;
import io.github.lockfreelog.journal.WriteLedger;
import io.github.lockfreelog.sink.LogSink;
import io.github.lockfreelog.term.Journal;
import io.github.lockfreelog.term.JournalDescriptor;
import io.github.lockfreelog.term.JournalFiles;
import io.github.lockfreelog.term.JournalFormatException;
import java.io.IOException;
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
        Result result = recover(hold, (journal, record) -> new JournalReplay(journal, sink, record, ledger).run(),
                "the log file", status);
        if (ledger != null) {
            ledger.end();
        }
        return result;
    }

    /**
     * Replays what a journal holds after its newest drain record; the log file's is {@link JournalReplay}, a record
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
