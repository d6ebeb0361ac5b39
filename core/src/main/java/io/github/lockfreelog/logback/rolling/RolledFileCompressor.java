package io.github.lockfreelog.logback.rolling;

import ch.qos.logback.core.rolling.helper.CompressionMode;
import io.github.lockfreelog.diagnostics.CrashPoint;
import io.github.lockfreelog.diagnostics.StatusReporter;
import io.github.lockfreelog.files.LockedFile;
import io.github.lockfreelog.files.Mounts;
import io.github.lockfreelog.files.SafeFiles;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Compresses rolled files so that a crash at any moment leaves nothing broken, and completes at
 * start a compression that a crash interrupted. For an archive {@code T} (say
 * {@code app.2026-03-01.0.log.gz}):
 *
 * <pre>
 *   live file --rename--&gt; source   app.2026-03-01.0.log.tmp      (the drainer, at the roll)
 *   source  --compress--&gt; partial  app.2026-03-01.0.log.gz.part  (opened new, never through a link, forced to disk)
 *   partial --rename---&gt; T        app.2026-03-01.0.log.gz       (atomic: T is complete or absent; never replaced)
 *   delete source
 * </pre>
 *
 * So an archive under its final name always decompresses, and until it exists its source does.
 * ({@link ArchiveFiles} names the source, {@link ArchiveFormat} writes and checks the bytes.)
 *
 * <p>Other instances may write the same log file, and one that has not noticed the roll yet
 * may append one more batch to the source: it looks at the name before each write
 * ({@link io.github.lockfreelog.sink.FileLogSink#follow}).
 * So a source is compressed no sooner than {@link #SETTLE_NANOS} after its roll, and compressed
 * again if it grew while it was compressed; its lines all reach the archive. Whoever compresses a
 * source (the instance that rolled it, or one that found it at start) holds a lock on it
 * throughout, so that two never compress, or delete, the same source at once; a source locked by
 * another is left to that one. Where the file system has no locks (ENOLCK) it is compressed without
 * one, after one WARN: safe while one process alone writes, rolls and compresses the log file.
 *
 * <p>At start {@link LeftoverFinder} finds every source and partial file a crash left, and
 * {@link #finish} completes each: a partial output is deleted; a source is compressed again unless
 * its archive exists and decompresses to the end, to as many bytes as the source holds, in which case only the
 * source is deleted (an archive of another length is another file's, and the source is kept, with a WARN).
 * (A partial output whose source is there is left to the source's compression: it may belong to
 * another instance's compression in progress.)
 */
public final class RolledFileCompressor {

    public static final String PARTIAL_SUFFIX = ".part";
    /**
     * How long a rolled file is left alone before it is compressed: other instances writing the same
     * log file look before each write whether it was rolled, and
     * one that was just writing appends its batch to it.
     */
    public static final long SETTLE_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    /** Compressions of one source that a late write may cause before the archive is kept as it is. */
    private static final int MAX_ATTEMPTS = 5;

    private final ArchiveFiles files;
    private final ArchiveFormat format;
    private final StatusReporter status;
    /** Whether the WARN that a file system has no locks was given; the archiver thread's. */
    private volatile boolean toldWithoutLocks;

    public RolledFileCompressor(CompressionMode mode, StatusReporter status) {
        this.files = new ArchiveFiles(mode);
        this.format = new ArchiveFormat(mode);
        this.status = status;
    }

    /** The compressor's output for {@code target}, renamed to it when complete. */
    static Path partialFor(Path target) {
        return Paths.get(target + PARTIAL_SUFFIX);
    }

    /** What a crash left of one compression: its source or partial {@code file} and the archive it belongs to. */
    public record Leftover(Path file, Path target, boolean partial) {
    }

    /**
     * Compresses {@code source} into {@code target} through a partial file renamed when complete,
     * then deletes the source (without compression: renames the source to the target). Waits
     * until {@code notBefore} ({@link System#nanoTime()}) first. Does nothing, and returns
     * {@code false}, when another process compresses the source (or has done so).
     */
    public boolean compress(Path source, Path target, long notBefore) throws IOException {
        return whileLocked(source, in -> {
            if (!files.compressed()) {
                FileMove.move(source, target);
                return;
            }
            compressLocked(in, source, target, notBefore);
        });
    }

    /**
     * Completes one interrupted compression; reports, and keeps the source, when that fails.
     * Leaves alone what another process compresses now.
     */
    public void finish(Leftover leftover) {
        Path file = leftover.file();
        Path target = leftover.target();
        try {
            if (leftover.partial()) {
                if (Files.exists(files.sourceFor(target), LinkOption.NOFOLLOW_LINKS)) {
                    return; // the source's compression, here or in another instance, replaces it
                }
                if (Files.deleteIfExists(file)) {
                    status.info("deleted " + file + ", the partial output of a compression that a crash interrupted");
                }
                return;
            }
            long notBefore = System.nanoTime() + SETTLE_NANOS; // it may be another instance's, just rolled
            whileLocked(file, in -> {
                long archived;
                if (!Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
                    if (!files.compressed()) {
                        FileMove.move(file, target);
                    } else {
                        compressLocked(in, file, target, notBefore);
                    }
                    status.info("finished the compression of " + file + " to " + target + " that a crash interrupted");
                } else if (!files.compressed()) {
                    status.warn(file + " is left as it is: " + target + ", the name it would take, exists", null);
                } else if ((archived = format.uncompressedLength(target)) == in.size()) {
                    Files.delete(file);
                    status.info("deleted " + file + ": its archive " + target + " was already complete");
                } else if (archived >= 0) {
                    // complete, but not of these bytes: the name was another file's (a clash the rename reported)
                    status.warn(file + " is left as it is: " + target + ", the archive it would complete, holds "
                            + archived + " bytes, not its " + in.size(), null);
                } else {
                    Files.delete(target); // cut short by a crash: its source, still here, is all of it
                    compressLocked(in, file, target, notBefore);
                    status.info("compressed " + file + " again to " + target + ", which a crash had cut short");
                }
            });
        } catch (IOException | RuntimeException e) {
            status.error("finishing the interrupted compression of " + file + " to " + target
                    + " failed; the file is kept", e);
        }
    }

    private void compressLocked(FileChannel in, Path source, Path target, long notBefore) throws IOException {
        for (long wait; (wait = notBefore - System.nanoTime()) > 0;) {
            LockSupport.parkNanos(this, wait);
        }
        Path partial = partialFor(target);
        Files.deleteIfExists(partial); // left by a crash (we hold the source), or a planted link: removed, never followed
        for (int attempt = 1;; attempt++) {
            long compressed;
            try {
                compressed = compressThroughPartial(in, source, partial, target);
            } catch (IOException | RuntimeException e) {
                Files.deleteIfExists(partial);
                throw e;
            }
            if (in.size() <= compressed || attempt == MAX_ATTEMPTS) {
                break;
            }
            Files.delete(partial); // another instance appended before it noticed the roll: compress it all again
        }
        CrashPoint.reached(CrashPoint.AFTER_COMPRESSION);
        FileMove.move(partial, target);
        CrashPoint.reached(CrashPoint.AFTER_COMPRESSION_RENAME);
        Files.delete(source);
    }

    /** Work on a source while this process holds its lock. */
    @FunctionalInterface
    private interface SourceWork {
        void run(FileChannel source) throws IOException;
    }

    /**
     * Runs {@code work} while this process holds an exclusive lock on {@code source}, through the
     * channel it passes ({@link LockedFile}: the file is known by its key, so a source that another
     * compressor of this JVM holds is left to it without being opened, and opening or closing
     * nothing releases another's lock). Returns {@code false} without running it when the source is
     * gone or another compressor, here or in another process, holds it.
     */
    private boolean whileLocked(Path source, SourceWork work) throws IOException {
        LockedFile locked;
        try {
            locked = LockedFile.tryLock(source, StandardOpenOption.READ, StandardOpenOption.WRITE);
        } catch (NoSuchFileException e) {
            return false; // another instance compressed it
        } catch (IOException e) {
            if (!Mounts.noLocks(e)) {
                throw e;
            }
            return withoutLock(source, work, e);
        }
        if (locked == null) {
            return false; // another compressor has it, in this JVM or another process
        }
        try (locked) {
            work.run(locked.channel());
            return true;
        }
    }

    /**
     * Runs {@code work} on {@code source} without a lock, where its file system has none to give (ENOLCK); says so
     * once. Safe while this process alone compresses the archives of its log file, as it alone may roll it then.
     */
    private boolean withoutLock(Path source, SourceWork work, IOException noLocks) throws IOException {
        if (!toldWithoutLocks) {
            toldWithoutLocks = true;
            status.warn("compressing " + source + " without a lock on it: " + Mounts.noLocksIn(source.getParent())
                    + "; safe while no other process compresses the archives of this log file", noLocks);
        }
        try (FileChannel channel = SafeFiles.open(source, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            work.run(channel);
            return true;
        } catch (NoSuchFileException e) {
            return false; // another instance compressed it
        }
    }

    /**
     * Compresses all of {@code source} into a new {@code partial} of {@code target}, which gets the
     * source's permissions (those of the live file it was rolled from, whatever the umask); returns
     * how many bytes of the source it read. A zip's one entry is named after the archive, less its
     * suffixes.
     */
    private long compressThroughPartial(FileChannel source, Path sourcePath, Path partial, Path target) throws IOException {
        long size = source.size();
        long copied = 0;
        try (FileChannel channel = SafeFiles.openOwnerOnly(partial, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            SafeFiles.copyPermissions(sourcePath, partial);
            String entry = files.uncompressedName(target.getFileName().toString());
            try (OutputStream out = format.compressing(Channels.newOutputStream(channel), entry)) {
                ByteBuffer buffer = ByteBuffer.allocate(ArchiveFormat.COPY_BUFFER);
                for (int n; (n = source.read(buffer.clear(), copied)) > 0;) {
                    out.write(buffer.array(), 0, n);
                    if (copied < size / 2 && copied + n >= size / 2) {
                        out.flush();
                        CrashPoint.reached(CrashPoint.MID_COMPRESSION);
                    }
                    copied += n;
                }
            } // finishes the compressed stream; the channel stays open, to be forced to disk
            channel.force(true);
        }
        return copied;
    }
}
