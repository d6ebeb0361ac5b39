package io.github.lockfreelog.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.lockfreelog.engine.Backpressure;
import io.github.lockfreelog.engine.EngineConfig;
import io.github.lockfreelog.engine.JournalEngine;
import io.github.lockfreelog.testing.TestStatus;
import java.io.ByteArrayOutputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The console's writes when the kernel takes part of a piece and then fails: on a non-blocking
 * standard output that a parent process left behind ({@code EAGAIN}), or a reader that went away
 * ({@code EPIPE}). Each write goes through a {@link Scripted} channel, which stands for one
 * {@code write(2)} a call, as a {@link java.nio.channels.FileChannel} over the descriptor does.
 */
class ConsoleLogSinkTest {

    @TempDir
    Path dir;

    /** Takes the whole piece. */
    private static final Object ALL = "all";
    private static final IOException EAGAIN = new IOException("Resource temporarily unavailable");
    private static final IOException EPIPE = new IOException("Broken pipe");

    /**
     * One {@code write(2)} a call, by a script: an {@link Integer} takes at most that many bytes
     * (0: a non-blocking descriptor that is full, which a FileChannel reports as 0), an exception
     * fails having written nothing, {@link #ALL} or the end of the script takes everything.
     */
    static final class Scripted implements WritableByteChannel {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final Deque<Object> script;
        int calls;

        Scripted(Object... steps) {
            this.script = new ArrayDeque<>(List.of(steps));
        }

        @Override
        public synchronized int write(ByteBuffer src) throws IOException {
            calls++;
            Object step = script.poll();
            if (step instanceof IOException e) {
                throw e;
            }
            int n = step instanceof Integer most ? Math.min(most, src.remaining()) : src.remaining();
            byte[] bytes = new byte[n];
            src.get(bytes);
            out.write(bytes, 0, n);
            return n;
        }

        synchronized byte[] bytes() {
            return out.toByteArray();
        }

        @Override
        public boolean isOpen() {
            return true;
        }

        @Override
        public void close() {
        }
    }

