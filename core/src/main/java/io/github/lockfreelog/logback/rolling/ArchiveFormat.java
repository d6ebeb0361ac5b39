package io.github.lockfreelog.logback.rolling;

import ch.qos.logback.core.rolling.helper.CompressionMode;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import java.util.zip.ZipOutputStream;

/** Writes and checks the bytes of an archive in its compression format: gzip, or zip with one entry. */
final class ArchiveFormat {

    /** Bytes read or written at a time. */
    static final int COPY_BUFFER = 64 * 1024;

    private final CompressionMode mode;

    /** For {@link CompressionMode#GZ} or {@link CompressionMode#ZIP}; any other mode is read as zip. */
    ArchiveFormat(CompressionMode mode) {
        this.mode = mode;
    }

    /**
     * A compressing stream over {@code out}, whose {@code close} finishes the archive but leaves
     * {@code out} open; a zip's one entry is named {@code entryName}.
     */
    OutputStream compressing(OutputStream out, String entryName) throws IOException {
        if (mode == CompressionMode.GZ) {
            return new GZIPOutputStream(new Unclosed(out), COPY_BUFFER);
        }
        ZipOutputStream zip = new ZipOutputStream(new Unclosed(out));
        zip.putNextEntry(new ZipEntry(entryName));
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

    /** Lets a compressing stream finish without closing the channel it writes to. */
    private static final class Unclosed extends FilterOutputStream {
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
