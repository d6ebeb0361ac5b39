package io.github.lockfreelog.logback.rolling;

import ch.qos.logback.core.Context;
import ch.qos.logback.core.rolling.helper.ArchiveRemover;
import ch.qos.logback.core.rolling.helper.CompressionMode;
import ch.qos.logback.core.rolling.helper.DateTokenConverter;
import ch.qos.logback.core.rolling.helper.FileNamePattern;
import ch.qos.logback.core.rolling.helper.RollingCalendar;
import ch.qos.logback.core.rolling.helper.SizeAndTimeBasedArchiveRemover;
import ch.qos.logback.core.rolling.helper.TimeBasedArchiveRemover;
import io.github.lockfreelog.diagnostics.StatusReporter;
import io.github.lockfreelog.files.SafeFiles;
import io.github.lockfreelog.files.SharedFileLock;
import io.github.lockfreelog.journal.JournalSlots;
import io.github.lockfreelog.sink.FileLogSink;
import io.github.lockfreelog.sink.LogSink;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Date;
import java.util.List;
import java.util.Locale;
import java.util.Queue;
import java.util.Set;
import java.util.TimeZone;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;
import java.util.stream.Collectors;

/**
 * The log file with size- and time-based rolling, driven by the drainer thread between whole
 * events. The live file keeps its name (log shippers follow it by name); a rolled file is renamed
 * after Logback's {@code fileNamePattern} ({@code %d{...}} for the period, {@code %i} for the
 * index within a period, {@code .gz} or {@code .zip} to compress). Compression and the deletion of
 * old archives ({@code maxHistory}, {@code totalSizeCap}) run on a separate archiver thread, so
 * draining never waits for them. Logback's own helpers do the naming, period arithmetic and
 * clean-up; {@link RolledFileCompressor} compresses, so that a crash never leaves a broken archive,
 * and finishes at start what a crash interrupted.
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
 * file the other one renamed. A roll takes the roll lock ({@link #lockFileOf}) of the log file and renames the
 * live file only if the name still stands for the file this instance writes; if another instance
 * rolled it first, this one opens the new file instead of rolling that too.
 *
 * <p>A roll that cannot complete (an archive folder that is read-only or gone) never stops the
 * live file: it is written on and the roll tried again later ({@link #roll}).
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
    /** How long a roll waits for another process's roll before it fails (and is tried again later). */
    static final long ROLL_LOCK_WAIT_NANOS = TimeUnit.SECONDS.toNanos(5);
    /** After a roll failed, how long the live file is written on before the roll is tried again. */
    static final long ROLL_RETRY_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final long ERROR_REPORT_NANOS = TimeUnit.SECONDS.toNanos(10);

    private final Path file;
    private final Settings settings;
    private final LongSupplier clock;
    private final StatusReporter status;
    private final FileNamePattern pattern;
    private final CompressionMode compression;
    private final RolledFileCompressor compressor;
    /** Archives that interrupted compressions found at start will complete: never rolled into. */
    private final Set<Path> reserved;
    private final RollingCalendar calendar;
    private final ArchiveRemover remover;
    private final boolean indexed;
    private final ExecutorService archiver;
    private final long minLifetimeNanos;

    private FileLogSink live;
    private final SharedFileLock rollLock;
    /** Before this ({@link System#nanoTime()}) no roll is tried: the last one failed. */
    private long nextRollAttempt;
    private long lastRollErrorReport;
    /** Rolled files whose compression failed (say, their folder was read-only): tried again after the next roll. */
    private final Queue<Path[]> uncompressed = new ConcurrentLinkedQueue<>();
    private long size;
    private Instant period;
    private long nextPeriodMillis;
    private int index;
    /** When the live file was opened ({@link System#nanoTime()}). */
    private long liveSince;

    public RollingLogSink(Path file, Settings settings, Context context, LongSupplier clock, StatusReporter status,
            String name) throws IOException {
        this.file = file;
        this.settings = settings;
        this.clock = clock;
        this.status = status;
        this.pattern = new FileNamePattern(settings.fileNamePattern(), context);
        this.compression = compressionOf(settings.fileNamePattern());
        this.indexed = pattern.hasIntegerTokenCOnverter();
        DateTokenConverter<Object> dates = pattern.getPrimaryDateTokenConverter();
        TimeZone zone = dates.getZoneId() == null ? TimeZone.getDefault() : TimeZone.getTimeZone(dates.getZoneId());
        this.calendar = new RollingCalendar(dates.getDatePattern(), zone, Locale.getDefault());
        this.compressor = new RolledFileCompressor(compression, status);
        List<RolledFileCompressor.Leftover> leftovers = findLeftovers(context);
        this.reserved = leftovers.stream().map(l -> l.target().toAbsolutePath().normalize())
                .collect(Collectors.toUnmodifiableSet());
        TimeBasedArchiveRemover remover = indexed ? new SizeAndTimeBasedArchiveRemover(pattern, calendar)
                : new TimeBasedArchiveRemover(pattern, calendar);
        remover.setContext(context);
        remover.setMaxHistory(settings.maxHistory());
        remover.setTotalSizeCap(settings.totalSizeCap());
        this.remover = settings.maxHistory() > 0 || settings.totalSizeCap() > 0 ? remover : null;
        this.archiver = Executors.newSingleThreadExecutor(r -> {
            Thread thread = new Thread(r, "lockfreelog-archiver-" + name);
            thread.setDaemon(true);
            return thread;
        });
        this.minLifetimeNanos = Math.min(MAX_MIN_LIFETIME_NANOS,
                settings.maxFileSize() * TimeUnit.SECONDS.toNanos(1) / SHIPPER_BYTES_PER_SECOND);
        for (RolledFileCompressor.Leftover leftover : leftovers) {
            archiver.execute(() -> compressor.finish(leftover));
        }
        FileLogSink opened = null;
        SharedFileLock lock = null;
        long born;
        long now = clock.getAsLong();
        try {
            opened = new FileLogSink(file, status);
            lock = SharedFileLock.open(lockFileOf(file), ROLL_LOCK_WAIT_NANOS);
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
        startPeriod(Instant.ofEpochMilli(born));
        if (settings.cleanHistoryOnStart() && remover != null) {
            archiver.execute(() -> cleanHistory(now));
        }
    }

    /** What crashes left of compressions, partial outputs first (a source's new compression replaces them anyway). */
    private List<RolledFileCompressor.Leftover> findLeftovers(Context context) {
        try {
            List<RolledFileCompressor.Leftover> found = new ArrayList<>(
                    compressor.findLeftovers(settings.fileNamePattern(), context));
            found.sort(Comparator.comparing(l -> !l.partial()));
            return found;
        } catch (IOException | RuntimeException e) {
            status.warn("looking for compressions that a crash interrupted failed", e);
            return List.of();
        }
    }

    static CompressionMode compressionOf(String fileNamePattern) {
        if (fileNamePattern.endsWith(".gz")) {
            return CompressionMode.GZ;
        }
        if (fileNamePattern.endsWith(".zip")) {
            return CompressionMode.ZIP;
        }
        return CompressionMode.NONE;
    }

    private void startPeriod(Instant at) {
        this.period = at;
        this.nextPeriodMillis = calendar.getNextTriggeringDate(at).toEpochMilli();
        this.index = indexed ? firstFreeIndex(at) : 0;
    }

    private int firstFreeIndex(Instant at) {
        int i = 0;
        while (archiveExists(pattern.convertMultipleArguments(Date.from(at), i))) {
            i++;
        }
        return i;
    }

    /** Whether the archive {@code name}, its uncompressed form or its source awaiting compression exists, or is reserved. */
    private boolean archiveExists(String name) {
        Path archive = Paths.get(name);
        return Files.exists(archive, LinkOption.NOFOLLOW_LINKS)
                || Files.exists(Paths.get(compressor.uncompressedName(name)), LinkOption.NOFOLLOW_LINKS)
                || Files.exists(compressor.sourceFor(archive), LinkOption.NOFOLLOW_LINKS)
                || reserved.contains(archive.toAbsolutePath().normalize());
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
        int n = live.write(src);
        size += n;
        return n;
    }

    @Override
    public int landed(long from, long until, byte[] expected) throws IOException {
        return live.landed(from, until, expected);
    }

    @Override
    public boolean follow() throws IOException {
        if (!live.follow()) {
            return false;
        }
        followed(clock.getAsLong());
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
        if (now >= nextPeriodMillis) {
            startPeriod(Instant.ofEpochMilli(now));
        }
    }

    @Override
    public long size() throws IOException {
        size = live.size(); // an outside tool may have truncated the file
        return size;
    }

    /**
     * The roll lock file of {@code logFile} (a real path): {@code <log folder>/.lockfreelog/<log file name>.roll.lock}.
     * Whoever rolls the file holds it while it checks that the live file is still the one it
     * writes, renames it and opens the next one, so two instances never both rename it.
     */
    static Path lockFileOf(Path logFile) {
        return logFile.resolveSibling(JournalSlots.JOURNAL_FOLDER).resolve(logFile.getFileName() + ".roll.lock");
    }

    @Override
    public boolean shouldRoll(long pendingBytes, int nextBytes) {
        long written = size + pendingBytes;
        if (written == 0 || System.nanoTime() - nextRollAttempt < 0) {
            return false;
        }
        if (clock.getAsLong() >= nextPeriodMillis) {
            return true;
        }
        return settings.maxFileSize() > 0 && written + nextBytes > settings.maxFileSize();
    }

    /**
     * Rolls the live file. A roll that cannot complete (the archive folder is read-only or gone,
     * another process holds the roll lock too long) never stops the log: nothing was renamed, the
     * live file is written on, an ERROR status names the roll and its cause (at most every 10 s),
     * and the roll is tried again {@link #ROLL_RETRY_NANOS} later.
     */
    @Override
    public void roll() throws IOException {
        awaitMinimumLifetime();
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
                target = nextArchiveName();
                rollLiveFile(Paths.get(target));
            } finally {
                rolling.close();
            }
        } catch (IOException | RuntimeException e) {
            if (!live.isLive()) {
                throw e; // the live file was moved, but no new one could be opened: a write failure, retried as such
            }
            rollFailed(target, e);
            return;
        }
        retryCompressions();
    }

    private void rollFailed(String target, Exception cause) {
        long now = System.nanoTime();
        nextRollAttempt = now + ROLL_RETRY_NANOS;
        if (lastRollErrorReport == 0 || now - lastRollErrorReport > ERROR_REPORT_NANOS) {
            lastRollErrorReport = now;
            status.error("rolling the log file " + file + (target == null ? "" : " to " + target) + " failed ("
                    + cause + "); the live file is written on, past its size or period, and the roll is tried again"
                    + " every " + TimeUnit.NANOSECONDS.toMillis(ROLL_RETRY_NANOS) + " ms", cause);
        }
    }

    /** The name the live file is rolled to: the period's next free index (never an existing archive). */
    private String nextArchiveName() {
        long now = clock.getAsLong();
        String target = pattern.convertMultipleArguments(Date.from(period), index);
        while (archiveExists(target)) { // never overwrite an archive
            if (!indexed) {
                return target + "." + now;
            }
            target = pattern.convertMultipleArguments(Date.from(period), ++index);
        }
        return target;
    }

    /** Renames the live file, which is the one this instance writes, to {@code targetPath}, and opens a new one. */
    private void rollLiveFile(Path targetPath) throws IOException {
        long now = clock.getAsLong();
        Files.createDirectories(targetPath.toAbsolutePath().getParent());
        Path source = compression == CompressionMode.NONE ? targetPath : compressor.sourceFor(targetPath);
        RolledFileCompressor.move(file, source);
        FileLogSink next = new FileLogSink(file, status);
        try {
            SafeFiles.copyPermissions(source, file); // the new live file keeps the mode an operator gave the old one
        } catch (IOException e) {
            status.warn("could not give the new log file " + file + " the permissions of the one rolled to " + source, e);
        }
        // The drainer's descriptor of the rolled file is closed before the archiver locks that file:
        // closing any descriptor of a file releases this process's lock on it.
        live.close();
        live = next;
        liveSince = System.nanoTime();
        size = 0;
        if (compression != CompressionMode.NONE) {
            long notBefore = System.nanoTime() + RolledFileCompressor.SETTLE_NANOS; // others may still append
            archiver.execute(() -> compress(source, targetPath, notBefore));
        }
        if (now >= nextPeriodMillis) {
            startPeriod(Instant.ofEpochMilli(now));
        } else {
            index++;
        }
        if (remover != null) {
            archiver.execute(() -> cleanHistory(now));
        }
    }

    /** After a roll: compresses again the rolled files whose compression failed before. */
    private void retryCompressions() {
        for (Path[] pending; (pending = uncompressed.poll()) != null;) {
            Path source = pending[0];
            Path target = pending[1];
            archiver.execute(() -> compress(source, target, System.nanoTime()));
        }
    }

    /** Waits until the live file has been live for {@link #minLifetimeNanos}. */
    private void awaitMinimumLifetime() {
        for (long age; (age = System.nanoTime() - liveSince) < minLifetimeNanos;) {
            LockSupport.parkNanos(this, minLifetimeNanos - age); // an unpark (a waiting caller) may end it early
        }
    }

    /**
     * Applies maxHistory and totalSizeCap. Logback applies the size cap only in its asynchronous
     * clean-up, so that is what runs here; waiting for it on the archiver thread keeps clean-up
     * and compression from overlapping.
     */
    private void cleanHistory(long now) {
        try {
            remover.cleanAsynchronously(Instant.ofEpochMilli(now)).get(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            status.warn("cleaning old rolled files failed", e);
        }
    }

    private void compress(Path source, Path target, long notBefore) {
        try {
            compressor.compress(source, target, notBefore);
        } catch (IOException | RuntimeException e) {
            uncompressed.add(new Path[] {source, target});
            status.error("compressing " + source + " to " + target + " failed; the uncompressed file is kept and"
                    + " compressed again after the next roll, or at the next start", e);
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
     */
    @Override
    public void close(long timeoutNanos) throws IOException {
        try {
            live.close();
        } finally {
            rollLock.close();
            archiver.shutdown();
            try {
                if (!archiver.awaitTermination(Math.max(0, timeoutNanos), TimeUnit.NANOSECONDS)) {
                    status.warn("compression of rolled files did not finish within the stop timeout;"
                            + " the next start finishes it", null);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
