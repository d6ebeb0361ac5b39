package io.github.lockfreelog.journal;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * An exclusive lock on {@code <journal>.lock}, held while an engine uses the journal. A second
 * appender or a second process pointed at the same journal (a new deployment started before the
 * old one stopped) is refused at start instead of recovering, and recreating, a journal that is
 * still mapped and written by its owner. The operating system releases the lock when a process
 * dies, so a crash never leaves it behind.
 */
final class JournalLock implements AutoCloseable {

    private final FileChannel channel;
    private final FileLock lock;

    private JournalLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    static JournalLock acquire(Path journalFile) throws IOException {
        Path lockFile = journalFile.resolveSibling(journalFile.getFileName() + ".lock");
        Path parent = lockFile.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        FileLock lock;
        try {
            lock = channel.tryLock();
        } catch (OverlappingFileLockException e) {
            lock = null;
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
        if (lock == null) {
            channel.close();
            throw new IOException("the journal " + journalFile + " is in use by another appender or process"
                    + " (it holds " + lockFile + "); give each appender its own <file> or <journal>");
        }
        return new JournalLock(channel, lock);
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
        }
    }
}
