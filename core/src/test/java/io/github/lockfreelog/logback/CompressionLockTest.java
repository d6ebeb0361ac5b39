package io.github.lockfreelog.logback;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.core.rolling.helper.CompressionMode;
import io.github.lockfreelog.logback.rolling.RolledFileCompressor;
import io.github.lockfreelog.logback.rolling.RollingLogSink;
import io.github.lockfreelog.testing.TestAppenders;
import io.github.lockfreelog.testsupport.ChildJvm;
import io.github.lockfreelog.testsupport.TestLogback;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Whoever compresses a rolled file holds a lock on it throughout, so that a starting instance
 * never finishes the same file at the same time. POSIX locks belong to the process and closing any
 * descriptor of the file releases them: a probe in another process checks that nothing in this JVM
 * closed one under the compressor.
 */
class CompressionLockTest {

    @TempDir
    Path dir;

    private final LoggerContext context = TestLogback.newContext();
    private Probe probe;

    @AfterEach
    void stopProbe() throws IOException {
        if (probe != null) {
            probe.close();
        }
    }

    /**
     * The drainer rolls the live file and hands it to the archiver, which locks it and waits for
     * late writers before compressing. The drainer's own descriptor of that file must be closed
     * before, not after, the hand-off. Before: closing it released the archiver's lock.
     */
    @Test
    void theRolledFileStaysLockedWhileItWaitsToBeCompressed() throws Exception {
        probe = Probe.start();
        Path log = dir.resolve("app.log");
        RollingLogSink.Settings settings = new RollingLogSink.Settings(dir + "/app.%d{yyyy-MM-dd}.%i.log.gz", 1024, 0, 0,
                false);
        RollingLogSink sink = new RollingLogSink(log, settings, context, System::currentTimeMillis,
                TestAppenders.status(context), "test");
        try {
            Path warmUp = Files.writeString(dir.resolve("warm-up"), "");
            for (int i = 0; i < 5; i++) { // the probe's first answers load classes: slower than the archiver's 100 ms
                assertThat(probe.tryLock(warmUp)).isEqualTo("LOCKED");
            }
            int checked = 0;
            for (int roll = 0; roll < 30; roll++) { // the archiver's lock and the drainer's close race: try often
                sink.write(ByteBuffer.wrap(("line " + roll + "\n").getBytes(StandardCharsets.US_ASCII)));
                long rolled = System.nanoTime();
                sink.roll();
                Path source;
                try (var files = Files.list(dir)) {
                    String suffix = "." + roll + ".log.tmp";
                    source = files.filter(f -> f.toString().endsWith(suffix)).findFirst().orElseThrow();
                }
                if (!awaitLockedHere(source)) {
                    continue; // compressed before it was seen locked: the archiver's thread came after the settle time
                }
                String answer = probe.tryLock(source);
                long answered = System.nanoTime() - rolled;
                if (answered < RolledFileCompressor.SETTLE_NANOS) {
                    // locked, and the archiver waits until the settle time has passed before it compresses and lets go
                    assertThat(answer).as("another process may not lock %s meanwhile (answered %d ms after the roll)",
                            source, TimeUnit.NANOSECONDS.toMillis(answered)).isEqualTo("REFUSED");
                    checked++;
                }
                TimeUnit.MILLISECONDS.sleep(100);
            }
            assertThat(checked).as("rolls whose lock the probe tried within the settle time").isPositive();
        } finally {
            sink.close();
        }
    }

    /**
     * Waits until this process holds a lock on {@code file}, as Linux lists it in {@code /proc/locks} (device and
     * inode, and the holder's pid), so that the probe asks while the archiver holds it however slowly its thread
     * was scheduled; {@code false} if the file was compressed (gone) first. Where there is no {@code /proc/locks},
     * 20 ms.
     */
    private static boolean awaitLockedHere(Path file) throws Exception {
        Path locks = Path.of("/proc/locks");
        if (!Files.isReadable(locks)) {
            TimeUnit.MILLISECONDS.sleep(20);
            return true;
        }
        String inode;
        try {
            inode = ":" + Files.getAttribute(file, "unix:ino") + " ";
        } catch (NoSuchFileException e) {
            return false;
        }
        String pid = " " + ProcessHandle.current().pid() + " ";
        return org.awaitility.Awaitility.await("the archiver's lock on " + file).atMost(java.time.Duration.ofSeconds(10))
                .pollInterval(java.time.Duration.ofMillis(1))
                .until(() -> !Files.exists(file) ? Boolean.FALSE
                        : Files.readAllLines(locks).stream().anyMatch(line -> line.contains(pid) && line.contains(inode))
                                ? Boolean.TRUE : null, java.util.Objects::nonNull);
    }

    /**
     * A second compressor of this JVM on a file the first one holds leaves it alone without
     * opening it, so the first keeps its lock. Before: it opened the file, met
     * {@code OverlappingFileLockException}, and its close released the first one's lock.
     */
    @Test
    void aSecondCompressorOfTheJvmLeavesTheFirstOnesLockInPlace() throws Exception {
        probe = Probe.start();
        Path source = Files.writeString(dir.resolve("app.2026-01-01.0.log.tmp"), "line\n");
        Path target = dir.resolve("app.2026-01-01.0.log.gz");
        RolledFileCompressor first = new RolledFileCompressor(CompressionMode.GZ, TestAppenders.status(context));
        RolledFileCompressor second = new RolledFileCompressor(CompressionMode.GZ, TestAppenders.status(context));
        long notBefore = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
        CompletableFuture<Boolean> holding = CompletableFuture.supplyAsync(() -> {
            try {
                return first.compress(source, target, notBefore);
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
        TimeUnit.MILLISECONDS.sleep(200);
        assertThat(second.compress(source, target, System.nanoTime())).as("left to the first").isFalse();
        assertThat(probe.tryLock(source)).as("the first still holds it").isEqualTo("REFUSED");
        assertThat(holding.get(10, TimeUnit.SECONDS)).isTrue();
        assertThat(RollingTest.gunzip(target)).isEqualTo("line\n".getBytes(StandardCharsets.US_ASCII));
        assertThat(source).doesNotExist();
    }

    /**
     * A JVM that, for each path it reads on standard input, tries to lock that file (never creating
     * it) and prints {@code LOCKED}, {@code REFUSED} or {@code MISSING}. Started once, before the
     * moment to probe, so that the probe is quick.
     */
    static final class Probe implements AutoCloseable {
        private final ChildJvm child;

        private Probe(ChildJvm child) {
            this.child = child;
        }

        static Probe start() throws Exception {
            Probe probe = new Probe(ChildJvm.start(Probe.class.getName(), List.of(), List.of()));
            probe.child.await("READY");
            return probe;
        }

        /** The probe's answer for {@code file}: its next line. */
        String tryLock(Path file) throws IOException, InterruptedException {
            child.send(file.toString());
            return child.await("");
        }

        @Override
        public void close() throws IOException {
            child.closeInput(); // it ends once its standard input does
            try {
                child.exit(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                child.close();
            }
        }

        public static void main(String[] args) throws IOException {
            BufferedReader paths = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            System.out.println("READY");
            for (String path; (path = paths.readLine()) != null;) {
                try (FileChannel channel = FileChannel.open(Path.of(path), StandardOpenOption.WRITE)) {
                    System.out.println(channel.tryLock() == null ? "REFUSED" : "LOCKED");
                } catch (NoSuchFileException e) {
                    System.out.println("MISSING");
                }
            }
        }
    }
}
