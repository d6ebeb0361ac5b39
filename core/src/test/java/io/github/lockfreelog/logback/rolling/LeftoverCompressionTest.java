package io.github.lockfreelog.logback.rolling;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.core.rolling.helper.CompressionMode;
import io.github.lockfreelog.logback.rolling.RolledFileCompressor.Leftover;
import io.github.lockfreelog.testing.TestStatus;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a start does with a rolled file whose archive already exists. */
class LeftoverCompressionTest {

    @TempDir
    Path dir;

    /** A crash between the archive's rename and the source's deletion: the archive holds the source, which goes. */
    @Test
    void aSourceWhoseCompleteArchiveHoldsItIsDeleted() throws IOException {
        Path source = Files.writeString(dir.resolve("app.2026-12-05.0.log.tmp"), "line 1\nline 2\n");
        Path archive = gzip(dir.resolve("app.2026-12-05.0.log.gz"), "line 1\nline 2\n");
        TestStatus.Recording status = TestStatus.recording();

        new RolledFileCompressor(CompressionMode.GZ, status).finish(new Leftover(source, archive, false));

        assertThat(source).doesNotExist();
        assertThat(gunzip(archive)).isEqualTo("line 1\nline 2\n");
        assertThat(status.said()).singleElement().asString().contains("was already complete");
    }

    /**
     * A complete archive of other bytes under the name (another file took it: a clash the rename reported) is not this
     * source's archive: the source is kept, with a WARN, never deleted for it. (Before: any archive that decompressed
     * counted as the source's, and its lines were gone.)
     */
    @Test
    void aSourceWhoseArchiveNameHoldsAnotherFileIsKept() throws IOException {
        Path source = Files.writeString(dir.resolve("app.2026-12-05.0.log.tmp"), "mine 1\nmine 2\nmine 3\n");
        Path archive = gzip(dir.resolve("app.2026-12-05.0.log.gz"), "other 1\n");
        TestStatus.Recording status = TestStatus.recording();

        new RolledFileCompressor(CompressionMode.GZ, status).finish(new Leftover(source, archive, false));

        assertThat(source).hasContent("mine 1\nmine 2\nmine 3");
        assertThat(gunzip(archive)).isEqualTo("other 1\n");
        assertThat(status.said()).singleElement().asString().contains(source.toString()).contains("is left as it is")
                .contains("holds 8 bytes, not its 21");
    }

    /** An archive a crash cut short is made again from its source, which is then deleted. */
    @Test
    void anArchiveCutShortIsMadeAgainFromItsSource() throws IOException {
        Path source = Files.writeString(dir.resolve("app.2026-12-05.0.log.tmp"), "line 1\nline 2\n");
        Path archive = dir.resolve("app.2026-12-05.0.log.gz");
        byte[] whole = Files.readAllBytes(gzip(archive, "line 1\nline 2\n"));
        Files.write(archive, java.util.Arrays.copyOf(whole, whole.length - 5));
        TestStatus.Recording status = TestStatus.recording();

        new RolledFileCompressor(CompressionMode.GZ, status).finish(new Leftover(source, archive, false));

        assertThat(source).doesNotExist();
        assertThat(gunzip(archive)).isEqualTo("line 1\nline 2\n");
        assertThat(status.said()).singleElement().asString().contains("which a crash had cut short");
    }

    private static Path gzip(Path archive, String content) throws IOException {
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(archive))) {
            out.write(content.getBytes(StandardCharsets.US_ASCII));
        }
        return archive;
    }

    private static String gunzip(Path archive) throws IOException {
        try (InputStream in = new GZIPInputStream(Files.newInputStream(archive))) {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            in.transferTo(bytes);
            return bytes.toString(StandardCharsets.US_ASCII);
        }
    }
}
