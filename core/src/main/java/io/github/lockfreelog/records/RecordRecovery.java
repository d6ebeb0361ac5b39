package io.github.lockfreelog.records;

import io.github.lockfreelog.diagnostics.StatusReporter;
import io.github.lockfreelog.files.SafeFiles;
import io.github.lockfreelog.journal.JournalLock;
import io.github.lockfreelog.journal.JournalSlots;
import io.github.lockfreelog.recovery.Recovery;
import io.github.lockfreelog.sink.RecordSink;
import io.github.lockfreelog.term.Journal;
import io.github.lockfreelog.term.JournalFiles;
import io.github.lockfreelog.term.JournalFormatException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

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

    /**
     * A delivery to a record sink holds at most this many bytes of events, or a buffer's (a larger event alone): a
     * whole term of the default 8 MB buffers. Each delivery is a transaction of the sink, whose cost (its commit's
     * round trips) the records of the batch share: 1 MiB batches held the Kafka sink to about half the records per
     * second that 8 MB ones reach on the same broker (docs/benchmarks.md, "Kafka").
     */
    static final int BATCH_BYTES = 16 << 20;

    /** The most bytes of events one delivery to a record sink holds, for buffers of {@code bufferSize} bytes. */
    public static int batchBytes(int bufferSize) {
        return Math.min(BATCH_BYTES, bufferSize);
    }

    private RecordRecovery() {
    }

    /**
     * What the name of a journal's pending copy adds to the journal's: {@code <journal>.pending-<n>}, {@code n}
     * growing with each copy set aside, so the copies are delivered in the order their journals were written.
     */
    public static final String PENDING = ".pending-";

    /**
     * Sets aside, at start, a journal that a process which died left in the slot that {@code hold} locks (it is not
     * empty): renames it to the slot's next pending name ({@link #pendingOf}), makes the rename durable, and locks
     * a fresh file at the journal's name, for the new journal. Its events are delivered later, by the drainer
     * ({@link RecordBacklog}), before any of the new journal's; nothing here asks the sink, so a sink that cannot
     * be reached never holds up the start. Returns the pending name, or {@code null} when the journal is empty.
     */
    public static Path setAside(JournalLock hold, StatusReporter status) throws IOException {
        if (hold.journalChannel().size() == 0) {
            return null;
        }
        Path journal = hold.journalFile();
        List<Path> pending = pendingOf(journal);
        long next = pending.isEmpty() ? 1 : pendingNumber(journal, pending.get(pending.size() - 1)) + 1;
        Path aside = journal.resolveSibling(journal.getFileName() + PENDING + next);
        // the lock goes with the file; the slot's lock file stays held, and the new file is locked at once
        SafeFiles.rename(journal, aside); // in the folder checked
        SafeFiles.syncFolder(journal.toAbsolutePath().getParent());
        hold.replaceJournal(status);
        status.info("the journal " + journal + " holds what a process that died left; set aside as " + aside
                + ", it goes to the record sink before any new event");
        return aside;
    }

    /** The pending copies of {@code journal} that exist, oldest (lowest number) first. */
    public static List<Path> pendingOf(Path journal) throws IOException {
        Path folder = journal.toAbsolutePath().getParent();
        List<Path> pending = new ArrayList<>();
        if (!Files.isDirectory(folder, LinkOption.NOFOLLOW_LINKS)) {
            return pending;
        }
        try (DirectoryStream<Path> files = Files.newDirectoryStream(folder)) {
            for (Path file : files) {
                if (pendingNumber(journal, file) > 0 && Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
                    pending.add(journal.resolveSibling(file.getFileName()));
                }
            }
        }
        pending.sort(Comparator.comparingLong(file -> pendingNumber(journal, file)));
        return pending;
    }

    /** The number of {@code file} as a pending copy of {@code journal}; 0 when it is not one. */
    static long pendingNumber(Path journal, Path file) {
        String prefix = journal.getFileName() + PENDING;
        String name = file.getFileName().toString();
        if (!name.startsWith(prefix) || name.length() == prefix.length() || name.length() - prefix.length() > 18) {
            return 0;
        }
        long number = 0;
        for (int i = prefix.length(); i < name.length(); i++) {
            char c = name.charAt(i);
            if (c < '0' || c > '9') {
                return 0;
            }
            number = number * 10 + (c - '0');
        }
        return number;
    }

    /**
     * Delivers to {@code sink} (its slot's) what the pending copy {@code pending} holds after its drain record and
     * what the sink committed of its journal, as for a journal a process left ({@link #recover}): its drain record
     * moves on, in the copy, as batches commit, so a failure or a crash midway is taken up where it stopped. Once
     * all of it is delivered the copy is deleted. A copy that cannot be read is moved aside (never deleted) and a
     * WARN says so; one that holds nothing (half-made) is deleted. Throws while the sink fails; the copy stays.
     */
    public static Recovery.Result recoverPending(Path pending, RecordSink sink, StatusReporter status)
            throws IOException {
        Recovery.Result result = Recovery.Result.NONE;
        String damaged = null;
        try (FileChannel channel = SafeFiles.open(pending, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            Journal journal = null;
            try {
                journal = JournalFiles.open(pending, channel);
            } catch (JournalFormatException e) {
                if (!e.halfMade()) {
                    damaged = e.getMessage();
                } else {
                    status.info(e.getMessage() + "; removed it");
                }
            }
            if (journal != null) {
                try {
                    Journal.DrainRecord record = journal.readDrainRecord();
                    if (record == null) {
                        damaged = "the pending journal " + pending + " has no intact drain record";
                    } else {
                        try {
                            result = replay(journal, sink, record);
                        } catch (RuntimeException | OutOfMemoryError | InternalError e) {
                            // a crafted or damaged copy: what was read from it is garbage now
                            damaged = "the pending journal " + pending + " could not be read to its end (" + e + ")";
                        }
                    }
                } finally {
                    journal.close();
                }
            }
        }
        if (damaged != null) {
            Path aside = SafeFiles.moveAside(pending);
            status.warn(damaged + "; moved it to " + aside, null);
            return Recovery.Result.NONE;
        }
        if (result.recoveredFrames() > 0 || result.skippedFrames() > 0) {
            status.info("recovered " + result.recoveredFrames() + " events (" + result.recoveredBytes()
                    + " bytes) from the pending journal " + pending + " into the record sink; skipped "
                    + result.skippedFrames() + " unfinished or damaged frames");
        }
        SafeFiles.delete(pending); // all it held is in the sink, and its drain record says so
        SafeFiles.syncFolder(pending.toAbsolutePath().getParent());
        return result;
    }

    /** Recovers the journal that {@code hold} locks into {@code sink}, the sink of the journal's slot. */
    public static Recovery.Result recover(JournalLock hold, RecordSink sink, StatusReporter status)
            throws IOException {
        return Recovery.recover(hold, (journal, record) -> replay(journal, sink, record), "the record sink", status);
    }

    /**
     * Delivers to {@code sink} what {@code journal} holds after the later of its drain record {@code record} and
     * what the sink committed of it, recording each batch in the journal as it commits. The files around it (the
     * pending copy, its deletion) are the callers'; the model check calls this on a journal in memory.
     */
    static Recovery.Result replay(Journal journal, RecordSink sink, Journal.DrainRecord record) throws IOException {
        return new RecordReplay(journal, sink, record).run();
    }

    /**
     * Recovers the pending copies of the journal that {@code hold} locks, oldest first, then the journal itself,
     * into {@code sink}, the sink of the journal's slot: what a process set aside at start, and what it wrote after,
     * in the order it was written.
     */
    public static Recovery.Result recoverWithPending(JournalLock hold, RecordSink sink, StatusReporter status)
            throws IOException {
        Recovery.Result all = Recovery.Result.NONE;
        for (Path pending : pendingOf(hold.journalFile())) {
            all = all.plus(recoverPending(pending, sink, status));
        }
        return all.plus(recover(hold, sink, status));
    }

    /**
     * Recovers, and deletes, the journal of every slot other than {@code own} whose locks are free, after its
     * pending copies: a process that died left them. Each goes to the sink of its own slot, opened by
     * {@code sinks} for it and closed after.
     */
    public static Recovery.Result recoverLeftovers(Path first, int slots, Path own, RecordSink.Factory sinks,
            long closeTimeoutNanos, StatusReporter status) throws IOException {
        Recovery.Result all = Recovery.Result.NONE;
        for (int i = 0; i < slots; i++) {
            Path journal = JournalSlots.slot(first, i);
            if (journal.equals(own)
                    || !Files.exists(journal, LinkOption.NOFOLLOW_LINKS) && pendingOf(journal).isEmpty()) {
                continue;
            }
            JournalLock lock = JournalLock.tryAcquire(journal, status);
            if (lock == null) {
                continue; // a running engine's, in this process or another one
            }
            try {
                if (lock.journalChannel().size() > 0 || !pendingOf(journal).isEmpty()) {
                    RecordSink sink = sinks.open(i);
                    try {
                        all = all.plus(recoverWithPending(lock, sink, status));
                    } finally {
                        sink.close(closeTimeoutNanos);
                    }
                }
                if (lock.journalIsNamed()) {
                    SafeFiles.delete(journal); // all it held is in the sink now; still locked, so no one else has it open
                }
            } finally {
                lock.close();
            }
        }
        return all;
    }
}
