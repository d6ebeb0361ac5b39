package io.github.lockfreelog.logback;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.core.util.Duration;
import ch.qos.logback.core.util.FileSize;
import io.github.lockfreelog.logback.rolling.RolledFileCompressor;
import io.github.lockfreelog.testing.TestAppenders;
import io.github.lockfreelog.testsupport.TestLogback;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a crash during the compression of a rolled file leaves behind is finished at the next
 * start: every archive decompresses, no temporary file stays, and no line is lost or doubled.
 */
class InterruptedCompressionTest {

    @TempDir
    Path dir;

    final LoggerContext context = TestLogback.newContext();

    /**
     * The leftovers of Logback's own RollingFileAppender (an application that moves to this appender finds them),
     * which writes the archive under its final name: a truncated {@code .gz} beside its uncompressed source, and a
     * source whose compression never began.
     */
    @Test
    void leftoversOfCompressionsInterruptedByACrashAreFinishedAtStart() throws Exception {
        Path log = dir.resolve("app.log");
        byte[] first = lines(0, 100);
        byte[] second = lines(100, 200);
        byte[] third = lines(200, 300);
        Files.write(dir.resolve("app.2026-03-01.0.log.gz"), gzip(first));
        byte[] truncated = gzip(second);
        Files.write(dir.resolve("app.2026-03-01.1.log.gz"), Arrays.copyOf(truncated, truncated.length / 2));
        Files.write(dir.resolve("app.2026-03-01.1.log81234567.tmp"), second);
        Files.write(dir.resolve("app.2026-03-01.2.log98765432.tmp"), third);

        logLines(log, 300, 1000);

        assertThat(fileNames()).as(TestLogback.statuses(context))
                .allMatch(name -> name.equals("app.log") || name.endsWith(".log.gz"), "only the live file and archives");
        assertArchivesAndLogHoldEveryLineOnce(log, 1000);
    }

    /**
     * In a log folder that others can write to, a link planted at the name of a compression's
     * partial output must not make the appender write through it.
     */
    @Test
    void aLinkPlantedAtThePartialOutputsNameIsNeverWrittenThrough() throws Exception {
        Path log = dir.resolve("app.log");
        Path victim = Files.writeString(dir.resolve("victim.txt"), "not a log\n");
        Files.createSymbolicLink(dir.resolve("app.2026-03-01.0.log.gz" + RolledFileCompressor.PARTIAL_SUFFIX), victim);
        logLines(log, 0, 1000);

        assertThat(Files.readString(victim)).isEqualTo("not a log\n");
        assertThat(fileNames()).as(TestLogback.statuses(context)).contains("app.2026-03-01.0.log.gz")
                .allMatch(name -> name.equals("app.log") || name.equals("victim.txt") || name.endsWith(".log.gz"));
        assertArchivesAndLogHoldEveryLineOnce(log, 1000);
    }

    /** Logs lines {@code from..to-1} through an appender that rolls every 16 KB into gzip archives, at noon of one day. */
    private void logLines(Path log, int from, int to) {
        LockFreeFileAppender appender = TestAppenders.create(context, log, a -> {
            a.setFileNamePattern(dir.resolve("app.%d{yyyy-MM-dd}.%i.log.gz").toString());
            a.setMaxFileSize(FileSize.valueOf("16KB"));
            a.setFlushInterval(Duration.valueOf("10 milliseconds"));
        });
        appender.clock = () -> RollingTest.NOON;
        appender.start();
        assertThat(appender.isStarted()).as(TestLogback.statuses(context)).isTrue();
        for (int n = from; n < to; n++) {
            appender.doAppend(TestLogback.event(context, Level.INFO, line(n)));
        }
        appender.stop(); // waits for the archiver
    }

    private void assertArchivesAndLogHoldEveryLineOnce(Path log, int count) throws IOException {
        List<String> all = new ArrayList<>();
        for (Path archive : RollingTest.listArchives(dir)) {
            all.addAll(RollingTest.splitLines(RollingTest.gunzip(archive)));
        }
        all.addAll(TestLogback.lines(log));
        for (int n = 0; n < Math.min(all.size(), count); n++) {
            assertThat(all.get(n)).isEqualTo(line(n));
        }
        assertThat(all).hasSize(count);
    }

    static String line(int n) {
        return "line " + n + " check=" + (n * 13 + 7) + " .........................................";
    }

    static byte[] lines(int from, int to) {
        StringBuilder text = new StringBuilder();
        for (int n = from; n < to; n++) {
            text.append(line(n)).append('\n');
        }
        return text.toString().getBytes(StandardCharsets.US_ASCII);
    }

    static byte[] gzip(byte[] bytes) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(bytes);
        }
        return out.toByteArray();
    }

    private List<String> fileNames() throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(Files::isRegularFile).map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}
