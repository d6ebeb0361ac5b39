package io.github.lockfreelog.benchmarks.cli;

import io.github.lockfreelog.benchmarks.peers.Workload;
import io.github.lockfreelog.benchmarks.results.Format;
import io.github.lockfreelog.diagnostics.StatusReporter;
import io.github.lockfreelog.engine.Backpressure;
import io.github.lockfreelog.engine.EngineConfig;
import io.github.lockfreelog.engine.JournalEngine;
import io.github.lockfreelog.sink.ForwardingLogSink;
import io.github.lockfreelog.sink.LogSink;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The {@code drain} mode: how many lines a second one drainer moves to a file when nothing else runs, the
 * ceiling of one appender however many callers feed it. A journal of {@value #BUFFERS} buffers of 128 MiB
 * (just under the 2 GiB a journal may map) is filled with 150-byte lines while the drainer's first write
 * is held back; then the write goes on and the run times the drainer until every line is in the file,
 * with the drainer thread's own CPU time. Each folder of {@code --dirs} in turn (by default {@code /dev/shm},
 * a tmpfs, and {@code java.io.tmpdir}, a disk here), {@code --rounds} times.
 */
final class DrainRunner {

    static final String USAGE = "drain [--dirs /dev/shm,/var/tmp] [--rounds N] [--results DIR] [--docs DIR (unused)]";
    static final int BUFFERS = 15;
    static final int BUFFER_SIZE = 128 * 1024 * 1024;
    private static final StatusReporter QUIET = new StatusReporter() {
        @Override
        public void info(String message) {
        }

        @Override
        public void warn(String message, Throwable cause) {
            System.err.println("drain: " + message);
        }

        @Override
        public void error(String message, Throwable cause) {
            System.err.println("drain: " + message);
        }
    };

    private final PrintStream out;

    DrainRunner(PrintStream out) {
        this.out = out;
    }

    /** One drain: lines and bytes moved, wall time from the write's release to the last line, and the drainer's CPU. */
    record Result(String dir, int round, long lines, long bytes, long nanos, long drainerCpuNanos) {
        double linesPerSecond() {
            return lines * 1e9 / nanos;
        }

        double megabytesPerSecond() {
            return bytes * 1e9 / nanos / (1024 * 1024);
        }
    }

