package io.github.lockfreelog.journal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The log file, opened for appending: every write lands at the file's current end, so when an
 * outside tool truncates the file (logrotate's {@code copytruncate}) writing goes on at the new
 * end with no gap of NUL bytes, and other processes may append to the same file between our writes.
 *
 * <p>An interrupt of the writing thread makes the JDK close the channel for good
 * ({@link ClosedByInterruptException}), even when the write itself completed. This sink then
 * clears the interrupt, reopens the file in append mode and says so
 * ({@link InterruptedWriteException}); {@link DrainLog} finds out by content how much of the write
 * landed, so an interrupt never costs or repeats a byte.
 */
public final class FileLogSink implements LogSink {

    private final Path file;
    private FileChannel channel;

    public FileLogSink(Path file) throws IOException {
        this.file = file;
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        this.channel = openUninterrupted();
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

    @Override
    public int write(ByteBuffer src) throws IOException {
        if (!channel.isOpen()) {
            channel = openUninterrupted();
        }
        try {
            return channel.write(src);
        } catch (ClosedByInterruptException e) {
            Thread.interrupted();
            channel = openUninterrupted();
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
                    channel = openUninterrupted();
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
