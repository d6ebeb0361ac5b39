package io.github.lockfreelog.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A child JVM whose standard output is a named pipe that the test reads, as a container runtime or a shell pipe
 * would, with a plain file stream: {@code Process.getInputStream()} may lose the last bytes of a child that was
 * killed (it drains the pipe as the process exits), which would look like a line cut by the appender. The child
 * speaks to the test on standard error ({@link #await}) and listens on standard input ({@link #send}).
 */
public final class PipedChild {

    private Process process;
    private final BlockingQueue<String> errLines = new LinkedBlockingQueue<>();
    private final List<String> seen = new ArrayList<>();
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final Object reading = new Object();
    private boolean stalled;
    private final Thread outReader;
    private OutputStream input;

    /**
     * Starts {@code command} with its standard output into a new named pipe {@code pipe}, read into memory (unless
     * {@code read} is false: then its read end is closed at once, and the child's writes fail with a broken pipe).
     */
    public static PipedChild start(List<String> command, Path pipe, boolean read) throws IOException {
        try {
            assertThat(new ProcessBuilder("mkfifo", pipe.toString()).start().waitFor()).as("mkfifo").isZero();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
        PipedChild child = new PipedChild(pipe, read);
        child.attach(new ProcessBuilder(command).redirectOutput(pipe.toFile()).start());
        return child;
    }

    /** Kills the child with SIGKILL and waits for it. */
    public void kill() {
        process.destroyForcibly();
        try {
            process.waitFor(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The lines the child wrote to standard error so far, as {@link #await} read them. */
    public List<String> seen() {
        return seen;
    }

    private PipedChild(Path pipe, boolean read) {
        outReader = new Thread(() -> {
            try (InputStream in = Files.newInputStream(pipe)) {
                if (read) {
                    copy(in);
                }
            } catch (IOException e) {
                errLines.add("IO " + e);
            }
        });
        outReader.setDaemon(true);
        outReader.start();
    }

    private void attach(Process process) {
        this.process = process;
        this.input = process.getOutputStream();
        Thread errReader = new Thread(() -> {
            try (var in = new BufferedReader(new InputStreamReader(process.getErrorStream(),
                    StandardCharsets.UTF_8))) {
                for (String line; (line = in.readLine()) != null;) {
                    errLines.add(line);
                }
            } catch (IOException e) {
                errLines.add("IO " + e);
            }
        });
        errReader.setDaemon(true);
        errReader.start();
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
        if (bytes.length == 0) {
            return List.of();
        }
        assertThat(bytes[bytes.length - 1]).as("the output ends with a whole line").isEqualTo((byte) '\n');
        return List.of(new String(bytes, StandardCharsets.UTF_8).split("\n"));
    }

    public String await(String prefix) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            String line = errLines.poll(100, TimeUnit.MILLISECONDS);
            if (line != null) {
                seen.add(line);
                if (line.startsWith(prefix)) {
                    return line;
                }
            }
        }
        throw new AssertionError("child never printed " + prefix + "; it printed " + seen);
    }

    public void send(String command) throws IOException {
        input.write((command + "\n").getBytes(StandardCharsets.UTF_8));
        input.flush();
    }

    public void awaitExit() throws InterruptedException {
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as("exit status; it printed %s", seen).isZero();
    }
}
