package io.github.lockfreelog.logback;

import ch.qos.logback.core.Context;
import ch.qos.logback.core.rolling.helper.CompressionMode;
import ch.qos.logback.core.rolling.helper.FileNamePattern;
import io.github.lockfreelog.journal.CrashPoint;
import io.github.lockfreelog.journal.SafeFiles;
import io.github.lockfreelog.journal.StatusReporter;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
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
 * At start {@link #findLeftovers} finds, for the file name pattern, every source and partial file a
 * crash left (and the {@code <name>.<digits>.tmp} / {@code <name><digits>.tmp} sources of earlier
 * versions and of Logback's {@code RollingFileAppender}, whose archive may be truncated), and
 * {@link #finish} completes each: a partial output is deleted; a source is compressed again unless
 * its archive exists and decompresses to the end, in which case only the source is deleted.
 */
final class RolledFileCompressor {

    static final String SOURCE_SUFFIX = ".tmp";
    static final String PARTIAL_SUFFIX = ".part";
    /** Sources: ours, those of earlier versions ({@code .<nanos>.tmp}) and Logback's ({@code <nanos>.tmp}). */
    private static final String SOURCE_SUFFIX_REGEX = "(\\.?\\d+)?\\.tmp";
    private static final int COPY_BUFFER = 64 * 1024;

    private final CompressionMode mode;
    private final StatusReporter status;

    RolledFileCompressor(CompressionMode mode, StatusReporter status) {
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
     * then deletes the source (without compression: renames the source to the target).
     */
    void compress(Path source, Path target) throws IOException {
        if (mode == CompressionMode.NONE) {
            move(source, target);
            return;
        }
        Path partial = partialFor(target);
        Files.deleteIfExists(partial); // a link planted there is removed, never followed
        try {
            compressThroughPartial(source, partial);
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(partial);
            throw e;
        }
        CrashPoint.reached(CrashPoint.AFTER_COMPRESSION);
        move(partial, target);
        CrashPoint.reached(CrashPoint.AFTER_COMPRESSION_RENAME);
        Files.delete(source);
    }

    private void compressThroughPartial(Path source, Path partial) throws IOException {
        long size = Files.size(source);
        try (InputStream in = Files.newInputStream(source, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
                FileChannel channel = SafeFiles.open(partial, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            try (OutputStream out = compressing(Channels.newOutputStream(channel), partial)) {
                byte[] buffer = new byte[COPY_BUFFER];
                long copied = 0;
                for (int n; (n = in.read(buffer)) > 0;) {
                    out.write(buffer, 0, n);
                    if (copied < size / 2 && (copied += n) >= size / 2) {
                        out.flush();
                        CrashPoint.reached(CrashPoint.MID_COMPRESSION);
                    }
                }
            } // finishes the compressed stream; the channel stays open, to be forced to disk
            channel.force(true);
        }
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
    record Leftover(Path file, Path target, boolean partial) {
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

    /** Completes one interrupted compression; reports, and keeps the source, when that fails. */
    void finish(Leftover leftover) {
        Path file = leftover.file();
        Path target = leftover.target();
        try {
            if (leftover.partial()) {
                if (Files.deleteIfExists(file)) {
                    status.info("deleted " + file + ", the partial output of a compression that a crash interrupted");
                }
            } else if (!Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
                compress(file, target);
                status.info("finished the compression of " + file + " to " + target + " that a crash interrupted");
            } else if (mode == CompressionMode.NONE) {
                status.warn(file + " is left as it is: " + target + ", the name it would take, exists", null);
            } else if (decompresses(target)) {
                Files.delete(file);
                status.info("deleted " + file + ": its archive " + target + " was already complete");
            } else {
                compress(file, target); // replaces the archive that a crash cut short
                status.info("compressed " + file + " again to " + target + ", which a crash had cut short");
            }
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
