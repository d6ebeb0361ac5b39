package io.github.lockfreelog.benchmarks;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A child JVM of the kafka-kill and kafka-journal modes, on this jar's class path: its standard output read line by
 * line (the child's protocol: lines such as {@code READY} or {@code RSS ...}), both copied into files.
 * {@link #close()} kills it with SIGKILL if it still runs, so no child outlives the mode.
 */
final class KafkaChildJvm implements AutoCloseable {

    final Process process;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final List<String> seen = new ArrayList<>();
    private final Path errors;

    private KafkaChildJvm(Process process, Path errors, Path output) {
        this.process = process;
        this.errors = errors;
        Thread reader = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8)); Writer copy = Files.newBufferedWriter(output, StandardCharsets.UTF_8)) {
                for (String line; (line = in.readLine()) != null;) {
                    lines.add(line);
                    copy.write(line);
                    copy.write('\n');
                    copy.flush();
                }
            } catch (IOException e) {
                lines.add("IO " + e);
            }
        }, "kafka-child-reader");
        reader.setDaemon(true);
        reader.start();
    }

    /**
     * Starts {@code main} with {@code jvmArgs} and {@code args}; its standard output is copied to {@code name.out.txt},
     * its standard error goes to {@code name.err.txt}, both in {@code folder}.
     */
    static KafkaChildJvm start(Class<?> main, List<String> jvmArgs, List<String> args, Path folder, String name)
            throws IOException {
        Path errors = folder.resolve(name + ".err.txt");
        List<String> command = new ArrayList<>();
        command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmArgs);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(main.getName());
        command.addAll(args);
        ProcessBuilder builder = new ProcessBuilder(command).redirectError(errors.toFile());
        return new KafkaChildJvm(builder.start(), errors, folder.resolve(name + ".out.txt"));
    }

    /** The first line that starts with {@code prefix} within {@code seconds}; fails with what the child printed. */
    String await(String prefix, long seconds) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() < deadline) {
            String line = lines.poll(100, TimeUnit.MILLISECONDS);
            if (line != null) {
                seen.add(line);
                if (line.startsWith(prefix)) {
                    return line;
                }
            } else if (!process.isAlive() && lines.isEmpty()) {
                break;
            }
        }
        throw new IOException("the child never printed " + prefix + " (alive " + process.isAlive() + "); it printed "
                + printed() + "; its standard error: " + errors);
    }

    /** Waits for the child to end; its exit status, or fails when it runs past {@code seconds}. */
    int exit(long seconds) throws IOException, InterruptedException {
        if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
            throw new IOException("the child did not end within " + seconds + " s; it printed " + printed()
                    + "; its standard error: " + errors);
        }
        return process.exitValue();
    }

    /** SIGKILL on Linux, and waits for the death; the exit status (137 for a kill). */
    int kill() throws IOException, InterruptedException {
        process.destroyForcibly();
        return exit(30);
    }

    /** Every line the child printed so far. */
    List<String> printed() {
        lines.drainTo(seen);
        return seen;
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            process.destroyForcibly();
            process.waitFor(30, TimeUnit.SECONDS);
        }
    }
}
