package io.github.lockfreelog.logback.rolling;

import ch.qos.logback.core.Context;
import io.github.lockfreelog.diagnostics.StatusReporter;
import io.github.lockfreelog.files.SafeFiles;
import io.github.lockfreelog.files.SharedFileLock;
import io.github.lockfreelog.logback.rolling.RolledFileCompressor.Leftover;
import io.github.lockfreelog.sink.FileLogSink;
import io.github.lockfreelog.sink.LogClosedException;
import io.github.lockfreelog.sink.LogSink;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * Writes the live log file and rolls it by size and time, driven by the drainer thread between
 * whole events: it decides when a roll is due and orders its steps. The live file keeps its name
 * (log shippers follow it by name); a rolled file is renamed after Logback's {@code fileNamePattern}
 * ({@code %d{...}} for the period, {@code %i} for the index within a period, {@code .gz} or
 * {@code .zip} to compress), which {@link ArchiveNaming} chooses. Compression
 * ({@link RolledFileCompressor}, which never leaves a broken archive) and the deletion of old
 * archives ({@link HistoryCleanup}: {@code maxHistory}, {@code totalSizeCap}) run on the
 * {@link Archiver}'s thread, so draining never waits for them; at start it also finishes what a
 * crash interrupted ({@link LeftoverFinder}).
 *
 * <p>A shipper that follows the live file by name only sees a file that it finds under that name:
 * when the drainer writes a backlog at once, a small file could be created, filled and renamed
 * before the shipper gets to it. So a file is never rolled before it has been live for
 * {@code maxFileSize} / {@link #SHIPPER_BYTES_PER_SECOND} (at most {@link #MAX_MIN_LIFETIME_NANOS}):
 * a shipper that reads that fast has read the previous file to its end and opened this one.
 *
 * <p>Several instances may write and roll one log file. Each follows the live file by name (see
 * {@link FileLogSink#follow}): when another instance has rolled it, this one reopens the name
 * before its next write, and what it wrote meanwhile stays, in whole lines, at the end of the
 * file the other one renamed. A roll takes the roll lock ({@link RollLock}) of the log file and renames the
 * live file only if the name still stands for the file this instance writes; if another instance
 * rolled it first, this one opens the new file instead of rolling that too. Where the file system
 * has no locks (ENOLCK) the roll goes on without the lock, after one WARN: safe while this process
 * alone writes the file.
 *
 * <p>A roll that cannot complete (an archive folder that is read-only or gone) never stops the
 * live file: it is written on and the roll tried again later ({@link #roll}).
 *
 * <p>Once closed, the sink stays closed: it never writes, rolls or compresses again (a drainer
 * that outlived a stop which timed out finds it closed: {@link LogClosedException}). A roll under way
 * when it is closed finishes first, so no file is renamed after {@link #close} returned.
 */
public final class RollingLogSink implements LogSink {

    /** Rolling settings, validated by the appender. */
    public record Settings(String fileNamePattern, long maxFileSize, int maxHistory, long totalSizeCap,
            boolean cleanHistoryOnStart) {
    }

    /** Reading rate that a shipper following the live file is assumed to reach. */
    public static final long SHIPPER_BYTES_PER_SECOND = 20L << 20;
    /** Upper bound of the time a file is live at least, whatever its size. */
    static final long MAX_MIN_LIFETIME_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private final Path file;
    private final long maxFileSize;
    private final LongSupplier clock;
    private final StatusReporter status;
    private final ArchiveFiles files;
    private final ArchiveNaming naming;
    private final Archiver archiver;
    private final long minLifetimeNanos;

    /** Held by a roll while it renames and hands on, and by {@link #close}: no roll runs after close. */
    private final Object rollOrClose = new Object();
    private volatile boolean closed;
    private FileLogSink live;
    private final SharedFileLock rollLock;
    private final RollRetry retry;
    private long size;
    /** Read by {@link #shouldRoll} at the first event of each write: whether a roll may be tried, and whether the period is over. */
    private boolean rollAllowed;
    private boolean periodOver;
    /** When the live file was opened ({@link System#nanoTime()}). */
    private long liveSince;

    /**
     * Opens (or creates) the live file {@code file} and its roll lock, and hands what crashes left of
     * compressions to the archiver thread ({@code lockfreelog-archiver-<name>}). {@code clock} gives
     * the wall-clock milliseconds that periods are reckoned in.
     */
    public RollingLogSink(Path file, Settings settings, Context context, LongSupplier clock, StatusReporter status,
            String name) throws IOException {
        this.file = file;
        this.maxFileSize = settings.maxFileSize();
        this.clock = clock;
        this.status = status;
        this.retry = new RollRetry(status);
        this.files = new ArchiveFiles(ArchiveFiles.compressionOf(settings.fileNamePattern()));
        this.naming = new ArchiveNaming(settings.fileNamePattern(), context, files);
        RolledFileCompressor compressor = new RolledFileCompressor(files.mode(), status);
        List<Leftover> leftovers = LeftoverFinder.find(settings.fileNamePattern(), files, context, status);
        naming.reserve(leftovers);
        this.archiver = new Archiver(name, compressor,
                HistoryCleanup.of(naming, settings.maxHistory(), settings.totalSizeCap(), context, status), status);
        this.minLifetimeNanos = Math.min(MAX_MIN_LIFETIME_NANOS,
                settings.maxFileSize() * TimeUnit.SECONDS.toNanos(1) / SHIPPER_BYTES_PER_SECOND);
        archiver.finish(leftovers);
        FileLogSink opened = null;
        SharedFileLock lock = null;
        long born;
        long now = clock.getAsLong();
        try {
            opened = new FileLogSink(file, status);
            lock = RollLock.open(file, status);
            this.size = opened.size();
            // an existing live file belongs to the period it was last written in
            born = size > 0 ? Math.min(now, Files.getLastModifiedTime(file).toMillis()) : now;
        } catch (IOException | RuntimeException e) {
            if (lock != null) {
                lock.close();
            }
            if (opened != null) {
                opened.close();
            }
            archiver.shutdown();
            throw e;
        }
        this.live = opened;
        this.rollLock = lock;
        this.liveSince = System.nanoTime();
        naming.startPeriod(Instant.ofEpochMilli(born));
        if (settings.cleanHistoryOnStart()) {
            archiver.cleanHistory(now);
        }
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
        int n = live.write(src);
        size += n;
        return n;
    }

    @Override
    public int landed(long from, long until, ByteBuffer expected) throws IOException {
        return live.landed(from, until, expected);
    }

    @Override
    public boolean follow() throws IOException {
        if (!live.follow()) {
            return false;
        }
        followed(clock.getAsLong());
        readClocks(); // another instance rolled: its new period counts from the next event on
        return true;
    }

    /**
     * After the live file was reopened because another instance rolled it: the new file is live
     * from now on, and if the period ended, the roll was for that (the other instance's clock is
     * the same), so a new period starts here as after a roll of this instance.
     */
    private void followed(long now) throws IOException {
        size = live.size();
        liveSince = System.nanoTime();
        if (now >= naming.nextPeriodMillis()) {
            naming.startPeriod(Instant.ofEpochMilli(now));
        }
    }

    @Override
    public boolean endsMidLine() throws IOException {
        return live.endsMidLine();
    }

    @Override
    public long size() throws IOException {
        size = live.size(); // an outside tool may have truncated the file
        return size;
    }

    /**
     * Rolls for the size before any event that would pass {@code maxFileSize}, and for the time
     * before the first event of a write ({@code pendingBytes == 0}) once the period is over: the
     * clocks are read there, once a write rather than twice an event (with rolling on, the CPU per
     * line of all but the callers fell by 35-55 ns in the cost mode here). So a period's file may end
     * up to one write (at most 1 MB) after the period's end, as it also ends only when the drainer
     * writes after it.
     */
    @Override
    public boolean shouldRoll(long pendingBytes, int nextBytes) {
        if (closed) {
            return false; // nothing is rolled once closed; the next write says so
        }
        if (pendingBytes == 0) {
            readClocks();
        }
        long written = size + pendingBytes;
        if (written == 0 || !rollAllowed) {
            return false;
        }
        return periodOver || (maxFileSize > 0 && written + nextBytes > maxFileSize);
    }

    /**
     * Rolls the live file. A roll that cannot complete (the archive folder is read-only or gone,
     * another process holds the roll lock too long) never stops the log: nothing was renamed, the
     * live file is written on, an ERROR status names the roll and its cause (at most every 10 s),
     * and the roll is tried again {@link RollRetry#RETRY_NANOS} later.
     */
    @Override
    public void roll() throws IOException {
        awaitMinimumLifetime();
        try {
            synchronized (rollOrClose) { // the drainer (a roll) and stop() only; never on an append
                if (closed) {
                    throw new LogClosedException(file.toString());
                }
                rollOnce();
            }
        } finally {
            readClocks(); // for the events after it in the same write: a new period, or a retry held back
        }
    }

    /**
     * What {@link #shouldRoll} decides by: whether a roll may be tried now, and whether the period is
     * over. A period that ended with the live file empty (nothing logged, or emptied by logrotate's
     * {@code copytruncate}) has nothing to archive: the new period starts in the same file, so the
     * next lines are named for their period. Its size is read only when a period is over.
     */
    private void readClocks() {
        rollAllowed = retry.allows(System.nanoTime());
        long now = clock.getAsLong();
        periodOver = now >= naming.nextPeriodMillis();
        if (periodOver && liveFileEmpty()) {
            naming.startPeriod(Instant.ofEpochMilli(now));
            periodOver = false;
        }
    }

    /** Whether the live file is empty now; when its size cannot be read, what this sink last knew. */
    private boolean liveFileEmpty() {
        try {
            size = live.size();
        } catch (IOException e) {
            // the next write finds out and reports it; meanwhile the size counted stands
        }
        return size == 0;
    }

    private void rollOnce() throws IOException {
        String target = null;
        try {
            SharedFileLock.Held rolling = rollLock.take();
            try {
                if (!live.isLive()) {
                    // Another instance rolled the file since this one last looked: the name stands for a
                    // newer file, which is not rolled again.
                    live.reopen();
                    followed(clock.getAsLong());
                    return;
                }
                target = naming.nextArchiveName(clock.getAsLong());
                rollLiveFile(Paths.get(target));
            } finally {
                rolling.close();
            }
        } catch (IOException | RuntimeException e) {
            if (!live.isLive()) {
                throw e; // the live file was moved, but no new one could be opened: a write failure, retried as such
            }
            retry.failed(file, target, e);
            return;
        }
        archiver.retryFailedCompressions();
    }

    /** Renames the live file, which is the one this instance writes, to {@code targetPath}, and opens a new one. */
    private void rollLiveFile(Path targetPath) throws IOException {
        long now = clock.getAsLong();
        Files.createDirectories(targetPath.toAbsolutePath().getParent());
        Path source = files.compressed() ? files.sourceFor(targetPath) : targetPath;
        FileMove.move(file, source);
        // the new live file has the mode an operator gave the old one from its first moment, and a file found at the
        // name (another instance's) is opened only when it is a regular file of this user or of the log's first owner
        FileLogSink next = new FileLogSink(file, status, SafeFiles.permissionsOf(source), live.ownerUid());
        // The drainer's descriptor of the rolled file is closed before the archiver locks that file:
        // closing any descriptor of a file releases this process's lock on it.
        live.close();
        live = next;
        liveSince = System.nanoTime();
        size = 0;
        if (files.compressed()) {
            archiver.compress(source, targetPath, System.nanoTime() + RolledFileCompressor.SETTLE_NANOS); // others may still append
        }
        naming.rolled(now);
        archiver.cleanHistory(now);
    }

    /** Waits until the live file has been live for {@link #minLifetimeNanos}. */
    private void awaitMinimumLifetime() {
        for (long age; (age = System.nanoTime() - liveSince) < minLifetimeNanos;) {
            LockSupport.parkNanos(this, minLifetimeNanos - age); // an unpark (a waiting caller) may end it early
        }
    }

    /** Closes the live file and lets pending compression and clean-up finish (bounded). */
    @Override
    public void close() throws IOException {
        close(TimeUnit.SECONDS.toNanos(30));
    }

    /**
     * Closes the live file and waits at most {@code timeoutNanos} (what is left of the appender's
     * {@code stopTimeout}) for compressions under way; an unfinished one is finished at the next start.
     * A roll under way is waited for first (it waits at most {@link RollLock#WAIT_NANOS} for another
     * process's roll); after it, nothing is written, renamed or compressed.
     */
    @Override
    public void close(long timeoutNanos) throws IOException {
        closed = true;
        try {
            synchronized (rollOrClose) { // the drainer (a roll) and stop() only; never on an append
                try {
                    live.close();
                } finally {
                    rollLock.close();
                }
            }
        } finally {
            archiver.close(timeoutNanos);
        }
    }
}
