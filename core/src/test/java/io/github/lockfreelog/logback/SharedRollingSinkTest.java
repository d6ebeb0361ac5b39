package io.github.lockfreelog.logback;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.core.rolling.helper.CompressionMode;
import io.github.lockfreelog.logback.rolling.RolledFileCompressor;
import io.github.lockfreelog.logback.rolling.RollingLogSink;
import io.github.lockfreelog.sink.FileLogSink;
import io.github.lockfreelog.sink.LogSink;
import io.github.lockfreelog.testing.TestAppenders;
import io.github.lockfreelog.testsupport.TestLogback;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two rolling sinks of one log file, as two instances' drainers would use them (the roll lock
 * serialises sinks of one JVM as it does processes): a file that one rolled is never rolled
 * again by the other, no archive is overwritten, and every line lands once, whole.
 */
class SharedRollingSinkTest {

    @TempDir
    Path dir;

    private final LoggerContext context = TestLogback.newContext();

    private RollingLogSink sink(String name, long maxFileSize) throws IOException {
        return new RollingLogSink(dir.resolve("app.log"), new RollingLogSink.Settings(
                dir.resolve("app.%d{yyyy-MM-dd}.%i.log").toString(), maxFileSize, 0, 0, false), context,
                () -> RollingTest.NOON, TestAppenders.status(context), name);
    }

    /** Writes one line the way the drainer does: it first follows the name, then writes. */
    private static void write(LogSink sink, String line) throws IOException {
        sink.follow();
        ByteBuffer bytes = ByteBuffer.wrap((line + "\n").getBytes(StandardCharsets.US_ASCII));
        while (bytes.hasRemaining()) {
            sink.write(bytes);
        }
    }

    @Test
    void aSinkWhoseFileTheOtherRolledOpensTheNewFileInsteadOfRollingItAgain() throws Exception {
        RollingLogSink a = sink("a", 64);
        RollingLogSink b = sink("b", 64);
        write(a, "a before roll ..............................");
        write(b, "b before roll ..............................");
        a.size();
        b.size();
        assertThat(a.shouldRoll(0, 10)).isTrue();
        assertThat(b.shouldRoll(0, 10)).isTrue();
        a.roll();
        b.roll(); // its file is no longer live: it opens the new one, and renames nothing
        write(a, "a after roll");
        write(b, "b after roll");
        a.close();
        b.close();
        assertThat(RollingTest.listArchives(dir)).hasSize(1);
        assertThat(TestLogback.lines(RollingTest.listArchives(dir).get(0))).containsExactly(
                "a before roll ..............................", "b before roll ..............................");
        assertThat(TestLogback.lines(dir.resolve("app.log"))).containsExactly("a after roll", "b after roll");
        assertThat(dir.resolve(".lockfreelog/app.log.roll.lock")).exists();
    }

    /**
     * Two threads, each with its own sink, write numbered lines and roll by size as fast as they
     * can: every line is in exactly one file, whole, and each writer's lines are in order when
     * the archives are read by index and the live file last.
     */
    @Test
    void twoSinksRollingOneFileAtOnceKeepEveryLineOnceAndInOrder() throws Exception {
        int perWriter = 20_000;
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        List<Throwable> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
        for (int w = 0; w < 2; w++) {
            int id = w;
            RollingLogSink sink = sink("w" + w, 16 * 1024);
            Thread thread = new Thread(() -> {
                try {
                    go.await();
                    for (int n = 0; n < perWriter; n++) {
                        String line = line(id, n);
                        if (sink.shouldRoll(0, line.length() + 1)) {
                            sink.roll();
                        }
                        write(sink, line);
                        if (n % 64 == 0) {
                            sink.size(); // the drainer reads the size before each write
                        }
                    }
                    sink.close();
                } catch (Throwable e) {
                    failures.add(e);
                }
            });
            threads.add(thread);
            thread.start();
        }
        go.countDown();
        for (Thread thread : threads) {
            thread.join(TimeUnit.SECONDS.toMillis(60));
        }
        assertThat(failures).isEmpty();
        List<Path> archives = RollingTest.listArchives(dir);
        assertThat(archives).as("rolled many times").hasSizeGreaterThan(20);
        List<String> lines = new ArrayList<>();
        for (Path archive : archives) {
            lines.addAll(RollingTest.splitLines(Files.readAllBytes(archive)));
        }
        lines.addAll(RollingTest.splitLines(Files.readAllBytes(dir.resolve("app.log"))));
        int[] next = new int[2];
        for (String line : lines) {
            int id = line.charAt(1) - '0';
            int n = Integer.parseInt(line.split(" ")[1]);
            assertThat(line).isEqualTo(line(id, n));
            assertThat(n).as("writer %d", id).isEqualTo(next[id]++);
        }
        assertThat(next).containsExactly(perWriter, perWriter);
    }

