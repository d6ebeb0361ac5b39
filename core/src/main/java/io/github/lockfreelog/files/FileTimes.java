package io.github.lockfreelog.files;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;

/**
 * Keeps the files lockfreelog holds open (journals, lock files, the write ledger) young in the
 * eyes of a clean-up by age ({@code find -mtime +14 -delete}): their modification time is renewed
 * once it is older than {@link #REFRESH}.
 *
 * <p>The time is renewed by writing zeros, through the channel lockfreelog holds, over bytes that
 * the file's format keeps zero and nothing else writes, never by setting it by name: that opens the
 * file, and closing that descriptor would release this process's lock on it (POSIX record locks
 * belong to the process). Nothing live is read and written back: another process may change those
 * bytes between the read and the write, and the write would undo its change.
 */
public final class FileTimes {

    /** A held file's modification time is renewed once it is older than this. */
    public static final Duration REFRESH = Duration.ofHours(1);

    private FileTimes() {
    }

    /**
     * Renews the modification time of {@code path}, open as {@code channel}, if it is older than
     * {@link #REFRESH}, by writing {@code length} zero bytes at {@code offset}: bytes that the
     * file's format keeps zero and that nothing else writes. A file that does not reach past them
     * (a journal emptied at stop) is left as it is. Never throws: a failure is tried again at the
     * next call.
     */
    public static void refresh(Path path, FileChannel channel, long offset, int length) {
        try {
            if (isOld(path) && channel.size() >= offset + length) {
                channel.write(ByteBuffer.allocate(length), offset);
            }
        } catch (IOException | RuntimeException e) {
            // tried again at the next call
        }
    }

    /**
     * Renews the modification time of the lock file {@code path}, open (write-only) as
     * {@code channel}, if it is older than {@link #REFRESH}: its content is never read, so one
     * zero byte is written at its start. Never throws.
     */
    public static void refreshLockFile(Path path, FileChannel channel) {
        try {
            if (isOld(path)) {
                channel.write(ByteBuffer.allocate(1), 0);
            }
        } catch (IOException | RuntimeException e) {
            // tried again at the next call
        }
    }

    private static boolean isOld(Path path) throws IOException {
        FileTime modified = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS)
                .lastModifiedTime();
        return modified.toInstant().isBefore(Instant.now().minus(REFRESH));
    }
}
