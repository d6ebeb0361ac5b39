package io.github.lockfreelog.benchmarks.results;

/**
 * Lines a peer wrote against the calls it accepted, counted in its file after it stopped.
 *
 * @param accepted calls made, warm-up included (the file holds those lines too)
 * @param written complete lines in the file; negative for a peer that writes no file (encode-only)
 * @param bytes bytes in the file
 * @param nulBytes NUL bytes among them (a pre-extended file's unwritten tail)
 */
public record LineCheck(long accepted, long written, long bytes, long nulBytes) {

    /** Whether the peer writes a file whose lines can be counted. */
    public boolean writesFile() {
        return written >= 0;
    }

    /** Lines accepted but not in the file; 0 for a peer that writes no file. */
    public long lost() {
        return writesFile() ? Math.max(0, accepted - written) : 0;
    }

    /** Whether the file holds fewer lines than calls were made. */
    public boolean losing() {
        return lost() > 0;
    }

    /** Share of accepted lines that reached the file: 1 when none was lost or the peer writes no file. */
    public double deliveredFraction() {
        return losing() && accepted > 0 ? (double) written / accepted : 1.0;
    }

    /** Share of accepted lines lost, in percent. */
    public double lostPercent() {
        return accepted > 0 ? 100.0 * lost() / accepted : 0;
    }

    /** Average length of a written line, or 0 when nothing was written. */
    public double bytesPerLine() {
        return written > 0 ? (double) bytes / written : 0;
    }
}
