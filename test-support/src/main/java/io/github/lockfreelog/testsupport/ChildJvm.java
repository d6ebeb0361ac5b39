package io.github.lockfreelog.testsupport;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A child JVM on this JVM's class path, for the tests and benchmarks that kill a process or keep one apart: its
 * standard output read line by line (the child's protocol: lines such as {@code READY}, awaited with
 * {@link #await}), optionally copied to a file; its standard input for commands ({@link #send}). A child still alive
 * when this JVM exits is killed with SIGKILL by a shutdown hook, and {@link #close()} kills it too, so none outlives
 * its test.
 *
 * <p>Crash points: {@link #crashPoint} is the JVM option that makes core's {@code CrashPoint} halt the child at a
 * named point (exit status {@code CrashPoint.HALT_STATUS}, read with {@link #exit}); what the child acknowledged before
 * it died is in its {@link AckFile}.
 */
public final class ChildJvm implements AutoCloseable {

    /** The system property core's {@code CrashPoint} reads: {@code name} or {@code name:n}. */
    private static final String CRASH_POINT = "lockfreelog.crashPoint";

    private static final Set<Process> LIVE = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> LIVE.forEach(Process::destroyForcibly),
                "child-jvm-killer"));
    }

    /** The child's process: {@code destroy()} is SIGTERM, {@code destroyForcibly()} SIGKILL on Linux. */
    public final Process process;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final List<String> seen = new ArrayList<>();
    private final String errors;
    /** Set once the reader met the end of the child's protocol stream: every line it will ever print is queued. */
    private volatile boolean ended;

    private ChildJvm(Process process, InputStream protocol, Path output, String errors) {
        this.process = process;
        this.errors = errors;
        LIVE.add(process);
        process.onExit().thenRun(() -> LIVE.remove(process));
        Thread reader = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(protocol,
                    StandardCharsets.UTF_8)); Writer copy = output == null ? Writer.nullWriter()
                            : Files.newBufferedWriter(output, StandardCharsets.UTF_8)) {
                for (String line; (line = in.readLine()) != null;) {
                    lines.add(line);
                    copy.write(line);
                    copy.write('\n');
                    copy.flush();
                }
            } catch (IOException e) {
                lines.add("IO " + e);
            } finally {
                ended = true;
            }
        }, "child-jvm-reader");
        reader.setDaemon(true);
        reader.start();
    }

    /** Starts {@code main} with {@code jvmArgs} and {@code args}; its standard error is read with its standard output. */
    public static ChildJvm start(String main, List<String> jvmArgs, List<String> args) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command(main, jvmArgs, args)).redirectErrorStream(true);
        Process process = builder.start();
        return new ChildJvm(process, process.getInputStream(), null, "(with its standard output)");
    }

    /**
     * Starts {@code main} with its standard output to {@code stdout} (a named pipe the caller reads, say) and its
     * standard error read as its protocol.
     */
    static ChildJvm startWithOutputTo(String main, List<String> jvmArgs, List<String> args, Path stdout)
            throws IOException {
        Process process = new ProcessBuilder(command(main, jvmArgs, args)).redirectOutput(stdout.toFile()).start();
        return new ChildJvm(process, process.getErrorStream(), null, "(read as its protocol)");
    }

    /** The JVM option that halts the child at {@code point} ({@code name} or {@code name:n}); none for {@code null}. */
    public static String crashPoint(String point) {
        return "-D" + CRASH_POINT + "=" + (point == null ? "" : point);
    }

    /**
     * Starts {@code main} with {@code jvmArgs} and {@code args}; its standard output is copied to
     * {@code name.out.txt}, its standard error goes to {@code name.err.txt}, both in {@code folder}.
     */
    public static ChildJvm start(String main, List<String> jvmArgs, List<String> args, Path folder, String name)
            throws IOException {
        Path errors = folder.resolve(name + ".err.txt");
        ProcessBuilder builder = new ProcessBuilder(command(main, jvmArgs, args)).redirectError(errors.toFile());
        Process process = builder.start();
        return new ChildJvm(process, process.getInputStream(), folder.resolve(name + ".out.txt"), errors.toString());
    }

    /**
     * Starts {@code main} with its standard output and error both appended to {@code log}, and nothing read: for a
     * child that speaks only through its files or sockets (a broker).
     */
    public static Process startQuiet(String main, List<String> jvmArgs, List<String> args, Path log)
            throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command(main, jvmArgs, args)).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        Process process = builder.start();
        LIVE.add(process);
        process.onExit().thenRun(() -> LIVE.remove(process));
        return process;
    }

    private static List<String> command(String main, List<String> jvmArgs, List<String> args) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmArgs);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(main);
        command.addAll(args);
        return command;
    }

    /** The first line that starts with {@code prefix} within 60 s; fails with what the child printed. */
    public String await(String prefix) throws InterruptedException {
        try {
            return await(prefix, 60);
        } catch (IOException e) {
            throw new AssertionError(e.getMessage(), e);
        }
    }

    /** The first line that starts with {@code prefix} within {@code seconds}; fails with what the child printed. */
    public String await(String prefix, long seconds) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() < deadline) {
            String line = lines.poll(100, TimeUnit.MILLISECONDS);
            if (line != null) {
                seen.add(line);
                if (line.startsWith(prefix)) {
                    return line;
                }
            } else if (ended && lines.isEmpty()) { // it printed all it will
                break;
            }
        }
        throw new IOException("the child never printed " + prefix + " (alive " + process.isAlive() + "); it printed "
                + printed() + "; its standard error: " + errors);
    }

    /** Waits for the child to end; its exit status, or fails when it runs past {@code seconds}. */
    public int exit(long seconds) throws IOException, InterruptedException {
        if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
            throw new IOException("the child did not end within " + seconds + " s; it printed " + printed()
                    + "; its standard error: " + errors);
        }
        return process.exitValue();
    }

    /** Writes {@code command} and a newline to the child's standard input. */
    public void send(String command) throws IOException {
        OutputStream input = process.getOutputStream();
        input.write((command + "\n").getBytes(StandardCharsets.UTF_8));
        input.flush();
    }

    /** Closes the child's standard input (a child that reads it sees its end). */
    public void closeInput() throws IOException {
        process.getOutputStream().close();
    }

    /** Waits up to {@code seconds} for the child to end, and fails unless its exit status is 0. */
    public void awaitCleanExit(long seconds) throws IOException, InterruptedException {
        int status = exit(seconds);
        if (status != 0) {
            throw new AssertionError("the child exited with status " + status + "; it printed " + printed()
                    + "; its standard error: " + errors);
        }
    }

    /** SIGKILL on Linux, and waits for the death; the exit status (137 for a kill). */
    public int kill() throws IOException, InterruptedException {
        process.destroyForcibly();
        return exit(30);
    }

    /** Every line the child printed so far. */
    public List<String> printed() {
        lines.drainTo(seen);
        return seen;
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
            try {
                process.waitFor(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
