package io.github.lockfreelog.sink;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * Finds out, by content, how much of a write reached the log file. The write was appended to a
 * file that was {@code from} bytes long, but other writers (another instance, an operator's
 * {@code echo}) may have appended before it and after it, so the file's size says nothing about
 * it. The bytes are searched for in the file after {@code from}, at the start of a line:
 * <ul>
 *   <li>found whole: all of it landed;</li>
 *   <li>a prefix found that runs to the end of the file: the write was cut short there (a crash
 *       or a full disk mid-write), and only the rest is missing;</li>
 *   <li>else none of it landed.</li>
 * </ul>
 * Only the first {@link #WINDOW_SLACK} foreign bytes after {@code from} are looked through: a
 * write lands within microseconds of the size it was recorded against; and nothing at or after
 * {@code until}, where the {@code WriteLedger} says other instances' bytes begin (there, "the end of
 * the file" is {@code until}).
 */
public final class LandedBytes {

    /** How many bytes not ours may precede the write in the file. */
    static final int WINDOW_SLACK = 8 * 1024 * 1024;

    /**
     * The most bytes of the file held in memory at once (twice: the part being looked through, and a part of a long
     * write being compared): what is searched for may be as long as a journal buffer, which recovery reads from a
     * crafted journal too, so memory is bounded by this, never by what the journal says.
     */
    static final int CHUNK = 1 << 20;

    private LandedBytes() {
    }

    /**
     * How many leading bytes of {@code expected} (its remaining bytes; its position is not moved) are in
     * {@code file} after offset {@code from} and before {@code until}.
     */
    static int find(FileChannel file, long from, long until, ByteBuffer expected) throws IOException {
        return find(file, from, until, expected, CHUNK);
    }

    /** As {@link #find(FileChannel, long, long, ByteBuffer)}, holding at most {@code chunk} bytes of the file at once. */
    static int find(FileChannel file, long from, long until, ByteBuffer expected, int chunk) throws IOException {
        ByteBuffer wanted = expected.slice();
        int length = wanted.remaining();
        if (length == 0) {
            return 0;
        }
        long size = Math.min(file.size(), until);
        if (size <= from) {
            return 0;
        }
        long windowEnd = from + Math.min(size - from, (long) length + WINDOW_SLACK);
        boolean reachesEnd = windowEnd == size;
        ByteBuffer part = ByteBuffer.allocate((int) Math.min(chunk, windowEnd - from));
        ByteBuffer rest = null; // for a write longer than what part still holds: made when first needed
        long partStart = from;
        int partLength = read(file, part, from, windowEnd);
        byte previous = '\n'; // the window's first byte starts a line
        for (long p = from; p < windowEnd; p++) {
            int i = (int) (p - partStart);
            if (i >= partLength) {
                partStart = p;
                partLength = read(file, part, p, windowEnd);
                i = 0;
                if (partLength == 0) {
                    return 0; // the file shrank meanwhile: nothing more to look through
                }
            }
            boolean lineStart = previous == '\n';
            previous = part.get(i);
            if (!lineStart) {
                continue;
            }
            int n = (int) Math.min(length, windowEnd - p);
            if (n < length && !reachesEnd) {
                return 0; // the window ends before the write could: it is not in the file
            }
            int inPart = Math.min(n, partLength - i);
            if (part.slice(i, inPart).mismatch(wanted.slice(0, inPart)) != -1) {
                continue;
            }
            if (inPart < n) {
                if (rest == null) {
                    rest = ByteBuffer.allocate(Math.min(chunk, length));
                }
                if (!sameAfter(file, p + inPart, wanted, inPart, n, rest)) {
                    continue;
                }
            }
            return n; // whole, or cut short at the end of the file
        }
        return 0;
    }

    /** Whether the file from {@code at} holds {@code wanted[offset, end)}, read through {@code scratch}. */
    private static boolean sameAfter(FileChannel file, long at, ByteBuffer wanted, int offset, int end, ByteBuffer scratch)
            throws IOException {
        for (int o = offset; o < end;) {
            int n = read(file, scratch, at + (o - offset), at + (end - offset));
            if (n == 0 || scratch.slice(0, n).mismatch(wanted.slice(o, n)) != -1) {
                return false;
            }
            o += n;
        }
        return true;
    }

    /** Reads the file from {@code position} into {@code into} (cleared first), at most to {@code end}; how many bytes. */
    private static int read(FileChannel file, ByteBuffer into, long position, long end) throws IOException {
        into.clear().limit((int) Math.min(into.capacity(), end - position));
        while (into.hasRemaining()) {
            if (file.read(into, position + into.position()) < 0) {
                break;
            }
        }
        return into.position();
    }
}
