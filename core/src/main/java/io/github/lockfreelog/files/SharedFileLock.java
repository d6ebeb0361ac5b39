package io.github.lockfreelog.files;

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
import java.util.concurrent.locks.ReentrantLock; // the roll lock's in-JVM half: only a drainer that rolls takes it
import java.util.function.Consumer;

/**
 * A lock file that the users of one JVM share and take one at a time, across processes (the roll
 * lock of a log file). Within the JVM each lock file, known by its real path, is opened once and
 * closed when its last user closes, so a descriptor of it is never closed under a holder (POSIX
 * locks belong to the process). Each {@link #take} checks, once it holds the lock, that the name
 * still stands for the locked file: if a sweep deleted it or its folder is gone, the file is
 * created again (its folder owner-only) and locked anew, so two processes never each hold "the"
 * lock on a file of their own. Where the file system has no locks at all (ENOLCK: an NFS mount
 * without its lock service) a take holds this JVM's half only, and says so once through the
 * callback given to {@link #open}: rolling goes on, safe while no other process uses the lock.
 */
public final class SharedFileLock implements AutoCloseable {

    private static final long RETRY_NANOS = TimeUnit.MICROSECONDS.toNanos(200);

    /** The lock files this JVM has open, by real path; guarded by itself. */
    private static final Map<Path, Shared> OPEN = new HashMap<>();

    /** One lock file of this JVM. */
    private static final class Shared {
        final Path file;
        /**
         * Taken before the file lock: one holder per JVM, so the file lock is never asked for twice.
         * Only the drainer takes it, to roll; callers of append never touch it.
         */
        final ReentrantLock inJvm = new ReentrantLock(); // the drainer's, to roll; never on an append
        /** Replaced, under {@link #inJvm}, when an interrupt closed it or the name stands for another file. */
        FileChannel channel;
        Object key;
        int users;

        Shared(Path file) {
            this.file = file;
        }

        /** Opens the name anew (under {@link #inJvm}, or before anyone can take it). */
        void reopen() throws IOException {
            if (channel != null) {
                channel.close(); // the only descriptor of its file in this JVM, and ours to close
            }
            PrivateFolders.ensure(file.getParent());
            channel = SafeFiles.openOwnerOnly(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            key = FileIdentity.of(file);
        }
    }

    private final Shared shared;
    private final long waitNanos;
    private final Consumer<IOException> withoutLocks;
    /** Whether {@link #withoutLocks} was told; only the thread that takes reads and writes it. */
    private boolean toldWithoutLocks;
    private boolean closed;

    private SharedFileLock(Shared shared, long waitNanos, Consumer<IOException> withoutLocks) {
        this.shared = shared;
        this.waitNanos = waitNanos;
        this.withoutLocks = withoutLocks;
    }

    /**
     * Opens (or shares) the lock file {@code file}, whose folder must be a real path; takes nothing
     * yet. {@link #take} waits at most {@code waitNanos} for another process; where the file system
     * has no locks, it holds this JVM's half only and tells {@code withoutLocks}, the first time,
     * with the failure.
     */
    public static SharedFileLock open(Path file, long waitNanos, Consumer<IOException> withoutLocks) throws IOException {
        synchronized (OPEN) { // only when a user opens or closes (at start, at stop); never on an append
            Shared shared = OPEN.get(file);
            if (shared == null) {
                shared = new Shared(file);
                shared.reopen();
                OPEN.put(file, shared);
            }
            shared.users++;
            return new SharedFileLock(shared, waitNanos, withoutLocks);
        }
    }

    /** A hold on the lock; closing it lets others take it. */
    public interface Held extends AutoCloseable {
        @Override
        void close();
    }

    /**
     * Takes the lock, waiting while another process or user of this JVM holds it, at most the
     * wait given at {@link #open}.
     *
     * @throws IOException when the wait ran out (another process hangs holding it), or the file cannot be made again
     */
    public Held take() throws IOException {
        Shared s = shared;
        s.inJvm.lock(); // only the thread that rolls; callers of append never wait on it
        boolean taken = false;
        try {
            long deadline = System.nanoTime() + waitNanos;
            for (int closedByInterrupt = 0;;) {
                FileLock lock;
                try {
                    if (!s.channel.isOpen()) {
                        s.reopen();
                    }
                    lock = Mounts.tryLock(s.channel, s.file);
                } catch (ClosedChannelException e) { // an interrupt closed it: no lock of ours went with it
                    Thread.interrupted();
                    if (++closedByInterrupt > Uninterruptible.ATTEMPTS) {
                        throw e;
                    }
                    continue;
                } catch (IOException e) {
                    if (!Mounts.noLocks(e)) {
                        throw e;
                    }
                    tellWithoutLocks(e);
                    taken = true;
                    return s.inJvm::unlock; // this JVM's half: the file system has none to give (ENOLCK)
                }
                if (lock != null) {
                    if (FileIdentity.names(s.file, s.key)) {
                        taken = true;
                        return () -> release(lock);
                    }
                    s.reopen(); // deleted or replaced since it was opened: lock what the name stands for now
                    continue;
                }
                if (System.nanoTime() - deadline > 0) {
                    throw new IOException("another process has held " + s.file + " for over "
                            + TimeUnit.NANOSECONDS.toSeconds(waitNanos) + " s");
                }
                LockSupport.parkNanos(this, RETRY_NANOS);
            }
        } finally {
            if (!taken) {
                s.inJvm.unlock(); // the drainer's roll lock, see inJvm
            }
        }
    }

    private void tellWithoutLocks(IOException e) {
        if (!toldWithoutLocks) {
            toldWithoutLocks = true;
            withoutLocks.accept(e);
        }
    }

    private void release(FileLock lock) {
        try {
            lock.release();
        } catch (IOException e) {
            // the channel was closed under it, which released it
        } finally {
            shared.inJvm.unlock(); // the drainer's roll lock, see inJvm
        }
    }

    @Override
    public void close() throws IOException {
        synchronized (OPEN) { // only when a user opens or closes; never on an append
            if (closed) {
                return;
            }
            closed = true;
            if (--shared.users == 0) {
                OPEN.remove(shared.file);
                shared.channel.close(); // no user of this JVM holds the lock: nothing of another's is released
            }
        }
    }
}
