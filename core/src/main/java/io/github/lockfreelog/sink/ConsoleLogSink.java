package io.github.lockfreelog.sink;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.util.function.Supplier;

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
 * it). A write that a full pipe takes only in part is finished by the next write, which begins
 * right after what the kernel took: each write is one {@code write(2)} through a channel, which
 * says how much went out, also before a failure; no byte is repeated.
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

    /** Opens a channel over the stream's descriptor: at start, and again after an interrupt closed the last one. */
    private final Supplier<? extends WritableByteChannel> channels;
    private WritableByteChannel channel;
    private final String name;
    private long written;
    private volatile boolean closed;

    /**
     * A sink that writes {@code out} ({@link #standardOutput()}, {@link #standardError()}, or any
     * stream: the write end of a pipe, for the benchmarks); {@code name} names it in statistics.
     */
    public ConsoleLogSink(FileOutputStream out, String name) {
        this(channelsOver(descriptorOf(out)), name);
    }

    /** A sink over the channels that {@code channels} opens; tests give channels that fail as the kernel may. */
    ConsoleLogSink(Supplier<? extends WritableByteChannel> channels, String name) {
        this.channels = channels;
        this.channel = channels.get();
        this.name = name;
    }

    /** Standard output, file descriptor 1. */
    public static ConsoleLogSink standardOutput() {
        return new ConsoleLogSink(channelsOver(FileDescriptor.out), "stdout");
    }

    /** Standard error, file descriptor 2. */
    public static ConsoleLogSink standardError() {
        return new ConsoleLogSink(channelsOver(FileDescriptor.err), "stderr");
    }

    /** The stream's name: {@code stdout}, {@code stderr}, or the one given. */
    public String name() {
        return name;
    }

    /**
     * Writes the next piece in one {@code write(2)} and returns what the kernel took: a pipe that
     * takes part of a long line, or a write that fails after part of it went out ({@code EAGAIN},
     * {@code EPIPE}), leaves {@code src} right after what went out, and the drainer's next write
     * goes on from there, never repeating it. A non-blocking descriptor that is full ({@code EAGAIN}
     * before any byte) fails the write: the drainer tries again later.
     */
    @Override
    public int write(ByteBuffer src) throws IOException {
        if (closed) {
            throw new LogClosedException(name);
        }
        int at = src.position();
        int limit = src.limit();
        src.limit(at + pieceLength(src));
        int n;
        try {
            n = channel.write(src);
        } catch (ClosedByInterruptException e) {
            Thread.interrupted(); // the drainer ignores interrupts; the descriptor is still open (see KeptOpen)
            channel = channels.get();
            int wentOut = src.position() - at; // the JDK moves src past what went out, also when it throws this
            written += wentOut;
            return wentOut; // perhaps 0: the drainer writes again
        } catch (IOException e) {
            String message = String.valueOf(e.getMessage());
            throw message.contains("Broken pipe") || message.contains("EPIPE") ? new ReaderGoneException(name, e) : e;
        } finally {
            src.limit(limit);
        }
        if (n == 0) {
            throw new IOException("writing " + name + " would block (its descriptor is non-blocking, as a parent"
                    + " process may have left it, and its reader is behind): nothing was written");
        }
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

    /** Writes no more; the descriptor stays open, for the rest of the process to use. */
    @Override
    public void close() {
        closed = true;
    }

    private static FileDescriptor descriptorOf(FileOutputStream out) {
        try {
            return out.getFD();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Channels over {@code fd} that never close it; see {@link KeptOpen}. */
    static Supplier<FileChannel> channelsOver(FileDescriptor fd) {
        return () -> new KeptOpen(fd).getChannel();
    }

    /**
     * A stream whose close does nothing. A channel's close closes the stream it came from, and an
     * interrupt of the thread in a channel's write closes the channel: over standard output, that
     * would close the descriptor (the JDK points it at {@code /dev/null}) for the whole process.
     * The channel of this stream closes, but the descriptor stays open for the next channel.
     */
    private static final class KeptOpen extends FileOutputStream {
        KeptOpen(FileDescriptor fd) {
            super(fd);
        }

        @Override
        public void close() {
            // the descriptor is the process's
        }
    }
}
