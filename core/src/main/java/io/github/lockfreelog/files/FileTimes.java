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
 * <p>The time is renewed by writing a file's first bytes again, as they are, through the channel
 * lockfreelog holds, never by setting it by name: that opens the file, and closing that descriptor
 * would release this process's lock on it (POSIX record locks belong to the process).
 */
public final class FileTimes {

    /** A held file's modification time is renewed once it is older than this. */
    public static final Duration REFRESH = Duration.ofHours(1);

    private FileTimes() {
    }

    /**
     * Renews the modification time of {@code path}, open as {@code channel}, if it is older than
     * {@link #REFRESH}: its first {@code length} bytes are read and written back (a write-only
     * channel, whose file is empty, gets that many zero bytes). Never throws: a failure is tried
     * again at the next call.
     */
    public static void refresh(Path path, FileChannel channel, int length, boolean readable) {
        try {
            FileTime modified = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS)
                    .lastModifiedTime();
            if (!modified.toInstant().isBefore(Instant.now().minus(REFRESH))) {
                return;
            }
            ByteBuffer bytes = ByteBuffer.allocate(length);
            if (readable) {
                channel.read(bytes, 0);
                bytes.flip();
            }
            channel.write(bytes, 0);
        } catch (IOException | RuntimeException e) {
            // tried again at the next call
        }
    }
}
