package io.github.lockfreelog.term;

import static io.github.lockfreelog.term.JournalDescriptor.*;

import io.github.lockfreelog.files.FileMapping;
import io.github.lockfreelog.files.PrivateFolders;
import io.github.lockfreelog.files.SafeFiles;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Makes a {@link Journal} of a file: creates a fresh one (its blocks written before they are
 * mapped), or opens one that exists for recovery, after checking its format.
 */
public final class JournalFiles {

    private JournalFiles() {
    }

    /**
     * Creates a fresh journal at {@code path}, replacing any file there, opened (never through a
     * link) for this journal alone: closing the journal closes its file. Tests use this; the
     * engine maps the file it holds locked ({@link #create(Path, FileChannel, int, int)}).
     */
    public static Journal create(Path path, int bufferCount, int bufferSize) throws IOException {
        PrivateFolders.ensure(path.toAbsolutePath().getParent());
        FileChannel channel = SafeFiles.openOwnerOnly(path, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE);
        try {
            return create(path, channel, bufferCount, bufferSize, true);
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    /**
     * Creates a fresh journal in the file open as {@code channel} (the engine's, locked: see
     * {@code JournalLock}), replacing what it held. Every block of the file is written with zeros
     * before it is mapped, so stores to the mapping never land on an unbacked (sparse) block: a
     * full disk shows here, as an {@link IOException}, never later as a fault in mapped memory.
     * Closing the journal unmaps it and leaves the channel to its owner.
     */
    public static Journal create(Path path, FileChannel channel, int bufferCount, int bufferSize) throws IOException {
        return create(path, channel, bufferCount, bufferSize, false);
    }

    private static Journal create(Path path, FileChannel channel, int bufferCount, int bufferSize, boolean ownsChannel)
            throws IOException {
        String error = checkGeometry(bufferCount, bufferSize);
        if (error != null) {
            throw new IllegalArgumentException(error);
        }
        long length = journalLength(bufferCount, bufferSize);
        channel.truncate(0);
        FileMapping mapping;
        try {
            ByteBuffer zeros = ByteBuffer.allocateDirect(1 << 20);
            long position = 0;
            while (position < length) {
                zeros.clear().limit((int) Math.min(zeros.capacity(), length - position));
                position += channel.write(zeros, position);
            }
            channel.force(false);
            mapping = FileMapping.map(channel, length);
        } catch (IOException | RuntimeException e) {
            giveBack(channel, e); // a full disk: what was written goes back at once, nothing piles up per start
            throw e;
        }
        Journal journal = new MappedJournal(path, bufferCount, bufferSize, channel, mapping, ownsChannel);
        journal.initialise(); // the magic last: a kill before it leaves a file known as half-made
        return journal;
    }

    /** Empties a journal whose creation failed, before it was mapped. */
    private static void giveBack(FileChannel channel, Exception failure) {
        try {
            channel.truncate(0);
        } catch (IOException | RuntimeException e) {
            failure.addSuppressed(e);
        }
    }

    /**
     * Opens an existing journal for recovery, for this journal alone (tests).
     *
     * @throws JournalFormatException when the file is not a journal of this version, or is damaged
     */
    public static Journal open(Path path) throws IOException {
        FileChannel channel = SafeFiles.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE);
        try {
            return open(path, channel, true);
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    /**
     * Opens the existing journal in the file open as {@code channel} (the engine's, locked), for
     * recovery; closing it unmaps it and leaves the channel to its owner.
     *
     * @throws JournalFormatException when the file is not a journal of this version, or is damaged
     */
    public static Journal open(Path path, FileChannel channel) throws IOException {
        return open(path, channel, false);
    }

    private static Journal open(Path path, FileChannel channel, boolean ownsChannel) throws IOException {
        long size = channel.size();
        ByteBuffer header = read(channel, 0, BUFFER_SIZE_OFFSET + Integer.BYTES);
        long magic = header.getLong(MAGIC_OFFSET);
        if (magic == 0 && read(channel, METADATA_LENGTH, HEADER_LENGTH).getLong(0) == 0) {
            throw new JournalFormatException("the journal " + path + " (" + size + " bytes) was left half-made by a"
                    + " start that did not finish creating it (killed, or out of disk space): it has no magic and"
                    + " holds no event", true);
        }
        if (size < METADATA_LENGTH) {
            throw new JournalFormatException("journal " + path + " is too short: " + size + " bytes");
        }
        int version = header.getInt(VERSION_OFFSET);
        int count = header.getInt(BUFFER_COUNT_OFFSET);
        int bufferSize = header.getInt(BUFFER_SIZE_OFFSET);
        if (magic != MAGIC) {
            throw new JournalFormatException("journal " + path + " has magic=0x" + Long.toHexString(magic)
                    + ", expected 0x" + Long.toHexString(MAGIC) + ": not a lockfreelog journal, or corrupt");
        }
        if (version != VERSION) {
            throw new JournalFormatException("journal " + path + " has version=" + version + ", expected " + VERSION);
        }
        String geometry = checkGeometry(count, bufferSize);
        if (geometry != null) {
            throw new JournalFormatException("journal " + path + " is corrupt: " + geometry);
        }
        long length = journalLength(count, bufferSize);
        if (size != length) {
            throw new JournalFormatException("journal " + path + " is " + size + " bytes long, expected " + length
                    + " for bufferCount=" + count + " bufferSize=" + bufferSize);
        }
        return new MappedJournal(path, count, bufferSize, channel, FileMapping.map(channel, length), ownsChannel);
    }

    /** {@code length} bytes of the file from {@code position}; zeros past its end. */
    private static ByteBuffer read(FileChannel channel, long position, int length) throws IOException {
        ByteBuffer bytes = ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN);
        while (bytes.hasRemaining() && channel.read(bytes, position + bytes.position()) >= 0) {
            // read to the end of the range, or of the file
        }
        return bytes;
    }
}
