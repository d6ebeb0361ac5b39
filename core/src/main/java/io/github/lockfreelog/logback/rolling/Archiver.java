package io.github.lockfreelog.logback.rolling;

import io.github.lockfreelog.diagnostics.StatusReporter;
import io.github.lockfreelog.logback.rolling.RolledFileCompressor.Leftover;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * Runs the work on rolled files on one daemon thread, in the order it is handed over, so that the
 * drainer never waits for it: compressions (a failed one is kept and handed over again after the
 * next roll), history clean-up, and the completion of what crashes left.
 */
final class Archiver {

    /** A rolled file whose compression failed (say, its folder was read-only). */
    private record Pending(Path source, Path target) {
    }

    private final ExecutorService thread;
    private final RolledFileCompressor compressor;
    /** {@code null}: no history limit. */
    private final HistoryCleanup cleanup;
    private final StatusReporter status;
    private final Queue<Pending> uncompressed = new ConcurrentLinkedQueue<>();

    Archiver(String name, RolledFileCompressor compressor, HistoryCleanup cleanup, StatusReporter status) {
        this.compressor = compressor;
        this.cleanup = cleanup;
        this.status = status;
        this.thread = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "lockfreelog-archiver-" + name);
            t.setDaemon(true);
            return t;
        });
    }

    /** Completes each of the compressions that crashes interrupted. */
    void finish(List<Leftover> leftovers) {
        for (Leftover leftover : leftovers) {
            thread.execute(() -> compressor.finish(leftover));
        }
    }

    /** Compresses {@code source} into {@code target}, not before {@code notBefore} ({@link System#nanoTime()}). */
    void compress(Path source, Path target, long notBefore) {
        thread.execute(() -> compressNow(source, target, notBefore));
    }

    /** After a roll: compresses again the rolled files whose compression failed before. */
    void retryFailedCompressions() {
        for (Pending pending; (pending = uncompressed.poll()) != null;) {
            Path source = pending.source();
            Path target = pending.target();
            thread.execute(() -> compressNow(source, target, System.nanoTime()));
        }
    }

    /** Applies the history limits as at {@code now}, if there are any. */
    void cleanHistory(long now) {
        if (cleanup != null) {
            thread.execute(() -> cleanup.run(now));
        }
    }

    private void compressNow(Path source, Path target, long notBefore) {
        try {
            compressor.compress(source, target, notBefore);
        } catch (IOException | RuntimeException e) {
            uncompressed.add(new Pending(source, target));
            status.error("compressing " + source + " to " + target + " failed; the uncompressed file is kept and"
                    + " compressed again after the next roll, or at the next start", e);
        }
    }

    /** Takes no more work and lets what was handed over run on, without waiting for it. */
    void shutdown() {
        thread.shutdown();
    }

    /** Takes no more work and waits at most {@code timeoutNanos} for what was handed over; what is left is finished at the next start. */
    void close(long timeoutNanos) {
        thread.shutdown();
        try {
            if (!thread.awaitTermination(Math.max(0, timeoutNanos), TimeUnit.NANOSECONDS)) {
                status.warn("compression of rolled files did not finish within the stop timeout;"
                        + " the next start finishes it", null);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
