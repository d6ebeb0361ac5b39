package io.github.lockfreelog.journal;

import io.github.lockfreelog.diagnostics.StatusReporter;
import io.github.lockfreelog.files.Mounts;
import io.github.lockfreelog.files.PrivateFolders;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/**
 * The journals that the instances writing one log file choose from, so that several processes
 * (two instances of one application, an old and a new deployment) may log to the same file at
 * once. Slot 0 is the default journal {@code <file>.journal}; slot {@code i} is
 * {@code <file>.i.journal} beside it. Each running engine holds the lock of one slot
 * ({@link JournalLock}):
 * <ul>
 *   <li>at start an engine takes the first slot whose lock is free, and recovers what that slot's
 *       journal holds, as with a single journal;</li>
 *   <li>then it locks, one at a time, every other slot whose lock is free and whose journal
 *       exists: a process that died left it (a running one would hold its lock). Its events are
 *       recovered into the log, by content and exactly once (recovery records its progress in that
 *       journal, so a crash meanwhile is recovered again by the next start), and the journal is
 *       deleted before its lock is released. So the next instance that starts recovers a crashed
 *       one, whichever slot it takes itself.</li>
 * </ul>
 * Every operation on a slot's journal happens while its locks are held ({@link JournalLock}: the
 * journal file itself and its lock file, each tied to the file, not the name). Lock files are never
 * deleted by lockfreelog; one that an operator's clean-up deletes costs nothing, since the journal
 * itself stays locked by its owner.
 *
 * <p>All of this holds only among the processes of one host: journals are refused on a file system
 * that several hosts may mount ({@link Mounts#requireLocal}), and where a file system has no locks
 * at all (ENOLCK) the start fails saying so, naming the folder and its file system.
 */
public final class JournalSlots {

    /** Name of the hidden folder, beside the log file, that holds the journals, their locks and the write ledger by default. */
    public static final String JOURNAL_FOLDER = ".lockfreelog";

    /** Slots tried when the journal is not set explicitly: at most this many instances may write one log file. */
    public static final int DEFAULT_SLOTS = 16;

    private JournalSlots() {
    }

    /**
     * The hidden folder beside {@code logFile} (a real path) that holds its default journals, roll lock and write
     * ledger: {@value #JOURNAL_FOLDER} when the log's folder is this user's and closed to others (or not there yet),
     * else this user's own folder in it ({@link PrivateFolders#ownFolderIn}, {@code .lockfreelog-uid-<uid>}), since
     * another user who may write to the log's folder (a sticky {@code /tmp}, an {@code emptyDir}) could make
     * {@value #JOURNAL_FOLDER} first. The choice depends on the folder alone, so every instance of this user on one log
     * file, and every start, makes the same.
     */
    public static PrivateFolders.OwnFolder hiddenFolder(Path logFile) throws IOException {
        Path dir = logFile.toAbsolutePath().getParent();
        if (!Files.isDirectory(dir) || PrivateFolders.isPrivate(dir)) {
            return new PrivateFolders.OwnFolder(dir.resolve(JOURNAL_FOLDER), null);
        }
        return PrivateFolders.ownFolderIn(dir, JOURNAL_FOLDER);
    }

    /**
     * {@link #hiddenFolder}'s folder; where it cannot be told (an I/O error), {@value #JOURNAL_FOLDER}, whose use then
     * meets the error and reports it.
     */
    public static Path hiddenFolderOf(Path logFile) {
        try {
            return hiddenFolder(logFile).folder();
        } catch (IOException | RuntimeException e) {
            return logFile.toAbsolutePath().resolveSibling(JOURNAL_FOLDER);
        }
    }

    /** The journal of slot {@code slot}: {@code first} itself for slot 0, else {@code <name>.<slot>.journal} beside it. */
    public static Path slot(Path first, int slot) {
        if (slot == 0) {
            return first;
        }
        String name = first.getFileName().toString();
        String suffix = ".journal";
        String slotName = name.endsWith(suffix) && name.length() > suffix.length()
                ? name.substring(0, name.length() - suffix.length()) + "." + slot + suffix
                : name + "." + slot;
        return first.resolveSibling(slotName);
    }

    /** A slot whose lock this engine now holds: its journal, the hold, and its number ({@code -1}: a journal set explicitly). */
    public record Taken(Path journal, JournalLock lock, int slot) {
    }

    /**
     * Locks the first free slot of {@code slots} starting with {@code first}; with one slot, the
     * journal {@code first} or nothing.
     *
     * @throws IOException naming the folder when every slot is in use
     * @throws PrivateFolders.UnsafeFolderException when the folder is not the process's user's or is open to
     *         others, or is on a file system that several hosts may mount
     */
    public static Taken take(Path first, int slots, StatusReporter status) throws IOException {
        Path folder = first.toAbsolutePath().getParent();
        Mounts.requireLocal(folder);
        PrivateFolders.ensure(folder); // once: every slot lies in it
        try {
            return takeSlot(first, slots, status);
        } catch (IOException e) {
            if (!Mounts.noLocks(e)) {
                throw e;
            }
            throw new IOException(Mounts.noLocksIn(folder) + ": lockfreelog owns a journal through its locks, so it"
                    + " keeps none there; set journal to a path on a local disk", e);
        }
    }

    private static Taken takeSlot(Path first, int slots, StatusReporter status) throws IOException {
        if (slots <= 1) {
            return new Taken(first, JournalLock.acquire(first, status), -1);
        }
        for (int i = 0; i < slots; i++) {
            Path journal = slot(first, i);
            JournalLock lock = JournalLock.tryAcquire(journal, status);
            if (lock != null) {
                return new Taken(journal, lock, i);
            }
        }
        throw new IOException("all " + slots + " journals of this log file in " + first.getParent()
                + " are in use by other appenders or processes (" + first.getFileName() + " to "
                + slot(first, slots - 1).getFileName() + " are locked): at most " + slots
                + " instances may write one log file at once; stop one, or give this one its own file");
    }
}
