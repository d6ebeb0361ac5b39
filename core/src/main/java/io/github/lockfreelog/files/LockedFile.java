package io.github.lockfreelog.files;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An exclusive lock, across processes, on one file, held through the one channel of this JVM that
 * is open on it, and tied to the file, not to its name.
 *
 * <ul>
 *   <li><b>Known by the file.</b> POSIX record locks belong to the process, and closing
 *       <em>any</em> descriptor of a file releases them all. So a file this JVM holds is known by its
 *       key (device and inode, {@link FileIdentity}) in one table, and is never opened again while
 *       held: a second path to it (a symbolic link to its folder, a bind mount) is recognised before
 *       anything is opened. A channel that turns out to be on a held file all the same (the name
 *       was swapped under us) is kept open until that lock is released, never closed before.</li>
 *   <li><b>Tied to the file.</b> After the lock is taken the name is looked up again: when it no
 *       longer names the locked file (a sweep deleted it, someone replaced it), the lock is let go
 *       and taken again on what the name stands for now, so a lock is never held on a file that
 *       others cannot find. {@link #isNamed()} tells later whether that still holds.</li>
 * </ul>
 * A file is opened only through {@link SafeFiles} (never following a link at its name) and
 * created owner-only.
 */
public final class LockedFile implements AutoCloseable {

    /** Files this JVM holds, by key. */
    private static final Map<Object, LockedFile> HELD = new ConcurrentHashMap<>();
    /** Channels that could not be closed without releasing a held lock: closed when it is released. */
    private static final Map<Object, List<FileChannel>> PARKED = new ConcurrentHashMap<>();
    /** Tries when the name keeps naming another file than the one opened or locked. */
    private static final int TRIES = 5;

    private final Path path;
    private final Object key;
    private final FileChannel channel;
    private final FileLock lock;

    private LockedFile(Path path, Object key, FileChannel channel, FileLock lock) {
        this.path = path;
        this.key = key;
        this.channel = channel;
        this.lock = lock;
    }

    /**
     * Opens {@code path} (creating it owner-only with {@link java.nio.file.StandardOpenOption#CREATE}
     * among {@code options}) and locks it, or returns {@code null} when this JVM or another process
     * holds it. The caller's options must let the channel be written ({@code WRITE}).
     */
    public static LockedFile tryLock(Path path, OpenOption... options) throws IOException {
        return Uninterruptible.call(() -> {
            for (int tries = 1;; tries++) {
                Attempt attempt = attempt(path, options);
                if (attempt != Attempt.RENAMED) {
                    return attempt.locked;
                }
                if (tries == TRIES) {
                    throw new IOException("could not lock " + path + ": it named another file at each of " + TRIES
                            + " tries (something keeps replacing it)");
                }
            }
        });
    }

    /** One try: locked, refused, or the name moved meanwhile. */
    private static final class Attempt {
        static final Attempt REFUSED = new Attempt(null);
        static final Attempt RENAMED = new Attempt(null);
        final LockedFile locked;

        Attempt(LockedFile locked) {
            this.locked = locked;
        }
    }

    private static Attempt attempt(Path path, OpenOption... options) throws IOException {
        Object before = keyOf(path);
        if (HELD.containsKey(before)) {
            return Attempt.REFUSED; // ours already: opening it again could only do harm
        }
        FileChannel channel = SafeFiles.openOwnerOnly(path, options);
        Object opened = keyOf(path);
        if (opened == FileIdentity.ABSENT || (before != FileIdentity.ABSENT && !before.equals(opened))) {
            dispose(channel, before, opened); // swapped between the look and the open: which file is open is unknown
            return Attempt.RENAMED;
        }
        LockedFile placeholder = new LockedFile(path, opened, channel, null);
        if (HELD.putIfAbsent(opened, placeholder) != null) {
            dispose(channel, opened, opened);
            return Attempt.REFUSED;
        }
        FileLock lock;
        try {
            lock = Mounts.tryLock(channel, path);
        } catch (OverlappingFileLockException e) {
            // a lock of this JVM that did not come through here (another library): never close under it
            HELD.remove(opened, placeholder);
            park(opened, channel);
            return Attempt.REFUSED;
        } catch (IOException | RuntimeException | Error e) {
            HELD.remove(opened, placeholder);
            channel.close(); // no lock of this JVM is on it: the table had none
            throw e;
        }
        if (lock == null) {
            HELD.remove(opened, placeholder);
            channel.close(); // another process holds it; this JVM holds nothing on it
            return Attempt.REFUSED;
        }
        if (!opened.equals(keyOf(path))) {
            release(lock);
            HELD.remove(opened, placeholder);
            channel.close(); // deleted or replaced before we locked it: try what the name stands for now
            return Attempt.RENAMED;
        }
        LockedFile locked = new LockedFile(path, opened, channel, lock);
        HELD.put(opened, locked);
        return new Attempt(locked);
    }

    /** The key that identifies {@code path} in the table; its path where the file system has no keys. */
    private static Object keyOf(Path path) {
        Object key = FileIdentity.of(path);
        return key != null ? key : path.toAbsolutePath().normalize();
    }

    /** Closes a channel of unknown file unless it may be on a file this JVM holds; then parks it. */
    private static void dispose(FileChannel channel, Object maybe, Object orMaybe) throws IOException {
        if (HELD.containsKey(maybe)) {
            park(maybe, channel);
        } else if (HELD.containsKey(orMaybe)) {
            park(orMaybe, channel);
        } else {
            channel.close();
        }
    }

    private static void park(Object key, FileChannel channel) {
        PARKED.computeIfAbsent(key, k -> new ArrayList<>()).add(channel);
    }

    private static void release(FileLock lock) {
        try {
            lock.release();
        } catch (IOException e) {
            // closing the channel releases it as well
        }
    }

    /** The locked file's channel: the one this JVM may use for it while the lock is held. */
    public FileChannel channel() {
        return channel;
    }

    public Path path() {
        return path;
    }

    /** The key of the locked file. */
    public Object key() {
        return key;
    }

    /** Whether the path still names the locked file (else it was deleted or replaced since). */
    public boolean isNamed() {
        return FileIdentity.names(path, key);
    }

    /**
     * Whether the lock is still held: an interrupt of a thread using the channel closes it for good,
     * and closing it released the lock. A holder that finds it lost closes this and locks again.
     */
    public boolean isHeld() {
        return channel.isOpen() && lock.isValid();
    }

    /** Releases the lock and closes the channel (and any channel of the same file parked meanwhile). */
    @Override
    public void close() {
        if (!HELD.remove(key, this)) {
            return;
        }
        release(lock);
        try {
            channel.close();
        } catch (IOException e) {
            // nothing left to release
        }
        List<FileChannel> parked = PARKED.remove(key);
        if (parked != null) {
            for (FileChannel other : parked) {
                try {
                    other.close();
                } catch (IOException e) {
                    // nothing held through it
                }
            }
        }
    }
}
