package io.github.lockfreelog.benchmarks.measure;

import io.github.lockfreelog.benchmarks.peers.LineCounter;
import io.github.lockfreelog.benchmarks.peers.Peer;
import io.github.lockfreelog.benchmarks.peers.Sink;
import io.github.lockfreelog.benchmarks.results.LineCheck;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * One peer configured in its own fresh folder for one run of a fork, and the line check at its end:
 * stop the framework (so it flushes what it accepted), count the lines in its file (for a console
 * peer, the lines its pipe's reader received: {@link Sink#count()}), print them and
 * delete the folder. The throughput benchmark and the latency fork both end this way, so their line
 * checks are the same.
 */
public final class Trial {

    /** System property naming the folder the forks write their logs into (default: java.io.tmpdir). */
    public static final String DIRECTORY_PROPERTY = "lockfreelog.bench.dir";

    /** System property that keeps the log files after a fork instead of deleting them. */
    public static final String KEEP_FILES_PROPERTY = "lockfreelog.bench.keepFiles";

    private final Peer peer;
    private final int lineSize;
    private final Path directory;
    private final Sink sink;

    private Trial(Peer peer, int lineSize, Path directory, Sink sink) {
        this.peer = peer;
        this.lineSize = lineSize;
        this.directory = directory;
        this.sink = sink;
    }

    public static Trial open(Peer peer, int lineSize) throws IOException {
        Path base = Paths.get(System.getProperty(DIRECTORY_PROPERTY, System.getProperty("java.io.tmpdir")));
        Files.createDirectories(base);
        Path directory = Files.createTempDirectory(base, "lockfreelog-bench-" + peer.id() + "-");
        return new Trial(peer, lineSize, directory, Sink.open(peer, directory));
    }

    public Sink sink() {
        return sink;
    }

    /**
     * Stops the framework and checks its lines against {@code accepted} calls (warm-up included, as
     * the file holds those lines too); prints the result, with the peer's own counters, and deletes
     * the folder unless told to keep it.
     */
    public LineCheck finish(String mode, int threads, long accepted) throws IOException {
        return finish(mode, threads, accepted, () -> { });
    }

    /**
     * As {@link #finish(String, int, long)}, running {@code afterStop} once the framework has stopped and
     * before the lines are counted: the cost mode samples the process's CPU time there, so that
     * stopping and flushing count and counting the file does not (nor, for a console peer, closing
     * the pipe and waiting for its reader to drain it).
     */
    public LineCheck finish(String mode, int threads, long accepted, Runnable afterStop) throws IOException {
        sink.stop();
        afterStop.run();
        LineCounter.Count count = peer.writesFile() ? sink.count() : new LineCounter.Count(-1, 0, 0);
        LineCheck check = new LineCheck(accepted, count.lines(), count.bytes(), count.nulBytes());
        String details = sink.details();
        System.out.println();
        System.out.println("[lines] peer=" + peer.id() + " mode=" + mode + " threads=" + threads + " lineSize=" + lineSize
                + " accepted=" + accepted + " written=" + (check.writesFile() ? count.lines() : "n/a")
                + (check.losing() ? " LOST=" + check.lost() + " (the peer accepted lines it did not write)" : "")
                + (count.nulBytes() > 0 ? " nulBytes=" + count.nulBytes() : "")
                + (details.isEmpty() ? "" : " " + details));
        if (!Boolean.getBoolean(KEEP_FILES_PROPERTY)) {
            deleteRecursively(directory);
        }
        return check;
    }

    private static void deleteRecursively(Path root) throws IOException {
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> {
                try {
                    Files.deleteIfExists(path);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }
}
