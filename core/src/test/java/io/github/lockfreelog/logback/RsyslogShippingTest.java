package io.github.lockfreelog.logback;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.core.util.Duration;
import ch.qos.logback.core.util.FileSize;
import io.github.lockfreelog.testing.TestAppenders;
import io.github.lockfreelog.testsupport.TestLogback;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real log shipper following the live file by name: rsyslog's {@code imfile} in inotify mode,
 * run as a child process with its own configuration, work folder and pid file. One thread logs
 * numbered lines at a steady 40 k lines/s (about 6 MB/s) while the file rolls every 1 MB, a roll
 * about every 170 ms; every line must be shipped exactly once, intact. Skipped where
 * {@code rsyslogd} is not installed ({@code .ci/run} installs it).
 *
 * <p>The rate leaves rsyslog room on a busy 2-core machine: a shipper that follows by name and
 * falls a whole file behind misses that file, whatever wrote it (at 100 k lines/s with four CPU
 * burners beside it, rsyslog fell 11 MB behind and missed four 2 MB files). The failure message
 * says how far behind rsyslog fell, so that a shipper's lag is told apart from a drainer's burst.
 */
class RsyslogShippingTest {

    static final int LINES = 300_000;
    static final int LINES_PER_MILLISECOND = 40; // 40 k lines/s
    static final String WARM_UP = "warm-up: rsyslog follows the live file";

    @TempDir
    Path dir;

    @Test
    void rsyslogImfileShipsEveryLineOnceAcrossFastRolls() throws Exception {
        long shipperLag;
        Path rsyslogd = findRsyslogd();
        assumeTrue(rsyslogd != null, "rsyslogd is not installed (Debian package rsyslog): rsyslog shipping not tested");
        Path log = dir.resolve("app.log");
        Path shipped = dir.resolve("shipped.txt");
        warmUp(Files.createDirectories(dir.resolve("warm-up")));
        try (Rsyslog rsyslog = Rsyslog.start(rsyslogd, dir, log, shipped)) {
            LoggerContext context = TestLogback.newContext();
            LockFreeFileAppender appender = TestAppenders.start(context, log, a -> settings(a, dir));
            appender.doAppend(TestLogback.event(context, Level.INFO, WARM_UP));
            assertThat(rsyslog.awaitLines(1, 20)).as("rsyslog follows the live file").isEqualTo(1);
            ShipperLag lag = ShipperLag.follow(appender, shipped);
            long start = System.nanoTime();
            for (int n = 0; n < LINES; n++) {
                appender.doAppend(TestLogback.event(context, Level.INFO, line(n)));
                if (n % LINES_PER_MILLISECOND == LINES_PER_MILLISECOND - 1) {
                    long due = start + TimeUnit.MILLISECONDS.toNanos((n + 1) / LINES_PER_MILLISECOND);
                    for (long wait; (wait = due - System.nanoTime()) > 0;) {
                        LockSupport.parkNanos(wait);
                    }
                }
            }
            appender.stop();
            lag.close();
            assertThat(appender.getStatistics().eventsWritten()).isEqualTo(LINES + 1);
            assertThat(RollingTest.listArchives(dir)).as("the log rolled").hasSizeGreaterThan(30);
            rsyslog.awaitLines(LINES + 1, 10);
            shipperLag = lag.most();
        }
        List<String> lines = RollingTest.splitLines(Files.readAllBytes(shipped));
        System.out.printf("rsyslog imfile shipped %d of %d lines, its output at most %d bytes behind%n",
                lines.size() - 1, LINES, shipperLag);
        assertThat(lines.get(0)).isEqualTo(WARM_UP);
        boolean[] seen = new boolean[LINES];
        int previous = -1;
        int outOfOrder = 0;
        for (String l : lines.subList(1, lines.size())) {
            int n = Integer.parseInt(l.substring(5, l.indexOf(' ', 5)));
            assertThat(l).isEqualTo(line(n));
            assertThat(seen[n]).as("line %d shipped twice", n).isFalse();
            seen[n] = true;
            outOfOrder += n < previous ? 1 : 0;
            previous = n;
        }
        assertThat(missing(seen)).as("lines never shipped (%d were; rsyslog's output fell at most %d bytes behind"
                + " the log, the files roll at %d bytes)", lines.size() - 1, shipperLag, ROLL_BYTES).isEmpty();
        assertThat(outOfOrder).as("lines shipped before an earlier one").isZero();
    }

    /** The ranges of lines not seen, as "first..last (count)". */
    static List<String> missing(boolean[] seen) {
        List<String> ranges = new ArrayList<>();
        for (int n = 0; n < seen.length; n++) {
            if (!seen[n]) {
                int first = n;
                while (n + 1 < seen.length && !seen[n + 1]) {
                    n++;
                }
                ranges.add(first + ".." + n + " (" + (n - first + 1) + ")");
            }
        }
        return ranges;
    }

    static final long ROLL_BYTES = 1 << 20;

    /**
     * Samples, every 2 ms, how far the shipper's output is behind the bytes the appender wrote (an
     * upper bound of imfile's own lag: omfile buffers what it writes).
     */
    static final class ShipperLag implements AutoCloseable {
        private final Thread sampler;
        private volatile boolean stop;
        private volatile long most;