    private static byte[] lines(int count, int length) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < count; i++) {
            String head = "line " + i + " ";
            text.append(head).append(".".repeat(length - head.length() - 1)).append('\n');
        }
        return text.toString().getBytes(StandardCharsets.US_ASCII);
    }

    /** Writes all of {@code bytes} as the drainer does: again from where {@code src} stands after a failure. */
    private static int writeRetrying(LogSink sink, ByteBuffer src) {
        int failures = 0;
        while (src.hasRemaining()) {
            try {
                sink.write(src);
            } catch (IOException e) {
                if (++failures > 100) {
                    throw new AssertionError("the write keeps failing", e);
                }
            }
        }
        return failures;
    }

    @Test
    void aWriteThatFailsAfterTheKernelTookPartOfAPieceIsResumedAfterThatPart() {
        byte[] bytes = lines(3, 300); // one piece of 900 bytes
        Scripted channel = new Scripted(100, EAGAIN);
        ConsoleLogSink sink = new ConsoleLogSink(() -> channel, "scripted");
        int failures = writeRetrying(sink, ByteBuffer.wrap(bytes));
        assertThat(failures).isEqualTo(1);
        assertThat(new String(channel.bytes(), StandardCharsets.US_ASCII)).as("each byte once")
                .isEqualTo(new String(bytes, StandardCharsets.US_ASCII));
        assertThat(sink.size()).isEqualTo(bytes.length);
    }

    @Test
    void aFullNonBlockingDescriptorFailsTheWriteRatherThanReportingNothingWritten() {
        ConsoleLogSink sink = new ConsoleLogSink(() -> new Scripted(0), "scripted");
        ByteBuffer src = ByteBuffer.wrap(lines(1, 50));
        // a write that returned 0 would have the drainer record a new intent and call again at once, for ever
        assertThatThrownBy(() -> sink.write(src)).isInstanceOf(IOException.class).hasMessageContaining("would block");
        assertThat(src.position()).isZero();
    }

    @Test
    void aReaderThatGoesAwayAfterPartOfAPieceLeavesTheSourceAfterThatPart() {
        Scripted channel = new Scripted(120, EPIPE);
        ConsoleLogSink sink = new ConsoleLogSink(() -> channel, "scripted");
        ByteBuffer src = ByteBuffer.wrap(lines(4, 100));
        int failures = 0;
        IOException failure = null;
        while (failure == null) {
            try {
                sink.write(src);
            } catch (IOException e) {
                failure = e;
                failures++;
            }
        }
        assertThat(failure).isInstanceOf(ReaderGoneException.class);
        assertThat(failures).isEqualTo(1);
        assertThat(src.position()).as("what went out").isEqualTo(120);
        assertThat(channel.bytes()).hasSize(120);
    }

    @Test
    void aClosedConsoleWritesNoMore() {
        Scripted channel = new Scripted();
        ConsoleLogSink sink = new ConsoleLogSink(() -> channel, "scripted");
        sink.close();
        assertThatThrownBy(() -> sink.write(ByteBuffer.wrap(lines(1, 50)))).isInstanceOf(LogClosedException.class);
        assertThat(channel.calls).isZero();
    }

    /**
     * An interrupt of the writing thread makes the JDK close the channel: the descriptor stays open
     * (for the process, and for the next channel), and what went out before is counted, so no byte
     * is lost or repeated. A regular file stands for the stream here.
     */
    @Test
    void anInterruptNeitherClosesTheDescriptorNorCostsOrRepeatsAByte() throws Exception {
        Path file = dir.resolve("stream");
        byte[] bytes = lines(20_000, 60);
        AtomicInteger channels = new AtomicInteger();
        try (FileOutputStream out = new FileOutputStream(file.toFile())) {
            Supplier<FileChannel> over = ConsoleLogSink.channelsOver(out.getFD());
            ConsoleLogSink sink = new ConsoleLogSink(() -> {
                channels.incrementAndGet();
                return over.get();
            }, "stream");
            ByteBuffer src = ByteBuffer.allocateDirect(bytes.length).put(bytes).flip();
            Thread writer = Thread.currentThread();
            AtomicBoolean writing = new AtomicBoolean(true);
            Thread interrupter = new Thread(() -> {
                while (writing.get()) {
                    writer.interrupt();
                    LockSupport.parkNanos(20_000);
                }
            });
            interrupter.start();
            writer.interrupt(); // at least the first write meets an interrupt, however late the interrupter starts
            try {
                assertThat(writeRetrying(sink, src)).as("failed writes").isZero();
            } finally {
                writing.set(false);
                while (interrupter.isAlive()) {
                    try {
                        interrupter.join();
                    } catch (InterruptedException e) {
                        // its last interrupt
                    }
                }
                Thread.interrupted();
            }
            out.write("after\n".getBytes(StandardCharsets.US_ASCII)); // the descriptor is still open
        }
        assertThat(channels.get()).as("channels opened: interrupts closed some").isGreaterThan(1);
        assertThat(Files.readString(file, StandardCharsets.US_ASCII)).as("each byte once, in order")
                .isEqualTo(new String(bytes, StandardCharsets.US_ASCII) + "after\n");
    }

    /**
     * Through the engine: pieces of short lines and lines longer than {@code PIPE_BUF} (written in
     * a piece of their own), with partial writes followed by {@code EAGAIN}, a full descriptor and
     * a broken pipe on the way; the drainer retries each from what went out, and every line
     * reaches the stream once, in order.
     */
    @Test
    void everyLineReachesTheStreamOnceThoughWritesFailPartWay() throws Exception {
        Scripted channel = new Scripted(ALL, 1000, EAGAIN, ALL, 0, 5000, EPIPE, ALL, 7, 1, EAGAIN, 3000, EAGAIN);
        EngineConfig config = EngineConfig.builder().name("scripted").target(LogTarget.CONSOLE)
                .logFile(Path.of("scripted")).journalFile(dir.resolve("scripted.journal")).buffers(3, 256 * 1024)
                .maxEventSize(64 * 1024).backpressure(Backpressure.BLOCK).maxBlock(60, TimeUnit.SECONDS)
                .flushInterval(10, TimeUnit.MILLISECONDS).unblockTimeout(10, TimeUnit.SECONDS)
                .stopTimeout(30, TimeUnit.SECONDS).build();
        JournalEngine engine = JournalEngine.start(config, TestStatus.QUIET,
                () -> new ConsoleLogSink(() -> channel, "scripted"));
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        int events = 600;
        for (int i = 0; i < events; i++) {
            String head = "event " + i + " ";
            byte[] line = (head + ".".repeat((i % 50 == 7 ? 10_000 : 80 + i % 13) - head.length()) + "\n")
                    .getBytes(StandardCharsets.US_ASCII);
            assertThat(engine.append(line, false)).isTrue();
            expected.write(line);
        }
        engine.stop();
        assertThat(channel.script).as("every scripted failure was met").isEmpty();
        assertThat(engine.statistics().eventsWritten()).isEqualTo(events);
        assertThat(new String(channel.bytes(), StandardCharsets.US_ASCII)).as("each byte once, in order")
                .isEqualTo(expected.toString(StandardCharsets.US_ASCII));
    }
}
