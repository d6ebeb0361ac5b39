package io.github.lockfreelog.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A {@link ChildJvm} whose standard output is a named pipe that the test reads, as a container runtime or a shell pipe
 * would, with a plain file stream: {@code Process.getInputStream()} may lose the last bytes of a child that was
 * killed (it drains the pipe as the process exits), which would look like a line cut by the appender. The child
 * speaks to the test on standard error ({@link #await}) and listens on standard input ({@link #send}).
 */
public final class PipedChild implements AutoCloseable {

    private ChildJvm child;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final Object reading = new Object();
    private boolean stalled;
    private final Thread outReader;
    private volatile IOException failed;

    /**
     * Starts {@code main} with {@code jvmArgs} and {@code args}, its standard output into a new named pipe {@code pipe},
     * read into memory (unless {@code read} is false: then its read end is closed at once, and the child's writes fail
     * with a broken pipe).
     */
    public static PipedChild start(String main, List<String> jvmArgs, List<String> args, Path pipe, boolean read)
            throws IOException {
        try {
            assertThat(new ProcessBuilder("mkfifo", pipe.toString()).start().waitFor()).as("mkfifo").isZero();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
        PipedChild piped = new PipedChild(pipe, read);
        piped.child = ChildJvm.startWithOutputTo(main, jvmArgs, args, pipe);
        return piped;
    }

    private PipedChild(Path pipe, boolean read) {
        outReader = new Thread(() -> {
            try (InputStream in = Files.newInputStream(pipe)) {
                if (read) {
                    copy(in);
                }
            } catch (IOException e) {
                failed = e;
            }
        }, "piped-child-output");
        outReader.setDaemon(true);
        outReader.start();
    }

    /** Kills the child with SIGKILL and waits for it. */
    public void kill() {
        child.close();
    }

    /** The lines the child wrote to standard error so far. */
    public List<String> seen() {
        return child.printed();
    }

    private void copy(InputStream in) throws IOException {
        byte[] buffer = new byte[8192];
        try {
            while (true) {
                synchronized (reading) { // the test's own gate on its reader, never the appender's
                    while (stalled) {
                        reading.wait();
                    }
                }
                int n = in.read(buffer);
                if (n < 0) {
                    return;
                }
                synchronized (out) { // between this reader and the test thread that reads the capture
                    out.write(buffer, 0, n);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Stops reading the pipe (the child's writes block once it is full), until {@link #resumeReading}. */
    public void stallReading() {
        synchronized (reading) {
            stalled = true;
        }
    }

    public void resumeReading() {
        synchronized (reading) {
            stalled = false;
            reading.notifyAll();
        }
    }

    /** Everything the child wrote to standard output, once it exited; split into lines, each ended by a newline. */
    public List<String> output() throws InterruptedException {
        outReader.join(TimeUnit.SECONDS.toMillis(30));
        byte[] bytes;
        synchronized (out) {
            bytes = out.toByteArray();
        }
        if (failed != null) {
            throw new AssertionError("reading the child's standard output failed", failed);
        }
        if (bytes.length == 0) {
            return List.of();
        }
        assertThat(bytes[bytes.length - 1]).as("the output ends with a whole line").isEqualTo((byte) '\n');
        return List.of(new String(bytes, StandardCharsets.UTF_8).split("\n"));
    }

    /** The first line of standard error that starts with {@code prefix} within 60 s. */
    public String await(String prefix) throws InterruptedException {
        return child.await(prefix);
    }

    public void send(String command) throws IOException {
        child.send(command);
    }

    /** Waits up to 60 s for the child to end, and fails unless its exit status is 0. */
    public void awaitExit() throws IOException, InterruptedException {
        child.awaitCleanExit(60);
    }

    @Override
    public void close() {
        child.close();
    }
}
