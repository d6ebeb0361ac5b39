package io.github.lockfreelog.journal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * The log file, opened for appending: every write lands at the file's current end, so when an
 * outside tool truncates the file (logrotate's {@code copytruncate}) writing goes on at the new
 * end with no gap of NUL bytes, and other processes may append to the same file between our writes.
 *
 * <p>The file is followed by name: when the name stands for another file than the one open
 * (another instance rolled it, an operator moved or deleted it), {@link #follow} reopens the name,
 * so later writes go to the live file. It compares the open file's key (device and inode) with
 * the name's, which costs a {@code stat}, so it looks at most every {@link #FOLLOW_CHECK_NANOS};
 * writes meanwhile land, whole, in the file that was renamed. Where the file system has no file
 * keys the file is never reopened.
 *
 * <p>An interrupt of the writing thread makes the JDK close the channel for good
 * ({@link ClosedByInterruptException}), even when the write itself completed. This sink then
 * clears the interrupt, reopens the file in append mode and says so
 * ({@link InterruptedWriteException}); {@link DrainLog} finds out by content how much of the write
 * landed, so an interrupt never costs or repeats a byte.
 */
public final class FileLogSink implements LogSink {

    /** Longest time between two looks at whether the name still stands for the open file. */
    public static final long FOLLOW_CHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

    /** The key of a name that stands for no file. */
    private static final Object ABSENT = new Object();

    private final Path file;
    private FileChannel channel;
    /** Key of the open file, or {@code null} where the file system has none. */
    private Object key;
    private long lastFollowCheck;

    public FileLogSink(Path file) throws IOException {
        this.file = file;
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        this.channel = openByName();
    }

    /**
     * Opens the file and learns its key. A file has no name of its own for Java to ask about, so
     * the name is looked up before and after opening it; when both name the same file, that is
     * the file opened (another instance may rename or create the file at the same moment).
     */
    private FileChannel openByName() throws IOException {
        for (int tries = 0;; tries++) {
            Object before = keyOf(file);
            FileChannel opened = openUninterrupted();
            Object after = keyOf(file);
            if ((before != ABSENT && Objects.equals(before, after)) || tries == 3) {
                key = after;
                lastFollowCheck = System.nanoTime();
                return opened;
            }
            opened.close();
        }
    }

    /** The file key of what {@code path} stands for; {@link #ABSENT}, or {@code null} when it cannot be told. */
    private static Object keyOf(Path path) {
        try {
            return Files.readAttributes(path, BasicFileAttributes.class).fileKey();
        } catch (NoSuchFileException e) {
            return ABSENT;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private FileChannel openUninterrupted() throws IOException {
        for (int tries = 0;; tries++) {
            try {
                return FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                        StandardOpenOption.APPEND);
            } catch (ClosedByInterruptException e) {
                Thread.interrupted();
                if (tries == 3) {
                    throw e;
                }
            }
        }
    }

    /**
     * Whether the name still stands for the open file (also when that cannot be told). Costs a
     * {@code stat}; see {@link #follow} for the rate-limited form.
     */
    public boolean isLive() {
        if (key == null) {
            return true;
        }
        Object current = keyOf(file);
        return current == null || (current != ABSENT && current.equals(key));
    }

    /** Closes the open file and opens the name again; see {@link #follow}. */
    public void reopen() throws IOException {
        FileChannel old = channel;
        channel = openByName();
        old.close();
    }

    @Override
    public boolean follow() throws IOException {
        long now = System.nanoTime();
        if (key == null || now - lastFollowCheck < FOLLOW_CHECK_NANOS) {
            return false;
        }
        lastFollowCheck = now;
        if (isLive()) {
            return false;
        }
        reopen();
        return true;
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
        if (!channel.isOpen()) {
            channel = openByName();
        }
        try {
            return channel.write(src);
        } catch (ClosedByInterruptException e) {
            Thread.interrupted();
            channel = openByName();
            throw new InterruptedWriteException(e);
        }
    }

    @Override
    public int landed(long from, byte[] expected) throws IOException {
        try (FileChannel reader = FileChannel.open(file, StandardOpenOption.READ)) {
            return LandedBytes.find(reader, from, expected);
        }
    }

    @Override
    public long size() throws IOException {
        for (int tries = 0;; tries++) {
            try {
                if (!channel.isOpen()) {
                    channel = openByName();
                }
                return channel.size();
            } catch (ClosedByInterruptException e) {
                Thread.interrupted();
                if (tries == 3) {
                    throw e;
                }
            }
        }
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
