package io.github.lockfreelog.logback;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.LoggerContext;
import io.github.lockfreelog.journal.LogSink;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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

    private final LoggerContext context = TestAppenders.newContext();

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
        assertThat(TestAppenders.lines(RollingTest.listArchives(dir).get(0))).containsExactly(
                "a before roll ..............................", "b before roll ..............................");
        assertThat(TestAppenders.lines(dir.resolve("app.log"))).containsExactly("a after roll", "b after roll");
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

    private static String line(int writer, int n) {
        return "W" + writer + " " + n + " check-" + (n * 13 + writer) + " ........................";
    }
}
