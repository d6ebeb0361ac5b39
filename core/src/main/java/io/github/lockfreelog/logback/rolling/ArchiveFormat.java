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

    /**
     * How many bytes {@code archive} decompresses to, read to its end (for gzip, the CRC and length trailer too); -1
     * when it does not decompress without an error.
     */
    long uncompressedLength(Path archive) {
        try (InputStream file = Files.newInputStream(archive, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
            byte[] buffer = new byte[COPY_BUFFER];
            long length = 0;
            if (mode == CompressionMode.GZ) {
                try (InputStream in = new GZIPInputStream(file, COPY_BUFFER)) {
                    for (int n; (n = in.read(buffer)) >= 0;) {
                        length += n;
                    }
                }
                return length;
            }
            try (ZipInputStream in = new ZipInputStream(file)) {
                boolean any = false;
                while (in.getNextEntry() != null) {
                    any = true;
                    for (int n; (n = in.read(buffer)) >= 0;) {
                        length += n;
                    }
                }
                return any ? length : -1;
            }
        } catch (IOException | RuntimeException e) {
            return -1;
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
