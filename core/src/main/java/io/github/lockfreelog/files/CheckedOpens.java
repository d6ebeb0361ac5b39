package io.github.lockfreelog.files;

import io.github.lockfreelog.files.PrivateFolders.UnsafeFolderException;
import io.github.lockfreelog.files.SafeFiles.RefusedLiveFileException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.FileAttribute;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * Opens that what another user does to names between a check and the open cannot subvert: a name is looked up anew
 * at each open, and in a folder that others may write to without the sticky bit another user may rename and replace
 * what was checked in that moment. Two cases, one section each.
 *
 * <p><b>Folders checked.</b> The folders that {@link PrivateFolders} checked are each known by the identity they had
 * when checked (the file key: device and inode), and files are opened, renamed and deleted in them only in that very
 * folder: the folder is opened first and its identity compared with the one checked, and the file is then opened in
 * the folder opened ({@code openat(2)}, {@code renameat(2)}, {@code unlinkat(2)}, through the JDK's
 * {@link SecureDirectoryStream}, which Linux has), never by its path, so nothing can come between them; a link or
 * another folder put at the folder's name is never followed. Where the JDK has no such stream, the folder's identity
 * is compared before and after the open instead. A folder that is not the one checked is refused with an
 * {@link UnsafeFolderException} that names it (counted: {@link PrivateFolders#swapsRefused}); a check of the folder ({@link PrivateFolders#ensure}) pins it anew.
 *
 * <p><b>The live log.</b> Java opens no file with {@code O_NONBLOCK}, and the open of a FIFO waits until someone
 * opens its other end; another user can put a FIFO at the live log's name between its check (a regular file) and its
 * open. So that open ({@link #openUnblocked}) runs on a thread of its own: when it has not returned after
 * {@link #PATIENCE_MILLIS}, the name is opened for reading and writing (which never waits, on Linux, and gives a FIFO
 * the other end its open waits for), and the open comes back; an open that still does not come back (the FIFO left
 * the name before it could be freed) is left behind, its channel closed if it ever opens, and at most
 * {@link #MOST_LEFT_BEHIND} are left in the process. What an open gives is checked to be seekable, as a regular file
 * is and a FIFO or a socket is not ({@code lseek}): it is refused otherwise.
 */
final class CheckedOpens {

    private CheckedOpens() {
    }

    // ---- folders checked --------------------------------------------------------------------------------------

    /** The file key of each folder checked, by its absolute, normalised path. */
    private static final Map<Path, Object> PINNED = new ConcurrentHashMap<>();

    /**
     * Runs before a file is opened in a pinned folder (given the folder), where tests make a co-tenant's swap between
     * the check and the open; {@code null} but in those tests.
     */
    static volatile Consumer<Path> betweenFolderCheckAndOpen;

    /** Pins {@code folder}, just checked, to the file key {@code key} it had then ({@code null}: none known). */
    static void pin(Path folder, Object key) {
        Path name = folder.toAbsolutePath().normalize();
        if (key == null) {
            PINNED.remove(name);
        } else {
            PINNED.put(name, key);
        }
    }

    /**
     * Opens {@code file} with {@code options} (which must not follow a link) and {@code attributes}: in the folder
     * checked, when its folder is pinned; else by its path.
     *
     * @throws UnsafeFolderException when the folder at the name is not the one checked
     */
    static FileChannel open(Path file, Set<OpenOption> options, FileAttribute<?>... attributes) throws IOException {
        Path absolute = file.toAbsolutePath().normalize();
        Path folder = absolute.getParent();
        Object pinned = folder == null ? null : PINNED.get(folder);
        if (pinned == null) {
            return FileChannel.open(file, options, attributes);
        }
        Consumer<Path> race = betweenFolderCheckAndOpen;
        if (race != null) {
            race.accept(folder);
        }
        try (SecureDirectoryStream<Path> secure = openPinned(folder, pinned, absolute)) {
            if (secure != null) {
                SeekableByteChannel channel = secure.newByteChannel(absolute.getFileName(), options, attributes);
                if (channel instanceof FileChannel fileChannel) {
                    return fileChannel;
                }
                channel.close(); // not a FileChannel on this JDK: opened by path below
            }
        }
        if (!pinned.equals(FileIdentity.ofTarget(folder))) {
            throw PrivateFolders.swapped(folder, absolute);
        }
        FileChannel channel = FileChannel.open(file, options, attributes);
        if (!pinned.equals(FileIdentity.ofTarget(folder))) {
            channel.close();
            throw PrivateFolders.swapped(folder, absolute);
        }
        return channel;
    }

    /**
     * Renames {@code from} to {@code to}, a name in the same folder, links not followed: in the folder checked, when
     * that folder is pinned ({@code renameat(2)}); else by path.
     *
     * @throws UnsafeFolderException when the folder at the name is not the one checked
     */
    static void move(Path from, Path to) throws IOException {
        Path absolute = from.toAbsolutePath().normalize();
        Path folder = absolute.getParent();
        Object pinned = folder == null ? null : PINNED.get(folder);
        if (pinned != null && folder.equals(to.toAbsolutePath().normalize().getParent())) {
            try (SecureDirectoryStream<Path> secure = openPinned(folder, pinned, absolute)) {
                if (secure != null) {
                    secure.move(absolute.getFileName(), secure, to.getFileName());
                    return;
                }
            }
            if (!pinned.equals(FileIdentity.ofTarget(folder))) {
                throw PrivateFolders.swapped(folder, absolute);
            }
        }
        Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, LinkOption.NOFOLLOW_LINKS);
    }

    /**
     * Deletes the file {@code file} (a link not followed): in the folder checked, when that folder is pinned
     * ({@code unlinkat(2)}); else by path.
     *
     * @throws UnsafeFolderException when the folder at the name is not the one checked
     */
    static void delete(Path file) throws IOException {
        Path absolute = file.toAbsolutePath().normalize();
        Path folder = absolute.getParent();
        Object pinned = folder == null ? null : PINNED.get(folder);
        if (pinned != null) {
            try (SecureDirectoryStream<Path> secure = openPinned(folder, pinned, absolute)) {
                if (secure != null) {
                    secure.deleteFile(absolute.getFileName());
                    return;
                }
            }
            if (!pinned.equals(FileIdentity.ofTarget(folder))) {
                throw PrivateFolders.swapped(folder, absolute);
            }
        }
        Files.delete(file);
    }

    /**
     * The pinned {@code folder} opened, found to be the one checked; {@code null} where the JDK offers no
     * {@link SecureDirectoryStream} or the folder may not be listed (the caller then goes by path).
     *
     * @throws UnsafeFolderException when the folder at the name is not the one checked
     */
    private static SecureDirectoryStream<Path> openPinned(Path folder, Object pinned, Path file) throws IOException {
        DirectoryStream<Path> opened;
        try {
            opened = Files.newDirectoryStream(folder);
        } catch (AccessDeniedException e) {
            return null; // a folder this user may enter and write, not list
        }
        if (!(opened instanceof SecureDirectoryStream<Path> secure)) {
            opened.close();
            return null;
        }
        if (!pinned.equals(secure.getFileAttributeView(BasicFileAttributeView.class).readAttributes().fileKey())) {
            secure.close();
            throw PrivateFolders.swapped(folder, file);
        }
        return secure;
    }

    // ---- the live log ------------------------------------------------------------------------------------------

    /** How long an open may take before what is at the name is taken to block it. */
    static final long PATIENCE_MILLIS = 1_000;

    /** Opens left behind at most, in the process; then every open is refused until one of them returns. */
    static final int MOST_LEFT_BEHIND = 8;

    private static final AtomicInteger LEFT_BEHIND = new AtomicInteger();

    /**
     * Opens {@code file} with {@code options} (which must not follow a link), the caller waiting a bounded time; see
     * the class comment.
     *
     * @throws RefusedLiveFileException when the open blocks, or gives a FIFO or a socket
     */
    static FileChannel openUnblocked(Path file, Set<? extends OpenOption> options) throws IOException {
        if (LEFT_BEHIND.get() >= MOST_LEFT_BEHIND) {
            throw new RefusedLiveFileException("the log file " + file + " is not opened: " + MOST_LEFT_BEHIND + " opens"
                    + " of files are still blocked by what took their names between their check and their open (FIFOs"
                    + " another user put there, in a folder others may write to without the sticky bit); events wait in"
                    + " the journal. Keep log folders out of such folders");
        }
        Opening opening = new Opening(file, options);
        Thread opener = new Thread(opening, "lockfreelog-open");
        opener.setDaemon(true);
        opener.start();
        FileChannel channel = opening.await(PATIENCE_MILLIS);
        if (channel == null) {
            freeFifo(file);
            channel = opening.await(PATIENCE_MILLIS);
        }
        if (channel == null) {
            if (opening.leaveBehind()) {
                throw new RefusedLiveFileException("the open of the log file " + file + " did not return within "
                        + 2 * PATIENCE_MILLIS + " ms: what took its name after its check blocks it (a FIFO another user"
                        + " put there, in a folder others may write to without the sticky bit); lockfreelog left the open"
                        + " behind, and events wait in the journal until it is removed");
            }
            channel = opening.await(0); // it came back in that very moment
        }
        try {
            channel.position(0); // lseek: a FIFO or a socket refuses it (ESPIPE); an append still goes to the end
        } catch (IOException e) {
            channel.close();
            throw new RefusedLiveFileException("the log file " + file + " was replaced by a FIFO or a socket between"
                    + " its check and its open (by someone who may write to its folder): lockfreelog never writes it;"
                    + " events wait in the journal until it is removed");
        }
        return channel;
    }

    /** Opens {@code file} for reading and writing and closes it: a FIFO at the name gets both ends, and an open waiting on it returns. */
    private static void freeFifo(Path file) {
        try {
            FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS).close();
        } catch (IOException | RuntimeException e) {
            // gone, or not ours to open: the open waits on, and is left behind
        }
    }

    /** Opens left behind now (tests). */
    static int leftBehind() {
        return LEFT_BEHIND.get();
    }

    /** One open, on its own thread, and what came of it; guarded by itself. */
    private static final class Opening implements Runnable {
        private final Path file;
        private final Set<? extends OpenOption> options;
        private boolean done;
        private boolean leftBehind;
        private FileChannel channel;
        private IOException ioFailure;
        private RuntimeException failure;

        Opening(Path file, Set<? extends OpenOption> options) {
            this.file = file;
            this.options = options;
        }

        @Override
        public void run() {
            FileChannel opened = null;
            IOException io = null;
            RuntimeException other = null;
            try {
                opened = FileChannel.open(file, options);
            } catch (IOException e) {
                io = e;
            } catch (RuntimeException e) {
                other = e;
            }
            synchronized (this) { // one open's hand-over between its thread and the drainer; never on an append
                if (leftBehind) {
                    LEFT_BEHIND.decrementAndGet();
                    close(opened);
                    return;
                }
                done = true;
                channel = opened;
                ioFailure = io;
                failure = other;
                notifyAll();
            }
        }

        /**
         * The channel, once the open returned within {@code millis}; {@code null} while it has not. Waits through
         * interrupts (set again on return): an open is short, and its caller's file work must not break.
         */
        // the drainer's (or a start's) wait for its own open of the live log; callers of append never get here
        synchronized FileChannel await(long millis) throws IOException {
            long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
            boolean interrupted = false;
            try {
                for (long left = millis; !done && left > 0; left = TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime())) {
                    try {
                        wait(left);
                    } catch (InterruptedException e) {
                        interrupted = true;
                    }
                }
            } finally {
                if (interrupted) {
                    Thread.currentThread().interrupt();
                }
            }
            if (!done) {
                return null;
            }
            if (ioFailure != null) {
                throw ioFailure;
            }
            if (failure != null) {
                throw failure;
            }
            return channel;
        }

        /** Leaves the open behind, unless it returned meanwhile ({@code false}: take its result). */
        // the same hand-over, by the drainer or a start; never on an append
        synchronized boolean leaveBehind() {
            if (done) {
                return false;
            }
            leftBehind = true;
            LEFT_BEHIND.incrementAndGet();
            return true;
        }

        private static void close(FileChannel opened) {
            if (opened != null) {
                try {
                    opened.close();
                } catch (IOException e) {
                    // nothing was written through it
                }
            }
        }
    }
}
