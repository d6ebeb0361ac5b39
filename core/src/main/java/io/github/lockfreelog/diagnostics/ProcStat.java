package io.github.lockfreelog.diagnostics;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * Reads page-fault counts from Linux's {@code /proc}: fields 10 (minflt) and 12 (majflt) of
 * {@code /proc/self/stat} for the process and of {@code /proc/thread-self/stat} for the
 * calling thread. Where {@code /proc} is absent every read returns {@code null}.
 */
public final class ProcStat {

    private static final Path PROCESS = Paths.get("/proc/self/stat");
    private static final Path THREAD = Paths.get("/proc/thread-self/stat");

    private ProcStat() {
    }

    /** {@code {minor, major}} for the whole process, or {@code null}. */
    public static long[] processFaults() {
        return read(PROCESS);
    }

    /** {@code {minor, major}} for the calling thread, or {@code null}. */
    public static long[] threadFaults() {
        return read(THREAD);
    }

    static long[] read(Path file) {
        try {
            return parse(new String(Files.readAllBytes(file), StandardCharsets.US_ASCII));
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** Parses a stat line; the command name in parentheses may itself hold spaces and parentheses. */
    static long[] parse(String stat) {
        int close = stat.lastIndexOf(')');
        if (close < 0) {
            return null;
        }
        String[] fields = stat.substring(close + 2).trim().split(" ");
        // fields[0] is field 3 (state): field n sits at index n - 3
        if (fields.length < 10) {
            return null;
        }
        return new long[] {Long.parseLong(fields[10 - 3]), Long.parseLong(fields[12 - 3])};
    }
}
