package io.github.lockfreelog.logback.rolling;

import ch.qos.logback.core.Context;
import ch.qos.logback.core.rolling.helper.CompressionMode;
import ch.qos.logback.core.rolling.helper.FileNamePattern;
import io.github.lockfreelog.diagnostics.CrashPoint;
import io.github.lockfreelog.diagnostics.StatusReporter;
import io.github.lockfreelog.files.LockedFile;
import io.github.lockfreelog.files.SafeFiles;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import java.util.zip.ZipOutputStream;

/**
 * Compresses rolled files so that a crash at any moment leaves nothing broken, and finishes at
 * start what a crash interrupted. For an archive {@code T} (say {@code app.2026-03-01.0.log.gz}):
 *
 * <pre>
 *   live file --rename--&gt; source   app.2026-03-01.0.log.tmp      (the drainer, at the roll)
 *   source  --compress--&gt; partial  app.2026-03-01.0.log.gz.part  (opened new, never through a link, forced to disk)
 *   partial --rename---&gt; T        app.2026-03-01.0.log.gz       (atomic: T is complete or absent)
 *   delete source
 * </pre>
 *
 * So an archive under its final name always decompresses, and until it exists its source does.
 *
 * <p>Other instances may write the same log file, and one that has not noticed the roll yet
 * may append one more batch to the source: it looks at the name before each write
 * ({@link io.github.lockfreelog.sink.FileLogSink#follow}), and an instance of an earlier version looked every few
 * milliseconds.
 * So a source is compressed no sooner than {@link #SETTLE_NANOS} after its roll, and compressed
 * again if it grew while it was compressed; its lines all reach the archive. Whoever compresses a
 * source (the instance that rolled it, or one that found it at start) holds a lock on it
 * throughout, so that two never compress, or delete, the same source at once; a source locked by
 * another is left to that one.
 *
 * <p>At start {@link #findLeftovers} finds, for the file name pattern, every source and partial file a
 * crash left (and the {@code <name>.<digits>.tmp} / {@code <name><digits>.tmp} sources of earlier
 * versions and of Logback's {@code RollingFileAppender}, whose archive may be truncated), and
 * {@link #finish} completes each: a partial output is deleted; a source is compressed again unless
 * its archive exists and decompresses to the end, in which case only the source is deleted.
 * (A partial output whose source is there is left to the source's compression: it may belong to
 * another instance's compression in progress.)
 */
public final class RolledFileCompressor {

    static final String SOURCE_SUFFIX = ".tmp";
    public static final String PARTIAL_SUFFIX = ".part";
    /** Sources: ours, those of earlier versions ({@code .<nanos>.tmp}) and Logback's ({@code <nanos>.tmp}). */
    private static final String SOURCE_SUFFIX_REGEX = "(\\.?\\d+)?\\.tmp";
    private static final int COPY_BUFFER = 64 * 1024;
    /**
     * How long a rolled file is left alone before it is compressed: other instances writing the same
     * log file look before each write whether it was rolled (earlier versions every few milliseconds), and
     * one that was just writing appends its batch to it.
     */
    public static final long SETTLE_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    /** Compressions of one source that a late write may cause before the archive is kept as it is. */
    private static final int MAX_ATTEMPTS = 5;

    private final CompressionMode mode;
    private final StatusReporter status;

    public RolledFileCompressor(CompressionMode mode, StatusReporter status) {
        this.mode = mode;
        this.status = status;
    }

    /** The name the live file is renamed to at a roll, until its archive {@code target} is complete. */
    Path sourceFor(Path target) {
        return Paths.get(uncompressedName(target.toString()) + SOURCE_SUFFIX);
    }

    static Path partialFor(Path target) {
        return Paths.get(target + PARTIAL_SUFFIX);
    }

    /** {@code target} without the compression suffix. */
    String uncompressedName(String target) {
        String suffix = suffix();
        return target.endsWith(suffix) ? target.substring(0, target.length() - suffix.length()) : target;
    }

    private String suffix() {
        return switch (mode) {
            case GZ -> ".gz";
            case ZIP -> ".zip";
            default -> "";
        };
    }