    /**
     * An instance that has not noticed the roll yet appends to the rolled file for a few more
     * milliseconds: the compression waits for that (compressing at once loses most of these lines),
     * so they reach the archive.
     */
    @Test
    void linesAppendedToARolledFileAfterItsRollReachTheArchive() throws Exception {
        RolledFileCompressor compressor = new RolledFileCompressor(CompressionMode.GZ, TestAppenders.status(context));
        Path source = dir.resolve("app.2026-03-01.0.log.tmp");
        Path target = dir.resolve("app.2026-03-01.0.log.gz");
        StringBuilder expected = new StringBuilder();
        for (int n = 0; n < 2_000; n++) {
            expected.append(line(0, n)).append('\n');
        }
        Files.writeString(source, expected);
        long rolled = System.nanoTime();
        Thread compressing = new Thread(() -> {
            try {
                compressor.compress(source, target, rolled + RolledFileCompressor.SETTLE_NANOS);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        compressing.start();
        // late writes of another instance, over 60 ms
        try (FileLogSink late = new FileLogSink(source, TestAppenders.status(context))) {
            for (int n = 0; n < 30; n++) {
                String line = line(1, n) + "\n";
                expected.append(line);
                late.write(ByteBuffer.wrap(line.getBytes(StandardCharsets.US_ASCII)));
                TimeUnit.MILLISECONDS.sleep(2);
            }
        }
        compressing.join(TimeUnit.SECONDS.toMillis(30));
        assertThat(source).doesNotExist();
        assertThat(new String(RollingTest.gunzip(target), StandardCharsets.US_ASCII)).isEqualTo(expected.toString());
    }

    /** A rolled file that another compressor holds (here: another sink of this JVM) is left to it. */
    @Test
    void aRolledFileLockedByAnotherCompressorIsLeftToIt() throws Exception {
        RolledFileCompressor compressor = new RolledFileCompressor(CompressionMode.GZ, TestAppenders.status(context));
        Path source = Files.writeString(dir.resolve("app.2026-03-01.0.log.tmp"), line(0, 0) + "\n");
        Path target = dir.resolve("app.2026-03-01.0.log.gz");
        RolledFileCompressor.Leftover leftover = new RolledFileCompressor.Leftover(source, target, false);
        try (FileChannel other = FileChannel.open(source, StandardOpenOption.WRITE)) {
            FileLock held = other.lock();
            compressor.finish(leftover);
            assertThat(compressor.compress(source, target, 0)).isFalse();
            assertThat(source).exists();
            assertThat(target).doesNotExist();
            held.release();
        }
        compressor.finish(leftover);
        assertThat(source).doesNotExist();
        assertThat(new String(RollingTest.gunzip(target), StandardCharsets.US_ASCII)).isEqualTo(line(0, 0) + "\n");
    }

    private static String line(int writer, int n) {
        return "W" + writer + " " + n + " check-" + (n * 13 + writer) + " ........................";
    }
}
