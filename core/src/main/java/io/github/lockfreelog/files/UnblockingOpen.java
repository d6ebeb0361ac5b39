package io.github.lockfreelog.files;

import io.github.lockfreelog.files.SafeFiles.RefusedLiveFileException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Opens a file that a check has just found to be a regular file, so that what takes its name between the check and
 * the open cannot block the caller. Java opens no file with {@code O_NONBLOCK}, and the open of a FIFO waits until
 * someone opens its other end; in a folder that others may write to without the sticky bit another user can put a
 * FIFO at the name in that moment. So the open runs on a thread of its own: when it has not returned after
 * {@link #PATIENCE_MILLIS}, the name is opened for reading and writing (which never waits, on Linux, and gives a
 * FIFO the other end its open waits for), and the open comes back; an open that still does not come back (the FIFO
 * left the name before it could be freed) is left behind, its channel closed if it ever opens, and at most
 * {@link #MOST_LEFT_BEHIND} are left in the process. What an open gives is checked to be seekable, as a regular file
 * is and a FIFO or a socket is not ({@code lseek}): it is refused otherwise, so nothing but a regular file or a
 * device (which only root can make) is ever written.
 */
final class UnblockingOpen {

    /** How long an open may take before what is at the name is taken to block it. */
    static final long PATIENCE_MILLIS = 1_000;

    /** Opens left behind at most, in the process; then every open is refused until one of them returns. */
    static final int MOST_LEFT_BEHIND = 8;

    private static final AtomicInteger LEFT_BEHIND = new AtomicInteger();

    private UnblockingOpen() {
    }

    /**
     * Opens {@code file} with {@code options} (which must not follow a link), the caller waiting a bounded time; see
     * the class comment.
     *
     * @throws RefusedLiveFileException when the open blocks, or gives a FIFO or a socket
     */
    static FileChannel open(Path file, Set<? extends OpenOption> options) throws IOException {
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
            synchronized (this) {
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
