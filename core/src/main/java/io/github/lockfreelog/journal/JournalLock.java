package io.github.lockfreelog.journal;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An exclusive lock on {@code <journal>.lock}, held while an engine uses the journal. A second
 * appender or a second process pointed at the same journal (a new deployment started before the
 * old one stopped) is refused at start instead of recovering, and recreating, a journal that is
 * still mapped and written by its owner. The operating system releases the lock when a process
 * dies, so a crash never leaves it behind.
 *
 * <p>POSIX record locks belong to the process, and closing <em>any</em> descriptor of the file
 * releases them all. So within one JVM a journal's lock file is opened only while no engine of
 * this JVM holds it: a second engine is refused from {@link #HELD} before it opens anything, and
 * never closes a descriptor of a lock that another engine holds.
 */
final class JournalLock implements AutoCloseable {

    /** Lock files held in this JVM (absolute, normalised paths). */
    private static final Set<Path> HELD = ConcurrentHashMap.newKeySet();

    private final Path lockFile;
    private final FileChannel channel;
    private final FileLock lock;

    private JournalLock(Path lockFile, FileChannel channel, FileLock lock) {
        this.lockFile = lockFile;
        this.channel = channel;
        this.lock = lock;
    }

    /** The lock file of a journal. */
    static Path lockFileOf(Path journalFile) {
        return journalFile.resolveSibling(journalFile.getFileName() + ".lock").toAbsolutePath().normalize();
    }

    /**
     * Takes the lock of {@code journalFile}, or returns {@code null} if this JVM or another
     * process holds it.
     */
    static JournalLock tryAcquire(Path journalFile, StatusReporter status) throws IOException {
        Path lockFile = lockFileOf(journalFile);
        if (!HELD.add(lockFile)) {
            return null;
        }
        try {
            SafeFiles.createPrivateDirectories(lockFile.getParent());
            SafeFiles.refuseLink(lockFile, status);
            FileChannel channel = SafeFiles.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            FileLock lock;
            try {
                lock = channel.tryLock();
            } catch (IOException | RuntimeException e) {
                channel.close();
                throw e;
            }
            if (lock == null) {
                channel.close(); // no engine of this JVM holds it, so this releases nothing of ours
                HELD.remove(lockFile);
                return null;
            }
            return new JournalLock(lockFile, channel, lock);
        } catch (IOException | RuntimeException | Error e) {
            HELD.remove(lockFile);
            throw e;
        }
    }

    /** Takes the lock of {@code journalFile}, or fails saying who holds it. */
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

    @Override
    public void close() {
        try {
            lock.release();
        } catch (IOException | RuntimeException e) {
            // closing the channel below releases it as well
        }
        try {
            channel.close();
        } catch (IOException e) {
            // nothing left to release
        } finally {
            HELD.remove(lockFile);
        }
    }
}
