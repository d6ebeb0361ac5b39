package io.github.lockfreelog.logback;

import io.github.lockfreelog.journal.SafeFiles;
import io.github.lockfreelog.journal.StatusReporter;
import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * An exclusive lock, across processes, on {@code <log folder>/.lockfreelog/<log file name>.roll.lock},
 * held by whoever rolls the log file while it checks that the live file is still the one it
 * writes, renames it and opens the next one. Two instances that decide to roll the same file at
 * the same moment therefore never both rename it (the second would archive the first one's new
 * file, or even pick the same archive name), and archive names are chosen by one at a time. Only
 * the drainer takes it, for the few system calls of a roll; callers never see it.
 *
 * <p>POSIX record locks belong to the process, and closing any descriptor of the file releases
 * them all. So within one JVM each lock file is opened once, shared by every sink of that log
 * file, taken by one of them at a time, and closed when the last of them closes.
 */
final class RollLock implements AutoCloseable {

    /** How long a roll waits for another process's roll before it fails (and is tried again later). */
    static final long WAIT_NANOS = TimeUnit.SECONDS.toNanos(5);
    private static final long RETRY_NANOS = TimeUnit.MICROSECONDS.toNanos(200);

    /** The lock files this JVM has open; guarded by itself. */
    private static final Map<Path, Shared> OPEN = new HashMap<>();

    /** One lock file of this JVM. */
    private static final class Shared {
        final Path file;
        /** Taken before the file lock: one holder per JVM, so the file lock is never asked for twice. */
        final ReentrantLock inJvm = new ReentrantLock();
        /** Reopened, under {@link #inJvm}, if an interrupt closed it; closed when {@link #users} drops to 0. */
        FileChannel channel;
        int users;

        Shared(Path file) {
            this.file = file;
        }
    }

    private final Shared shared;
    private boolean closed;

    private RollLock(Shared shared) {
        this.shared = shared;
    }

    /** The lock file of {@code logFile}. */
    static Path lockFileOf(Path logFile) {
        Path absolute = logFile.toAbsolutePath().normalize();
        return absolute.resolveSibling(LockFreeFileAppender.JOURNAL_FOLDER)
                .resolve(absolute.getFileName() + ".roll.lock");
    }

    /** Opens (or shares) the roll lock file of {@code logFile}; takes nothing yet. */
    static RollLock open(Path logFile, StatusReporter status) throws IOException {
        Path file = lockFileOf(logFile);
        synchronized (OPEN) { // only when a sink opens or closes, on the drainer or at start/stop; never on append
            Shared shared = OPEN.get(file);
            if (shared == null) {
                shared = new Shared(file);
                SafeFiles.createPrivateDirectories(file.getParent());
                SafeFiles.refuseLink(file, status);
                shared.channel = SafeFiles.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                OPEN.put(file, shared);
            }
            shared.users++;
            return new RollLock(shared);
        }
    }

    /** A roll in progress; closing it lets others roll. */
    interface Held extends AutoCloseable {
        @Override
        void close();
    }

    /**
     * Takes the lock, waiting while another process or sink of this JVM holds it, at most
     * {@link #WAIT_NANOS}.
     *
     * @throws IOException when the wait ran out (another process hangs in a roll)
     */
    Held take() throws IOException {
        Shared s = shared;
        s.inJvm.lock(); // the drainer's roll only: callers never wait on it
        boolean taken = false;
        try {
            long deadline = System.nanoTime() + WAIT_NANOS;
            for (int closedByInterrupt = 0;;) {
                FileLock lock;
                try {
                    if (!s.channel.isOpen()) {
                        s.channel = SafeFiles.open(s.file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                    }
                    lock = s.channel.tryLock();
                } catch (ClosedChannelException e) { // an interrupt closed it: no lock of ours went with it
                    Thread.interrupted();
                    if (++closedByInterrupt > 3) {
                        throw e;
                    }
                    continue;
                }
                if (lock != null) {
                    taken = true;
                    return () -> release(lock);
                }
                if (System.nanoTime() - deadline > 0) {
                    throw new IOException("another process has held " + s.file + " for over "
                            + TimeUnit.NANOSECONDS.toSeconds(WAIT_NANOS) + " s; the roll is tried again later");
                }
                LockSupport.parkNanos(this, RETRY_NANOS);
            }
        } finally {
            if (!taken) {
                s.inJvm.unlock();
            }
        }
    }

    private void release(FileLock lock) {
        try {
            lock.release();
        } catch (IOException e) {
            // the channel was closed under it, which released it
        } finally {
            shared.inJvm.unlock();
        }
    }

    @Override
    public void close() throws IOException {
        synchronized (OPEN) { // only when a sink opens or closes, on the drainer or at start/stop; never on append
            if (closed) {
                return;
            }
            closed = true;
            if (--shared.users == 0) {
                OPEN.remove(shared.file);
                shared.channel.close(); // no sink of this JVM holds the lock: nothing of another's is released
            }
        }
    }
}