        private ShipperLag(LockFreeFileAppender appender, Path shipped) {
            sampler = new Thread(() -> {
                while (!stop) {
                    try {
                        long shippedBytes = Files.exists(shipped) ? Files.size(shipped) : 0;
                        most = Math.max(most, appender.getStatistics().bytesWritten() - shippedBytes);
                        Thread.sleep(2);
                    } catch (IOException e) {
                        // the output is being written: sample again
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }, "shipper-lag");
            sampler.setDaemon(true);
        }

        static ShipperLag follow(LockFreeFileAppender appender, Path shipped) {
            ShipperLag lag = new ShipperLag(appender, shipped);
            lag.sampler.start();
            return lag;
        }

        long most() {
            return most;
        }

        @Override
        public void close() {
            stop = true;
            try {
                sampler.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Defaults, but for a 1 MB roll. */
    static void settings(LockFreeFileAppender appender, Path dir) {
        appender.setBufferSize(FileSize.valueOf("8MB"));
        appender.setFlushInterval(Duration.valueOf("200 milliseconds"));
        appender.setMaxBlockTime(Duration.valueOf("60 seconds")); // nothing may be dropped here
        appender.setFileNamePattern(dir.resolve("app.%d{yyyy-MM-dd}.%i.log").toString());
        appender.setMaxFileSize(new FileSize(ROLL_BYTES));
    }

    /**
     * Runs the same code on a log that no shipper follows, so that the measured run finds a
     * compiled JVM, as an application that has been running for a while does (at start the JIT
     * compiler competes for the two cores of CI's machine with the logging thread, the drainer and
     * rsyslog).
     */
    static void warmUp(Path dir) throws IOException {
        LoggerContext context = TestLogback.newContext();
        LockFreeFileAppender appender = TestAppenders.start(context, dir.resolve("app.log"), a -> settings(a, dir));
        for (int n = 0; n < LINES / 2; n++) {
            appender.doAppend(TestLogback.event(context, Level.INFO, line(n)));
        }
        appender.stop();
        assertThat(appender.getStatistics().eventsWritten()).isEqualTo(LINES / 2);
    }

    /** About 150 bytes, as an application's line with a timestamp, level and logger would be. */
    static String line(int n) {
        return "ship " + n + " check=" + (n * 31L % 1_000_003) + " "
                + "................................................................................"
                + "......................................";
    }

    static Path findRsyslogd() {
        String path = System.getenv("PATH");
        Stream<String> dirs = Stream.concat(Stream.of("/usr/sbin", "/sbin"),
                path == null ? Stream.empty() : Stream.of(path.split(":")));
        return dirs.map(d -> Path.of(d, "rsyslogd")).filter(Files::isExecutable).findFirst().orElse(null);
    }

    /** rsyslogd as a child process: imfile (inotify) follows the log, omfile writes each raw line. */
    static final class Rsyslog implements AutoCloseable {
        final Process process;
        final Path output;
        final Path console;
        private long read;
        private long lines;

        private Rsyslog(Process process, Path output, Path console) {
            this.process = process;
            this.output = output;
            this.console = console;
        }

        static Rsyslog start(Path rsyslogd, Path dir, Path log, Path output) throws IOException {
            Path work = Files.createDirectories(dir.resolve("rsyslog-work"));
            Path conf = dir.resolve("rsyslog.conf");
            Files.writeString(conf, String.join("\n",
                    "global(workDirectory=\"" + work + "\" maxMessageSize=\"64k\")",
                    "module(load=\"imfile\" mode=\"inotify\")",
                    "template(name=\"raw\" type=\"string\" string=\"%msg%\\n\")",
                    "ruleset(name=\"ship\") {",
                    "  action(type=\"omfile\" file=\"" + output + "\" template=\"raw\")",
                    "}",
                    "input(type=\"imfile\" File=\"" + log + "\" Tag=\"t\" ruleset=\"ship\")",
                    ""));
            Path console = dir.resolve("rsyslog-console.txt");
            ProcessBuilder builder = new ProcessBuilder(rsyslogd.toString(), "-n", "-f", conf.toString(), "-i",
                    dir.resolve("rsyslog.pid").toString());
            builder.redirectErrorStream(true).redirectOutput(console.toFile());
            return new Rsyslog(builder.start(), output, console);
        }

        /**
         * Waits until the output holds {@code count} lines, or until it has not grown for
         * {@code quietSeconds} (what has not arrived by then is not coming); returns how many it holds.
         */
        long awaitLines(long count, int quietSeconds) throws IOException, InterruptedException {
            long lastGrowth = System.nanoTime();
            while (lines < count && System.nanoTime() - lastGrowth < TimeUnit.SECONDS.toNanos(quietSeconds)) {
                if (!process.isAlive()) {
                    throw new AssertionError("rsyslogd exited: " + Files.readString(console, StandardCharsets.UTF_8));
                }
                if (readNewLines() > 0) {
                    lastGrowth = System.nanoTime();
                } else {
                    Thread.sleep(100);
                }
            }
            return lines;
        }

        /** Counts the lines added to the output since the last call. */
        private long readNewLines() throws IOException {
            if (!Files.exists(output)) {
                return 0;
            }
            try (FileChannel channel = FileChannel.open(output, StandardOpenOption.READ)) {
                ByteBuffer buffer = ByteBuffer.allocate(1 << 20);
                long before = lines;
                for (int n; (n = channel.read(buffer.clear(), read)) > 0; read += n) {
                    for (int i = 0; i < n; i++) {
                        if (buffer.get(i) == '\n') {
                            lines++;
                        }
                    }
                }
                return lines - before;
            }
        }

        /** Stops rsyslogd (SIGTERM, so it flushes its output), or kills it if it does not stop. */
        @Override
        public void close() {
            process.destroy();
            try {
                if (!process.waitFor(10, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                    process.waitFor(10, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
    }
}
