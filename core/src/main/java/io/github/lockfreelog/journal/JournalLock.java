package io.github.lockfreelog.journal;

import io.github.lockfreelog.diagnostics.StatusReporter;
import io.github.lockfreelog.files.FileTimes;
import io.github.lockfreelog.files.LockedFile;
import io.github.lockfreelog.files.PrivateFolders;
import io.github.lockfreelog.files.SafeFiles;
import io.github.lockfreelog.term.JournalDescriptor;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The hold an engine has on its journal while it uses it: exclusive locks, across processes, on
 * the journal file itself and on its lock file {@code <journal>.lock}. A second appender or
 * process pointed at the same journal is refused at start instead of recovering, and recreating, a
 * journal that is still mapped and written by its owner. The operating system releases the locks
 * when a process dies, so a crash never leaves them behind.
 *
 * <p>The locks are on files, not names ({@link LockedFile}): the same journal reached by another
 * path is the same lock, and a lock is re-checked against its name once taken. The journal itself
 * is the lock that counts: it is held through the very channel the engine maps, for the engine's
 * life, so a retention sweep that deletes the lock file (never written, so it looks old) cannot
 * hand a live journal to the next process: that process takes the new lock file but finds the
 * journal locked, and takes another slot. The lock file holds the slot while the journal file
 * itself changes under it: a journal a dead process left is renamed aside and a new one made at its
 * name ({@code RecordRecovery.setAside}), a damaged one is moved aside and built again
 * ({@link #replaceJournal}); another process, which takes the lock file first, cannot take the slot
 * in between.
 *
 * <p>While the engine runs, {@link #check} (the drainer, a few times a second) keeps the names true:
 * a lock file a sweep removed is locked anew, and both files get a fresh modification time at
 * least every {@link FileTimes#REFRESH} so that a sweep by age never picks them; it tells when the journal
 * itself is gone from disk (its folder deleted), for the engine to build a new one.
 */
public final class JournalLock implements AutoCloseable {

    private final Path journalFile;
    private final Path lockFile;
    private volatile LockedFile lock;
    private volatile LockedFile journal;

    private JournalLock(Path journalFile, LockedFile lock, LockedFile journal) {
        this.journalFile = journalFile;
        this.lockFile = lock.path();
        this.lock = lock;
        this.journal = journal;
    }

    /** The lock file of a journal. */
    public static Path lockFileOf(Path journalFile) {
        return journalFile.resolveSibling(journalFile.getFileName() + ".lock");
    }

    /**
     * Takes the locks of {@code journalFile} (creating the files owner-only, in a folder the caller
     * made sure of with {@link PrivateFolders#ensure}), or returns {@code null} if this JVM or
     * another process holds either.
     */
    public static JournalLock tryAcquire(Path journalFile, StatusReporter status) throws IOException {
        Path lockFile = lockFileOf(journalFile);
        SafeFiles.refuseLink(lockFile, message -> status.error(message, null));
        LockedFile lock = LockedFile.tryLock(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        if (lock == null) {
            return null;
        }
        try {
            LockedFile journal = lockJournal(journalFile, status);
            if (journal == null) {
                lock.close();
                status.warn("the journal " + journalFile + " is in use by a running process although its lock file "
                        + lockFile + " was free (removed by a clean-up of old files?); it is left to that process", null);
                return null;
            }
            return new JournalLock(journalFile, lock, journal);
        } catch (IOException | RuntimeException | Error e) {
            lock.close();
            throw e;
        }
    }

    /** Locks the journal file itself, moving a link planted at its name aside first; {@code null} if held. */
    private static LockedFile lockJournal(Path journalFile, StatusReporter status) throws IOException {
        SafeFiles.refuseLink(journalFile, message -> status.error(message, null));
        LockedFile journal = LockedFile.tryLock(journalFile, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE);
        if (journal == null) {
            return null;
        }
        try {
            if (SafeFiles.isOtherUsers(journalFile)) {
                // not made by this user: whoever owns it may read it and change it at will
                int owner = SafeFiles.uid(journalFile, LinkOption.NOFOLLOW_LINKS);
                journal.close();
                Path aside = SafeFiles.moveAside(journalFile);
                status.error("the journal " + journalFile + " is owned by uid " + owner + ", not by the user"
                        + " who runs this process: lockfreelog never keeps events in a journal"
                        + " another user may read or change; moved it to " + aside + " (not recovered: find out who made"
                        + " it) and made a new one", null);
                return lockJournal(journalFile, status);
            }
            // this user's own, but perhaps copied or restored with a mode others may read: closed before any event
            SafeFiles.makeOwnerOnlyByName(journalFile);
            return journal;
        } catch (IOException | RuntimeException | Error e) {
            journal.close(); // a failed chmod must not leave the journal locked until the JVM exits
            throw e;
        }
    }

    /**
     * Runs {@code action} while this process holds the locks of the journal {@code journalFile},
     * if no running engine holds them: then its owner is gone (a process that dies loses its
     * locks). The lock file first, as at start, unless a sweep removed it; then the journal itself.
     * Creates nothing and reports nothing: {@code false} when the journal does not exist or is held.
     */
    public static boolean whileFree(Path journalFile, Runnable action) {
        LockedFile lock = null;
        try {
            try {
                lock = LockedFile.tryLock(lockFileOf(journalFile), StandardOpenOption.WRITE);
                if (lock == null) {
                    return false;
                }
            } catch (NoSuchFileException e) {
                // swept: the journal's own lock is the one that counts
            }
            LockedFile journal = LockedFile.tryLock(journalFile, StandardOpenOption.READ, StandardOpenOption.WRITE);
            if (journal == null) {
                return false;
            }
            try {
                action.run();
                return true;
            } finally {
                journal.close();
            }
        } catch (IOException | RuntimeException e) {
            return false;
        } finally {
            if (lock != null) {
                lock.close();
            }
        }
    }

    /** Takes the locks of {@code journalFile}, or fails saying who holds them. */
    static JournalLock acquire(Path journalFile, StatusReporter status) throws IOException {
        JournalLock lock = tryAcquire(journalFile, status);
        if (lock == null) {
            throw new IOException("the journal " + journalFile + " is in use by another appender or process"
                    + " (it holds " + lockFileOf(journalFile) + "); a journal set with the setting journal serves"
                    + " one running appender only: give each instance its own journal, or leave journal unset so"
                    + " that each instance takes a free journal beside the log file");
        }
        return lock;
    }

    public Path journalFile() {
        return journalFile;
    }

    /** The journal file's channel: the one the engine maps and truncates, locked for as long as this hold lasts. */
    public FileChannel journalChannel() {
        return journal.channel();
    }

    /**
     * After a damaged journal was moved aside (at start, before it is mapped): locks the new file
     * that takes the journal's name, under the lock file this hold keeps, and lets the old one go.
     */
    public void replaceJournal(StatusReporter status) throws IOException {
        LockedFile fresh = lockJournal(journalFile, status);
        if (fresh == null) {
            throw new IOException("the journal " + journalFile + " was taken by another process while this one"
                    + " moved a damaged journal aside");
        }
        LockedFile old = journal;
        journal = fresh;
        old.close();
    }

    /** What {@link #check} found. */
    public enum Check {
        /** Journal and lock file are where they should be. */
        INTACT,
        /** The journal is gone from disk, or its name stands for another file: a new one must be built. */
        JOURNAL_GONE
    }

    /**
     * Keeps the names true while the engine runs; see the class comment. Reports a lock file it
     * locked again to {@code status}. Never throws: a failure is tried again at the next check.
     */
    public Check check(StatusReporter status) {
        if (!journal.isNamed() || !journal.isHeld()) {
            return Check.JOURNAL_GONE; // gone from disk, or its lock lost (an interrupt closed its channel)
        }
        LockedFile current = lock;
        if ((!current.isNamed() || !current.isHeld()) && relock(current, status)) {
            current = lock;
        }
        // an interrupt during these writes would close the channel and lose its lock: the next check sees it
        FileTimes.refresh(journalFile, journal.channel(), JournalDescriptor.TOUCH_OFFSET, Long.BYTES);
        FileTimes.refreshLockFile(current.path(), current.channel());
        return Check.INTACT;
    }

    /** Locks a new lock file at the name a sweep emptied; the old one (gone) is let go. */
    private boolean relock(LockedFile gone, StatusReporter status) {
        try {
            if (!gone.isHeld()) {
                gone.close(); // its lock is lost already; its file may still be the named one, to lock anew
            }
            LockedFile fresh = LockedFile.tryLock(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            if (fresh == null) {
                return false; // another process holds the new file for a moment (it then finds the journal locked)
            }
            lock = fresh;
            gone.close();
            status.warn("the lock file " + lockFile + " of the journal in use was removed (a clean-up of old files?);"
                    + " it is locked again", null);
            return true;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /** Whether the journal's name still stands for the journal this hold locks. */
    public boolean journalIsNamed() {
        return journal.isNamed();
    }

    /** Lets the lock file go, keeping the journal (gone from disk) locked until {@link #close}. */
    public void releaseLockFile() {
        lock.close();
    }

    @Override
    public void close() {
        journal.close();
        lock.close();
    }
}
