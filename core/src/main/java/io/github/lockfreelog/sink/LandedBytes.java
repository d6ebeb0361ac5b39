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

    private LandedBytes() {
    }

    /**
     * How many leading bytes of {@code expected} are in {@code file} after offset {@code from} and
     * before {@code until}.
     */
    static int find(FileChannel file, long from, long until, byte[] expected) throws IOException {
        if (expected.length == 0) {
            return 0;
        }
        long size = Math.min(file.size(), until);
        if (size <= from) {
            return 0;
        }
        long windowLength = Math.min(size - from, (long) expected.length + WINDOW_SLACK);
        byte[] window = new byte[(int) windowLength];
        ByteBuffer into = ByteBuffer.wrap(window);
        while (into.hasRemaining()) {
            if (file.read(into, from + into.position()) < 0) {
                break;
            }
        }
        boolean reachesEnd = from + windowLength == size;
        return find(window, into.position(), reachesEnd, expected);
    }

    /**
     * How many leading bytes of {@code expected} are in {@code window[0..length)}; see the class
     * comment. {@code reachesEnd} says whether the window ends where the file does.
     */
    static int find(byte[] window, int length, boolean reachesEnd, byte[] expected) {
        for (int p = 0; p < length; p++) {
            if (p > 0 && window[p - 1] != '\n') {
                continue;
            }
            int n = Math.min(expected.length, length - p);
            if (n < expected.length && !reachesEnd) {
                return 0; // the window ends before the write could: it is not in the file
            }
            if (java.util.Arrays.equals(window, p, p + n, expected, 0, n)) {
                return n; // whole, or cut short at the end of the file
            }
        }
        return 0;
    }
}
