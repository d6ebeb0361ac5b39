package io.github.lockfreelog.logback.rolling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.core.ContextBase;
import ch.qos.logback.core.rolling.helper.CompressionMode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The names a roll may take while other instances roll and compress the same log file. */
class ArchiveNamingTest {

    @TempDir
    Path dir;

    /**
     * Another instance rolled the live file to index 0 and compresses it while this instance, whose index is still 0,
     * looks for a free name: the compression may complete between any two of its looks (the archive appears, then the
     * source goes). Whenever it completes, index 0 is taken. (Looking at the archive before the source, a look could
     * see neither: two rolls then shared one name, and the later compression replaced the first archive.)
     */
    @Test
    void aNameStaysTakenWhenAnotherInstancesCompressionCompletesBetweenTwoLooks() throws IOException {
        Instant now = Instant.now();
        for (int completeAfterLook = 0; completeAfterLook <= 3; completeAfterLook++) {
            Path folder = Files.createDirectory(dir.resolve("case" + completeAfterLook));
            String pattern = folder.resolve("app.%d{yyyy-MM-dd}.%i.log.gz").toString();
            String day = LocalDate.ofInstant(now, ZoneId.systemDefault()).toString();
            Path archive = folder.resolve("app." + day + ".0.log.gz");
            Path source = folder.resolve("app." + day + ".0.log.tmp");
            List<Path> looks = new ArrayList<>();
            int after = completeAfterLook;
            ArchiveNaming naming = new ArchiveNaming(pattern, new ContextBase(), new ArchiveFiles(CompressionMode.GZ), path -> {
                boolean there = Files.exists(path, LinkOption.NOFOLLOW_LINKS);
                if (looks.size() == after && Files.exists(source)) {
                    completeCompression(source, archive);
                }
                looks.add(path);
                return there;
            });
            naming.startPeriod(now); // an empty folder: index 0
            Files.writeString(source, "line\n"); // the other instance's roll to index 0
            looks.clear();

            String name = naming.nextArchiveName(now.toEpochMilli());

            assertThat(Paths.get(name)).as("completed after look %d of %s", completeAfterLook, looks)
                    .isEqualTo(folder.resolve("app." + day + ".1.log.gz"));
            assertThat(archive).as("the other instance's archive").exists();
        }
    }

    /** A rename onto a name that is taken fails and leaves both files as they were: a clash is reported, never a loss. */
    @Test
    void aRenameNeverReplacesAFile() throws IOException {
        Path from = Files.writeString(dir.resolve("from"), "new\n");
        Path to = Files.writeString(dir.resolve("to"), "kept\n");

        assertThatThrownBy(() -> FileMove.move(from, to)).isInstanceOf(FileAlreadyExistsException.class);

        assertThat(to).hasContent("kept");
        assertThat(from).hasContent("new");
    }

    private static void completeCompression(Path source, Path archive) {
        try {
            Files.write(archive, "compressed".getBytes(StandardCharsets.US_ASCII));
            Files.delete(source);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