    int run(String[] args) throws IOException, InterruptedException {
        List<Path> dirs = List.of(Paths.get("/dev/shm"), Paths.get(System.getProperty("java.io.tmpdir")));
        int rounds = 2;
        Path results = Paths.get("benchmarks", "results");
        for (int i = 1; i < args.length; i += 2) {
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException("option " + args[i] + " needs a value; usage: " + USAGE);
            }
            switch (args[i]) {
                case "--dirs" -> dirs = Arrays.stream(args[i + 1].split(",")).map(Paths::get).toList();
                case "--rounds" -> rounds = Integer.parseInt(args[i + 1]);
                case "--results" -> results = Paths.get(args[i + 1]);
                case "--docs" -> { } // taken, as every mode takes it, so that one launcher can pass it to all (no charts here)
                default -> throw new IllegalArgumentException("unknown option " + args[i] + "; usage: " + USAGE);
            }
        }
        String stamp = RunEnvironment.stamp();
        String environment = "drain mode, " + stamp + ", Java " + System.getProperty("java.version") + ", "
                + RunEnvironment.machine() + ", journal " + BUFFERS + " x 128 MiB, "
                + Workload.DEFAULT_LINE_SIZE + "-byte lines";
        out.println("lockfreelog benchmarks, " + environment);
        List<Result> all = new ArrayList<>();
        for (int round = 1; round <= rounds; round++) {
            for (Path dir : dirs) {
                Result r = drainOnce(dir, round);
                out.printf(Locale.ROOT, "%s round %d: %,d lines (%,d MB) in %.3f s: %s lines/s, %.0f MB/s, drainer CPU"
                        + " %.0f ns per line%n", dir, round, r.lines, r.bytes >> 20, r.nanos / 1e9,
                        Format.si(r.linesPerSecond()), r.megabytesPerSecond(), (double) r.drainerCpuNanos / r.lines);
                all.add(r);
            }
        }
        StringBuilder text = new StringBuilder("lockfreelog benchmark results: " + environment + "\n\n")
                .append("### One drainer's ceiling (" + RunEnvironment.machine() + ")\n\n")
                .append("| folder | round | lines | lines/s | MB/s | drainer CPU per line, ns |\n")
                .append("| --- | ---: | ---: | ---: | ---: | ---: |\n");
        for (Result r : all) {
            text.append(String.format(Locale.ROOT, "| %s | %d | %s | %s | %.0f | %.0f |%n", r.dir, r.round,
                    Format.si(r.lines), Format.si(r.linesPerSecond()), r.megabytesPerSecond(),
                    (double) r.drainerCpuNanos / r.lines));
        }
        Files.createDirectories(results);
        Files.writeString(results.resolve("drain-" + stamp + ".txt"), text, StandardCharsets.UTF_8);
        out.println();
        out.print(text);
        return 0;
    }

    private Result drainOnce(Path dir, int round) throws IOException, InterruptedException {
        Path work = Files.createTempDirectory(dir, "lockfreelog-drain-");
        Gate gate = new Gate();
        String name = "drain" + round;
        EngineConfig config = EngineConfig.builder().name(name).logFile(work.resolve("drain.log"))
                .journalFile(work.resolve("drain.journal")).buffers(BUFFERS, BUFFER_SIZE)
                .backpressure(Backpressure.DROP).maxBlock(0, TimeUnit.MILLISECONDS).build();
        JournalEngine engine = JournalEngine.start(config, QUIET, sink -> gate.around(sink));
        try {
            byte[] line = line();
            long lines = 0;
            while (engine.append(line, true)) {
                lines++;
            }
            if (!gate.held.await(10, TimeUnit.SECONDS)) {
                throw new IOException("the drainer never began its first write");
            }
            Thread drainer = Thread.getAllStackTraces().keySet().stream()
                    .filter(t -> t.getName().equals("lockfreelog-drainer-" + name)).findFirst().orElseThrow();
            ThreadMXBean threads = ManagementFactory.getThreadMXBean();
            long cpuBefore = threads.getThreadCpuTime(drainer.getId());
            long start = System.nanoTime();
            gate.open.countDown();
            while (engine.statistics().eventsWritten() < lines) {
                TimeUnit.MICROSECONDS.sleep(500);
            }
            long nanos = System.nanoTime() - start;
            long cpu = threads.getThreadCpuTime(drainer.getId()) - cpuBefore;
            return new Result(dir.toString(), round, lines, lines * line.length, nanos, cpu);
        } finally {
            engine.stop();
            try (Stream<Path> files = Files.walk(work)) {
                for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }

    /** A line of the workload's length, as its pattern would write it. */
    static byte[] line() {
        StringBuilder b = new StringBuilder("2026-12-04 12:00:00.000  INFO 4242 --- [bench-0] i.g.l.benchmarks.DrainRunner : ");
        while (b.length() < Workload.DEFAULT_LINE_SIZE - 1) {
            b.append('x');
        }
        return b.append('\n').toString().getBytes(StandardCharsets.US_ASCII);
    }

    /** Holds the drainer's first write until {@link #open} opens; later writes pass. */
    private static final class Gate {
        final CountDownLatch held = new CountDownLatch(1);
        final CountDownLatch open = new CountDownLatch(1);

        LogSink around(LogSink sink) {
            return new ForwardingLogSink(sink) {
                @Override
                public int write(ByteBuffer src) throws IOException {
                    held.countDown();
                    try {
                        open.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new InterruptedIOException("the drain run was interrupted");
                    }
                    return super.write(src);
                }
            };
        }
    }
}