    /**
     * Compresses {@code source} into {@code target} through a partial file renamed when complete,
     * then deletes the source (without compression: renames the source to the target). Waits
     * until {@code notBefore} ({@link System#nanoTime()}) first. Does nothing, and returns
     * {@code false}, when another process compresses the source (or has done so).
     */
    public boolean compress(Path source, Path target, long notBefore) throws IOException {
        return whileLocked(source, in -> {
            if (mode == CompressionMode.NONE) {
                move(source, target);
                return;
            }
            compressLocked(in, source, target, notBefore);
        });
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
                compressed = compressThroughPartial(in, source, partial);
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
        move(partial, target);
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
     * Compresses all of {@code source} into a new {@code partial}, which gets the source's
     * permissions (those of the live file it was rolled from, whatever the umask); returns how many
     * bytes of the source it read.
     */
    private long compressThroughPartial(FileChannel source, Path sourcePath, Path partial) throws IOException {
        long size = source.size();
        long copied = 0;
        try (FileChannel channel = SafeFiles.openOwnerOnly(partial, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            SafeFiles.copyPermissions(sourcePath, partial);
            try (OutputStream out = compressing(Channels.newOutputStream(channel), partial)) {
                ByteBuffer buffer = ByteBuffer.allocate(COPY_BUFFER);
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

    /** A compressing stream over {@code out}; a zip's one entry is named after the archive, less its suffixes. */
    private OutputStream compressing(OutputStream out, Path partial) throws IOException {
        if (mode == CompressionMode.GZ) {
            return new GZIPOutputStream(new Unclosed(out), COPY_BUFFER);
        }
        String archive = partial.getFileName().toString();
        ZipOutputStream zip = new ZipOutputStream(new Unclosed(out));
        zip.putNextEntry(new ZipEntry(uncompressedName(archive.substring(0, archive.length() - PARTIAL_SUFFIX.length()))));
        return zip;
    }

    /** Whether {@code archive} reads to its end without an error (for gzip, the CRC and length trailer too). */
    boolean decompresses(Path archive) {
        try (InputStream file = Files.newInputStream(archive, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
            byte[] buffer = new byte[COPY_BUFFER];
            if (mode == CompressionMode.GZ) {
                try (InputStream in = new GZIPInputStream(file, COPY_BUFFER)) {
                    while (in.read(buffer) >= 0) {
                        // read to the end
                    }
                }
                return true;
            }
            try (ZipInputStream in = new ZipInputStream(file)) {
                boolean any = false;
                while (in.getNextEntry() != null) {
                    any = true;
                    while (in.read(buffer) >= 0) {
                        // read to the end
                    }
                }
                return any;
            }
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /** What a crash left for {@code pattern}: the source or partial file and the archive it belongs to. */
    public record Leftover(Path file, Path target, boolean partial) {
    }

    /**
     * Finds the sources and partial files of interrupted compressions of archives named after
     * {@code fileNamePattern}: in the pattern's fixed folder and the folders its date may name.
     * (Logback's own regular expression of a pattern, as its history clean-up uses, is matched
     * against the part of each path below the fixed folder.)
     */
    List<Leftover> findLeftovers(String fileNamePattern, Context context) throws IOException {
        String slashed = fileNamePattern.replace('\\', '/');
        int slash = slashed.lastIndexOf('/', Math.max(0, slashed.indexOf('%')));
        String below = slashed.substring(slash + 1);
        Path folder = Paths.get(slash < 0 ? "." : slashed.substring(0, slash + 1));
        List<Leftover> found = new ArrayList<>();
        if (!Files.isDirectory(folder)) {
            return found;
        }
        Pattern source;
        Pattern partial;
        try {
            source = Pattern.compile("(?<stem>" + new FileNamePattern(uncompressedName(below), context).toRegex() + ")"
                    + SOURCE_SUFFIX_REGEX);
            partial = Pattern.compile(new FileNamePattern(below, context).toRegex() + Pattern.quote(PARTIAL_SUFFIX));
        } catch (PatternSyntaxException e) {
            status.warn("cannot look for interrupted compressions of " + fileNamePattern + ": " + e.getMessage(), null);
            return found;
        }
        int depth = (int) below.chars().filter(c -> c == '/').count() + 1;
        try (Stream<Path> files = Files.find(folder, depth, (p, attributes) -> attributes.isRegularFile())) {
            for (Path file : (Iterable<Path>) files::iterator) {
                String name = folder.relativize(file).toString().replace(file.getFileSystem().getSeparator(), "/");
                Matcher m = source.matcher(name);
                if (m.matches()) {
                    found.add(new Leftover(file, folder.resolve(m.group("stem") + suffix()), false));
                } else if (mode != CompressionMode.NONE && partial.matcher(name).matches()) {
                    found.add(new Leftover(file, folder.resolve(name.substring(0, name.length() - PARTIAL_SUFFIX.length())),
                            true));
                }
            }
        }
        return found;
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
                if (Files.exists(sourceFor(target), LinkOption.NOFOLLOW_LINKS)) {
                    return; // the source's compression, here or in another instance, replaces it
                }
                if (Files.deleteIfExists(file)) {
                    status.info("deleted " + file + ", the partial output of a compression that a crash interrupted");
                }
                return;
            }
            long notBefore = System.nanoTime() + SETTLE_NANOS; // it may be another instance's, just rolled
            whileLocked(file, in -> {
                if (!Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
                    if (mode == CompressionMode.NONE) {
                        move(file, target);
                    } else {
                        compressLocked(in, file, target, notBefore);
                    }
                    status.info("finished the compression of " + file + " to " + target + " that a crash interrupted");
                } else if (mode == CompressionMode.NONE) {
                    status.warn(file + " is left as it is: " + target + ", the name it would take, exists", null);
                } else if (decompresses(target)) {
                    Files.delete(file);
                    status.info("deleted " + file + ": its archive " + target + " was already complete");
                } else {
                    compressLocked(in, file, target, notBefore); // replaces the archive that a crash cut short
                    status.info("compressed " + file + " again to " + target + ", which a crash had cut short");
                }
            });
        } catch (IOException | RuntimeException e) {
            status.error("finishing the interrupted compression of " + file + " to " + target
                    + " failed; the file is kept", e);
        }
    }

    /** Renames; across file systems (an archive folder on another mount) copies and deletes. */
    static void move(Path from, Path to) throws IOException {
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /** Lets a compressing stream finish without closing the channel it writes to. */
    private static final class Unclosed extends java.io.FilterOutputStream {
        Unclosed(OutputStream out) {
            super(out);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
        }

        @Override
        public void close() throws IOException {
            flush();
        }
    }
}
