package io.github.lockfreelog.sink;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Standard output (or standard error) as the log: the descriptor the container runtime, the
 * kubelet or a shell pipe reads. It is written, never closed (it is the process's, not ours), and
 * not through {@code System.out}, so no lock of {@link System#out} is taken and a
 * {@code System.setOut} by the application changes nothing here.
 *
 * <p><b>Whole lines, never torn.</b> Other writers share the stream ({@code System.out.println}, a
 * library that prints, a child process). Each {@link #write} writes whole lines, at most
 * {@link #PIPE_BUF} bytes of them, in one system call, which the kernel writes to a pipe in one
 * piece: no other writer's bytes land inside a line. A line longer than that is written whole in
 * one call, as any console appender does (a pipe may then interleave another writer's bytes in
 * it). A write that a full pipe takes only in part is finished by the stream before it returns,
 * never repeated.
 *
 * <p><b>A slow or stalled reader</b> blocks only the drainer, in the kernel: callers keep to the
 * backpressure policy. A reader that went away fails each write ({@code EPIPE}: the JVM ignores
 * {@code SIGPIPE}); events then stay in the journal, callers drop by the policy, counted as
 * {@code io}, and the next start writes what the journal holds.
 *
 * <p>A write cannot be read back: after a crash, recovery writes again what the last write may
 * have written (its intent, one piece of at most {@code PIPE_BUF} bytes). Since a piece is written
 * whole or not at all, and its intent is recorded just before it, a line is repeated only when the
 * process dies between a piece's write and the next intent, a few hundred nanoseconds.
 */
public final class ConsoleLogSink implements LogSink {

    /** Bytes a pipe takes in one piece (POSIX {@code PIPE_BUF}; 4,096 on Linux). */
    public static final int PIPE_BUF = 4096;

    private final FileOutputStream out;
    private final String name;
    /** The piece being written, when the bytes are not in a heap array; grows for a longer line. */
    private byte[] piece = new byte[PIPE_BUF];
    private long written;
    private volatile boolean closed;

    /**
     * A sink that writes {@code out} ({@link #standardOutput()}, {@link #standardError()}, or any
     * stream: the write end of a pipe, for the benchmarks); {@code name} names it in statistics.
     */
    public ConsoleLogSink(FileOutputStream out, String name) {
        this.out = out;
        this.name = name;
    }

    /** Standard output, file descriptor 1. */
    public static ConsoleLogSink standardOutput() {
        return new ConsoleLogSink(new FileOutputStream(FileDescriptor.out), "stdout");
    }

    /** Standard error, file descriptor 2. */
    public static ConsoleLogSink standardError() {
        return new ConsoleLogSink(new FileOutputStream(FileDescriptor.err), "stderr");
    }

    /** The stream's name: {@code stdout}, {@code stderr}, or the one given. */
    public String name() {
        return name;
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
        if (closed) {
            throw new LogClosedException(name);
        }
        int n = pieceLength(src);
        int at = src.position();
        try {
            if (src.hasArray()) {
                out.write(src.array(), src.arrayOffset() + at, n);
            } else {
                if (piece.length < n) {
                    piece = new byte[n];
                }
                src.get(at, piece, 0, n);
                out.write(piece, 0, n);
            }
        } catch (IOException e) {
            String message = String.valueOf(e.getMessage());
            throw message.contains("Broken pipe") || message.contains("EPIPE") ? new ReaderGoneException(name, e) : e;
        }
        src.position(at + n);
        written += n;
        return n;
    }

    /**
     * How many of the bytes remaining in {@code src} the next write takes: the whole lines within
     * the first {@link #PIPE_BUF} bytes; else (a longer line) that whole line; else (bytes without
     * a newline) all of them.
     */
    static int pieceLength(ByteBuffer src) {
        int from = src.position();
        int limit = src.limit();
        int end = Math.min(limit, from + PIPE_BUF);
        for (int i = end - 1; i >= from; i--) {
            if (src.get(i) == '\n') {
                return i + 1 - from;
            }
        }
        for (int i = end; i < limit; i++) {
            if (src.get(i) == '\n') {
                return i + 1 - from;
            }
        }
        return limit - from;
    }

    /** Bytes this sink wrote: a stream has no size of its own. */
    @Override
    public long size() {
        return written;
    }

    /** Flushes; the descriptor stays open, for the rest of the process to use, but this sink writes no more. */
    @Override
    public void close() throws IOException {
        closed = true;
        out.flush();
    }
}
