package io.github.lockfreelog.benchmarks.peers;

import java.io.BufferedOutputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a console peer writes into, as a container's standard output is: a pipe. A named pipe
 * ({@code mkfifo}) in the trial's folder, drained as fast as it can by a separate process,
 * {@code sh -c 'wc -lc < FIFO && times'}: {@code wc} reads everything (about 2 GB/s, as fast as
 * {@code cat > /dev/null}) and counts the lines and bytes it received, and the shell's {@code times}
 * then reports {@code wc}'s CPU time. The reader is another process, so its CPU is not the fork's:
 * the cost mode's process CPU time does not include it (its own is printed in the {@code [lines]} line
 * as {@code readerCpuMs}).
 *
 * <p>Opening a FIFO for writing blocks until a reader has it open, so the write end is opened only
 * after the reader started, and with a time limit. {@link #finish()} closes the write end: the reader
 * sees the end of the stream, prints its counts and exits, so the line check counts the lines the
 * reader received, not the lines the peer believes it wrote.
 *
 * <p>The default pipe capacity (64 KiB on Linux) is left as it is, as a container runtime leaves it.
 */
final class ConsolePipe {

    /** How long the write end may take to open (the reader must start and open its end first). */
    static final long OPEN_TIMEOUT_SECONDS = 20;

    /** How long the reader may take to drain and exit once the write end is closed. */
    static final long READER_TIMEOUT_SECONDS = 60;

    /** What {@code PrintStream} the JDK makes {@link System#out} of: 128 bytes of buffer, flushed at each write. */
    static final int SYSTEM_OUT_BUFFER = 128;

    private static final Pattern TIME = Pattern.compile("(\\d+)m([0-9.]+)s");

    /** What the reader received, and what it cost it. */
    record Received(LineCounter.Count count, long readerCpuNanos) {
    }

    private final Path fifo;
    private final Path readerErrors;
    private final Process reader;
    private final FileOutputStream out;
    private PrintStream systemOut;
    private PrintStream replaced;
    private Received received;

    private ConsolePipe(Path fifo, Path readerErrors, Process reader, FileOutputStream out) {
        this.fifo = fifo;
        this.readerErrors = readerErrors;
        this.reader = reader;
        this.out = out;
    }

    /** Makes {@code NAME.fifo} in {@code directory}, starts its reader and opens the write end. */
    static ConsolePipe open(Path directory, String name) throws IOException {
        Path fifo = directory.resolve(name + ".fifo");
        Path errors = directory.resolve(name + ".reader-errors");
        run(List.of("mkfifo", fifo.toString()), "mkfifo");
        Process reader = new ProcessBuilder("sh", "-c", "wc -lc < \"$1\" && times", "lockfreelog-pipe-reader",
                fifo.toString()).redirectError(errors.toFile()).start();
        CompletableFuture<FileOutputStream> opening = new CompletableFuture<>();
        Thread opener = new Thread(() -> {
            try {
                opening.complete(new FileOutputStream(fifo.toFile()));
            } catch (IOException | RuntimeException e) {
                opening.completeExceptionally(e);
            }
        }, "pipe-opener");
        opener.setDaemon(true); // left blocked in open() if the reader never came; dies with the fork
        opener.start();
        try {
            return new ConsolePipe(fifo, errors, reader, opening.get(OPEN_TIMEOUT_SECONDS, TimeUnit.SECONDS));
        } catch (TimeoutException | ExecutionException e) {
            String state = reader.isAlive() ? "is running" : "exited with " + exitValue(reader);
            reader.destroyForcibly();
            throw new IOException("could not open the write end of " + fifo + " (the reader " + state + "; its errors: "
                    + errors(errors) + ")", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            reader.destroyForcibly();
            throw new InterruptedIOException("interrupted opening " + fifo);
        }
    }

    /** The named pipe. */
    Path fifo() {
        return fifo;
    }

    /** The write end, for a peer that writes the descriptor itself (lockfreelog's {@code setStream}). */
    FileOutputStream out() {
        return out;
    }

    /**
     * Replaces {@link System#out} by a stream over the pipe made as the JDK makes its own over file
     * descriptor 1 ({@code PrintStream(BufferedOutputStream(fd, 128), autoFlush true)}), so that a peer
     * that writes {@code System.out} writes the pipe just as it would standard output.
     */
    void replaceSystemOut() {
        systemOut = System.out;
        replaced = new PrintStream(new BufferedOutputStream(out, SYSTEM_OUT_BUFFER), true, StandardCharsets.UTF_8);
        System.setOut(replaced);
    }

    /** Gives {@link System#out} back (the fork's own, which the line check prints to); once the peer has stopped. */
    void restoreSystemOut() {
        if (systemOut != null) {
            replaced.flush();
            System.setOut(systemOut);
            systemOut = null;
        }
    }

    /**
     * Closes the write end, waits for the reader to drain the pipe and exit, and returns what it
     * received; once the peer has stopped (it wrote everything it is going to write). Idempotent.
     */
    Received finish() throws IOException {
        if (received != null) {
            return received;
        }
        restoreSystemOut();
        if (replaced != null) {
            replaced.close();
        }
        out.close();
        try {
            if (!reader.waitFor(READER_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                reader.destroyForcibly();
                throw new IOException("the reader of " + fifo + " did not exit within " + READER_TIMEOUT_SECONDS + " s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            reader.destroyForcibly();
            throw new InterruptedIOException("interrupted waiting for the reader of " + fifo);
        }
        String output = new String(reader.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
        if (reader.exitValue() != 0) {
            throw new IOException("the reader of " + fifo + " exited with " + reader.exitValue() + ": " + output.trim()
                    + " " + errors(readerErrors));
        }
        received = parse(output);
        return received;
    }

    /** Stops the reader without counting (a peer that failed to start). */
    void abort() {
        restoreSystemOut();
        try {
            out.close();
        } catch (IOException ignored) {
            // the reader is killed anyway
        }
        reader.destroyForcibly();
    }

    /**
     * The reader's output: {@code wc -lc}'s {@code LINES BYTES}, then {@code times}' two lines (the shell's,
     * then its children's user and system time, {@code 0m0.030000s 0m0.120000s}); the children's are wc's.
     */
    static Received parse(String output) {
        String[] lines = output.strip().split("\\R");
        String[] counts = lines[0].strip().split("\\s+");
        if (counts.length < 2) {
            throw new IllegalArgumentException("not the output of wc -lc: " + output);
        }
        long cpu = -1;
        if (lines.length >= 3) {
            List<Double> seconds = new ArrayList<>();
            Matcher m = TIME.matcher(lines[2]);
            while (m.find()) {
                seconds.add(Long.parseLong(m.group(1)) * 60 + Double.parseDouble(m.group(2)));
            }
            if (seconds.size() == 2) {
                cpu = Math.round((seconds.get(0) + seconds.get(1)) * 1e9);
            }
        }
        return new Received(new LineCounter.Count(Long.parseLong(counts[0]), Long.parseLong(counts[1]), 0), cpu);
    }

    /** {@code readerCpuMs=…}, once {@link #finish()} has run; empty before. */
    String details() {
        return received == null ? "" : "reader=wc readerCpuMs=" + (received.readerCpuNanos() < 0 ? "?"
                : String.format(Locale.ROOT, "%.0f", received.readerCpuNanos() / 1e6));
    }

    private static void run(List<String> command, String what) throws IOException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        try {
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (process.waitFor() != 0) {
                throw new IOException(what + " failed (" + process.exitValue() + "): " + output.trim());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
            throw new InterruptedIOException(what + " interrupted");
        }
    }

    private static String exitValue(Process process) {
        try {
            return Integer.toString(process.exitValue());
        } catch (IllegalThreadStateException e) {
            return "?";
        }
    }

    private static String errors(Path file) {
        try {
            return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8).trim() : "";
        } catch (IOException e) {
            return "(unreadable: " + e + ")";
        }
    }
}
