package io.github.lockfreelog.logback;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.core.status.Status;
import ch.qos.logback.core.util.Duration;
import ch.qos.logback.core.util.FileSize;
import io.github.lockfreelog.logback.rolling.RollingLogSink;
import io.github.lockfreelog.testing.GatedSink;
import io.github.lockfreelog.testing.TestAppenders;
import io.github.lockfreelog.testsupport.TestLogback;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RollingTest {

    static final int THREADS = 4;
    static final long NOON = LocalDate.of(2026, 3, 1).atTime(12, 0).atZone(ZoneId.systemDefault()).toInstant()
            .toEpochMilli();
    static final long DAY = 24L * 3600 * 1000;

    @TempDir
    Path dir;

    final LoggerContext context = TestLogback.newContext();

    static String line(int thread, int n) {
        return "T" + thread + " " + n + " rolling-check-" + (n * 7 + thread) + " ..............................";
    }

    @Test
    void rollsBySizeUnderFourWritersWhileAFollowerReadsTheLiveFileByName() throws Exception {
        Path log = dir.resolve("app.log");
        long maxFileSize = 256 * 1024;
        LockFreeFileAppender appender = TestAppenders.create(context, log, a -> {
            a.setFileNamePattern(dir.resolve("archive/app.%d{yyyy-MM-dd}.%i.log.gz").toString());
            a.setMaxFileSize(new FileSize(maxFileSize));
            a.setMaxBlockTime(Duration.valueOf("60 seconds"));
            a.setFlushInterval(Duration.valueOf("10 milliseconds"));
        });
        appender.clock = () -> NOON;
        appender.start();
        assertThat(appender.isStarted()).as(TestLogback.statuses(context)).isTrue();

        AtomicBoolean writing = new AtomicBoolean(true);
        Follower follower = new Follower(log, writing);
        follower.start();
        int perThread = 40_000;
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> writers = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            int id = t;
            Thread writer = new Thread(() -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int n = 0; n < perThread; n++) {
                    appender.doAppend(TestLogback.event(context, Level.INFO, line(id, n)));
                }
            });
            writers.add(writer);
            writer.start();
        }
        go.countDown();
        for (Thread writer : writers) {
            writer.join();
        }
        appender.stop(); // also waits for compression to finish
        writing.set(false);
        follower.join();

        List<Path> archives = listArchives(dir.resolve("archive"));
        assertThat(archives).allMatch(p -> p.toString().endsWith(".log.gz"));
        assertThat(archives.size()).isGreaterThan(20);
        List<String> all = new ArrayList<>();
        for (Path archive : archives) {
            byte[] bytes = gunzip(archive);
            assertThat(bytes.length).as("%s within maxFileSize", archive).isLessThanOrEqualTo((int) maxFileSize);
            assertThat(bytes[bytes.length - 1]).as("%s ends with a whole line", archive).isEqualTo((byte) '\n');
            all.addAll(splitLines(bytes));
        }
        all.addAll(splitLines(Files.readAllBytes(log)));
        assertEveryLineOnceInOrder(all, perThread);
        assertThat(follower.lines).as("the follower read whole, intact lines").isNotEmpty()
                .allSatisfy(l -> assertThat(l).isEqualTo(line(Integer.parseInt(l.substring(1, 2)),
                        Integer.parseInt(l.split(" ")[1]))));
        assertThat(follower.reopened).as("the follower saw the live file replaced").isPositive();
    }

    /**
     * The sink reads its clocks at the first event of each write only ({@code pendingBytes == 0}):
     * a period that ends while the drainer gathers a write rolls the file before the next write's
     * first event, and the size still ends a file before any event that would pass it.
     */
    @Test
    void thePeriodIsCheckedAtTheFirstEventOfEachWriteAndTheSizeAtEveryEvent() throws Exception {
        AtomicLong clock = new AtomicLong(NOON);
        RollingLogSink sink = new RollingLogSink(dir.resolve("app.log"), new RollingLogSink.Settings(
                dir.resolve("app.%d{yyyy-MM-dd}.%i.log").toString(), 1_000, 0, 0, false), context,
                clock::get, TestAppenders.status(context), "checks");
        try {
            assertThat(sink.shouldRoll(0, 10)).as("an empty file never rolls").isFalse();
            sink.write(ByteBuffer.wrap("first line\n".getBytes(StandardCharsets.US_ASCII)));
            sink.size();
            assertThat(sink.shouldRoll(0, 10)).as("same day, first event of a write").isFalse();
            assertThat(sink.shouldRoll(200, 10)).as("same day, later in the write").isFalse();
            clock.set(NOON + DAY);
            assertThat(sink.shouldRoll(300, 10)).as("the day ended during this write: not before its next event").isFalse();
            assertThat(sink.shouldRoll(400, 989 - 400 - 11)).as("size below the limit").isFalse();
            assertThat(sink.shouldRoll(400, 1_000 - 400 - 11 + 1)).as("an event that would pass 1,000 bytes").isTrue();
            assertThat(sink.shouldRoll(0, 10)).as("the first event of the next write, the next day").isTrue();
            clock.set(NOON);
            assertThat(sink.shouldRoll(50, 10)).as("the write's reading stands for all its events").isTrue();
            assertThat(sink.shouldRoll(0, 10)).as("read again at the next write").isFalse();
        } finally {
            sink.close();
        }
    }

    @Test
    void rollsByTimeWithAControllableClockAndKeepsMaxHistory() throws Exception {
        Path log = dir.resolve("daily.log");
        AtomicLong clock = new AtomicLong(NOON);
        LockFreeFileAppender appender = TestAppenders.create(context, log, a -> {
            a.setFileNamePattern(dir.resolve("daily.%d{yyyy-MM-dd}.log").toString());
            a.setMaxHistory(3);
            a.setFlushInterval(Duration.valueOf("10 milliseconds"));
        });
        appender.clock = clock::get;
        appender.start();
        int events = 0;
        for (int day = 0; day < 10; day++) {
            clock.set(NOON + day * DAY);
            for (int k = 0; k < 5; k++) {
                appender.doAppend(TestLogback.event(context, Level.INFO, "day " + day + " line " + k));
                events++;
            }
            int expected = events;
            Awaitility.await().atMost(java.time.Duration.ofSeconds(10))
                    .until(() -> appender.getStatistics().eventsWritten() == expected);
        }
        appender.stop();
        List<String> names;
        try (Stream<Path> files = Files.list(dir)) {
            names = files.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("daily.2026")).sorted().toList();
        }
        // the live file holds day 9; of days 0..8 only the newest maxHistory periods remain
        assertThat(names).containsExactly("daily.2026-03-07.log", "daily.2026-03-08.log", "daily.2026-03-09.log");
        for (int day = 6; day <= 8; day++) {
            assertThat(TestLogback.lines(dir.resolve("daily.2026-03-0" + (day + 1) + ".log")))
                    .containsExactly("day " + day + " line 0", "day " + day + " line 1", "day " + day + " line 2",
                            "day " + day + " line 3", "day " + day + " line 4");
        }
        assertThat(TestLogback.lines(log)).hasSize(5).allMatch(l -> l.startsWith("day 9 "));
    }

    /**
     * An appender that logs rarely (errors only) started on day 0 and logged nothing that day: its
     * live file was empty when the day ended. The first lines of day 1 used to be written into the
     * file of day 0's period, so the next write rolled them into an archive named for day 0. An empty
     * file at a period's end now starts the new period, without an archive of its own.
     */
    @Test
    void aPeriodThatEndsWithAnEmptyLiveFileStartsTheNextOneWithoutAnArchive() throws Exception {
        Path log = dir.resolve("errors.log");
        AtomicLong clock = new AtomicLong(NOON);
        LockFreeFileAppender appender = TestAppenders.create(context, log, a -> {
            a.setFileNamePattern(dir.resolve("errors.%d{yyyy-MM-dd}.log").toString());
            a.setFlushInterval(Duration.valueOf("10 milliseconds"));
        });
        appender.clock = clock::get;
        appender.start();
        clock.set(NOON + DAY); // day 0 ends with nothing logged
        int events = 0;
        for (int k = 0; k < 3; k++) { // one write each
            appender.doAppend(TestLogback.event(context, Level.WARN, "day 1 line " + k));
            int expected = ++events;
            Awaitility.await().atMost(java.time.Duration.ofSeconds(10))
                    .until(() -> appender.getStatistics().eventsWritten() == expected);
        }
        clock.set(NOON + 2 * DAY);
        appender.doAppend(TestLogback.event(context, Level.WARN, "day 2 line 0"));
        appender.stop();
        List<String> names;
        try (Stream<Path> files = Files.list(dir)) {
            names = files.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("errors.2026")).sorted().toList();
        }
        assertThat(names).as("archives; statuses: %s", TestLogback.statuses(context))
                .containsExactly("errors.2026-03-02.log");
        assertThat(TestLogback.lines(dir.resolve("errors.2026-03-02.log")))
                .containsExactly("day 1 line 0", "day 1 line 1", "day 1 line 2");
        assertThat(TestLogback.lines(log)).containsExactly("day 2 line 0");
    }

    /**
     * logrotate's {@code copytruncate} emptied the live file after the last write of day 0: at
     * the first write of day 1 the sink rolled the emptied file into day 0's archive, an empty one.
     * The sink reads the file's size when a period is over, and an emptied file starts the new
     * period in place.
     */
    @Test
    void aLiveFileTruncatedByAnotherToolBeforeThePeriodEndsIsNotRolledIntoAnEmptyArchive() throws Exception {
        AtomicLong clock = new AtomicLong(NOON);
        Path log = dir.resolve("app.log");
        RollingLogSink sink = new RollingLogSink(log, new RollingLogSink.Settings(
                dir.resolve("app.%d{yyyy-MM-dd}.log").toString(), 0, 0, 0, false), context,
                clock::get, TestAppenders.status(context), "truncated");
        try {
            sink.write(ByteBuffer.wrap("day 0\n".getBytes(StandardCharsets.US_ASCII)));
            try (FileChannel outside = FileChannel.open(log, StandardOpenOption.WRITE)) {
                outside.truncate(0); // copytruncate, after the day's last write
            }
            clock.set(NOON + DAY);
            assertThat(sink.shouldRoll(0, 10)).as("the first write of day 1, to an emptied file").isFalse();
            sink.write(ByteBuffer.wrap("day 1\n".getBytes(StandardCharsets.US_ASCII)));
            assertThat(sink.shouldRoll(0, 10)).as("a later write of day 1").isFalse();
            clock.set(NOON + 2 * DAY);
            assertThat(sink.shouldRoll(0, 10)).as("the first write of day 2").isTrue();
            sink.roll();
        } finally {
            sink.close();
        }
        List<String> names;
        try (Stream<Path> files = Files.list(dir)) {
            names = files.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("app.2026")).sorted().toList();
        }
        assertThat(names).containsExactly("app.2026-03-02.log");
        assertThat(TestLogback.lines(dir.resolve("app.2026-03-02.log"))).containsExactly("day 1");
    }

    /**
     * A stop that timed out while the drainer was held in a write closed the sink and shut its
     * archiver down; let go, the drainer reopened the live file, wrote on, and rolled: the live file
     * was renamed after {@code stop()} returned, its compression refused (the archiver was gone), and
     * the name rolled again and again. Now the drainer finds the sink closed: nothing is written,
     * renamed or compressed, and the next start writes what the journal kept, each line once.
     */
    @Test
    void aDrainerThatOutlivesATimedOutStopNeitherWritesNorRolls() throws Exception {
        Path log = dir.resolve("held.log");
        GatedSink[] gate = new GatedSink[1];
        java.util.function.Consumer<LockFreeFileAppender> settings = a -> {
            a.setName("held");
            a.setFileNamePattern(dir.resolve("held.%d{yyyy-MM-dd}.%i.log.gz").toString());
            a.setMaxFileSize(new FileSize(1024));
            a.setFlushInterval(Duration.valueOf("10 milliseconds"));
            a.setStopTimeout(Duration.valueOf("300 milliseconds"));
        };
        LockFreeFileAppender appender = TestAppenders.create(context, log, settings.andThen(
                a -> a.setSinkDecorator(s -> gate[0] = new GatedSink(s))));
        appender.clock = () -> NOON;
        appender.start();
        int events = 400; // 400 lines of 60 bytes: a roll every 17 lines
        for (int n = 0; n < events; n++) {
            appender.doAppend(TestLogback.event(context, Level.INFO, line(0, n)));
        }
        assertThat(gate[0].firstWriteArrived.await(10, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        Thread drainer = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals("lockfreelog-drainer-held")).findFirst().orElseThrow();
        appender.stop(); // times out: the drainer is held in its first write
        assertThat(drainer.isAlive()).as("the drainer outlived the stop").isTrue();
        List<String> atStop = fileNames(dir);
        gate[0].open();
        drainer.join(10_000);
        assertThat(drainer.isAlive()).as("the drainer ended").isFalse();
        assertThat(fileNames(dir)).as("renamed or compressed after stop() returned").isEqualTo(atStop)
                .containsExactly("held.log");
        assertThat(Files.size(log)).as("written after stop() returned").isZero();
        assertThat(TestLogback.statusMessages(context, Status.WARN)).as("the drainer said why it ended")
                .anyMatch(m -> m.contains("is closed (the appender stopped, and its stop timed out before this write)"));

        // a stop long enough for the recovery's ~23 compressions: one that outlived a 300 ms stop (a loaded machine)
        // was left as a source for the next start, and read here as if it were an archive
        LockFreeFileAppender next = TestAppenders.create(context, log,
                settings.andThen(a -> a.setStopTimeout(Duration.valueOf("30 seconds"))));
        next.clock = () -> NOON;
        next.start();
        next.stop();
        assertThat(next.getStatistics().recoveredFrames()).isEqualTo(events);
        List<String> all = new ArrayList<>();
        List<Path> archives = listArchives(dir);
        assertThat(archives).as(TestLogback.statuses(context)).isNotEmpty()
                .allMatch(p -> p.getFileName().toString().endsWith(".log.gz"), "compressed");
        for (Path archive : archives) {
            all.addAll(splitLines(gunzip(archive)));
        }
        all.addAll(splitLines(Files.readAllBytes(log)));
        List<String> expected = new ArrayList<>();
        for (int n = 0; n < events; n++) {
            expected.add(line(0, n));
        }
        assertThat(all).hasSize(events + 1);
        assertThat(all.subList(0, events)).as("each line once, in order").isEqualTo(expected);
        assertThat(all.get(events)).as("the appender's own line after recovery").startsWith("Recovered 400 event(s)");
    }

    /** A rolling sink once closed neither writes nor rolls: the live file keeps its name and content. */
    @Test
    void aClosedRollingSinkRefusesToWriteOrRoll() throws Exception {
        Path log = dir.resolve("closed.log");
        RollingLogSink sink = new RollingLogSink(log, new RollingLogSink.Settings(
                dir.resolve("closed.%d{yyyy-MM-dd}.%i.log.gz").toString(), 64, 0, 0, false), context,
                () -> NOON, TestAppenders.status(context), "closed");
        ByteBuffer first = ByteBuffer.wrap((line(0, 0) + "\n").getBytes(StandardCharsets.US_ASCII));
        while (first.hasRemaining()) {
            sink.write(first);
        }
        sink.close();
        assertThat(sink.shouldRoll(0, 100)).as("a closed sink has nothing to roll").isFalse();
        org.assertj.core.api.Assertions.assertThatThrownBy(sink::roll).isInstanceOf(IOException.class)
                .hasMessageContaining("closed");
        org.assertj.core.api.Assertions.assertThatThrownBy(
                () -> sink.write(ByteBuffer.wrap("late\n".getBytes(StandardCharsets.US_ASCII))))
                .isInstanceOf(IOException.class).hasMessageContaining("closed");
        assertThat(fileNames(dir)).containsExactly("closed.log");
        assertThat(TestLogback.lines(log)).containsExactly(line(0, 0));
    }

    private static List<String> fileNames(Path folder) throws IOException {
        try (Stream<Path> files = Files.list(folder)) {
            return files.filter(Files::isRegularFile).map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void totalSizeCapDeletesTheOldestArchives() throws Exception {
        Path log = dir.resolve("capped.log");
        LockFreeFileAppender appender = TestAppenders.create(context, log, a -> {
            a.setFileNamePattern(dir.resolve("capped.%d{yyyy-MM-dd}.%i.log").toString());
            a.setMaxFileSize(FileSize.valueOf("16KB"));
            a.setMaxHistory(30);
            a.setTotalSizeCap(FileSize.valueOf("64KB"));
            a.setFlushInterval(Duration.valueOf("10 milliseconds"));
        });
        appender.clock = () -> NOON;
        appender.start();
        for (int n = 0; n < 8000; n++) {
            appender.doAppend(TestLogback.event(context, Level.INFO, line(0, n)));
        }
        appender.stop();
        List<Path> archives = listArchives(dir).stream().filter(p -> p.getFileName().toString().startsWith("capped."))
                .toList();
        long total = 0;
        for (Path archive : archives) {
            total += Files.size(archive);
        }
        assertThat(total).as(TestLogback.statuses(context)).isLessThanOrEqualTo(64 * 1024);
        assertThat(archives).isNotEmpty();
        // what is left is the newest archives, contiguous up to the live file
        List<String> kept = new ArrayList<>();
        for (Path archive : archives) {
            kept.addAll(TestLogback.lines(archive));
        }
        kept.addAll(TestLogback.lines(log));
        int first = Integer.parseInt(kept.get(0).split(" ")[1]);
        assertThat(first).isPositive();
        for (int i = 0; i < kept.size(); i++) {
            assertThat(kept.get(i)).isEqualTo(line(0, first + i));
        }
        assertThat(first + kept.size()).isEqualTo(8000);
    }

    /**
     * A drainer catching up on a backlog could fill a file at once: the roll then waits until the
     * file has been live for maxFileSize / 20 MB/s (100 ms for 2 MB), so that a shipper following
     * the live file by name has time to open it before it is renamed.
     */
    @Test
    void aFileFilledAtOnceIsNotRolledBeforeItsMinimumLifetime() throws Exception {
        long maxFileSize = 2 * 1024 * 1024;
        long lifetime = maxFileSize * 1_000_000_000L / RollingLogSink.SHIPPER_BYTES_PER_SECOND;
        long opened = System.nanoTime(); // no later than the live file's opening
        RollingLogSink sink = new RollingLogSink(dir.resolve("burst.log"), new RollingLogSink.Settings(
                dir.resolve("burst.%d{yyyy-MM-dd}.%i.log").toString(), maxFileSize, 0, 0, false), context, () -> NOON,
                TestAppenders.status(context), "burst");
        ByteBuffer full = ByteBuffer.wrap(new byte[(int) maxFileSize]);
        for (int file = 0; file < 3; file++) {
            while (full.hasRemaining()) {
                sink.write(full);
            }
            full.clear();
            assertThat(sink.shouldRoll(0, 1)).isTrue();
            long rolling = System.nanoTime(); // no later than the next file's opening
            sink.roll();
            assertThat(System.nanoTime() - opened).as("file %d was live", file).isGreaterThanOrEqualTo(lifetime);
            opened = rolling;
        }
        sink.close();
        assertThat(listArchives(dir)).hasSize(3).allSatisfy(p -> assertThat(Files.size(p)).isEqualTo(maxFileSize));
    }

    @Test
    void rollingSettingsAreCheckedAtStart() {
        LockFreeFileAppender noDate = TestAppenders.create(context, dir.resolve("a.log"), a -> {
            a.setFileNamePattern(dir.resolve("a.%i.log").toString());
            a.setMaxFileSize(FileSize.valueOf("1MB"));
        });
        noDate.start();
        LockFreeFileAppender noIndex = TestAppenders.create(context, dir.resolve("b.log"), a -> {
            a.setFileNamePattern(dir.resolve("b.%d.log").toString());
            a.setMaxFileSize(FileSize.valueOf("1MB"));
        });
        noIndex.start();
        LockFreeFileAppender noPattern = TestAppenders.create(context, dir.resolve("c.log"),
                a -> a.setMaxHistory(7));
        noPattern.start();
        assertThat(noDate.isStarted()).isFalse();
        assertThat(noIndex.isStarted()).isFalse();
        assertThat(noPattern.isStarted()).isFalse();
        assertThat(TestLogback.statusMessages(context, Status.ERROR))
                .anyMatch(m -> m.contains("fileNamePattern=") && m.contains("with a date token"))
                .anyMatch(m -> m.contains("with the index token %i"))
                .anyMatch(m -> m.contains("No <fileNamePattern> set") && m.contains("rolling settings need one"));
    }

    // ---- helpers -------------------------------------------------------------------------------

    static final Pattern INDEX = Pattern.compile("\\.(\\d+)\\.log");

    static List<Path> listArchives(Path folder) throws IOException {
        try (Stream<Path> files = Files.list(folder)) {
            return files.filter(p -> INDEX.matcher(p.getFileName().toString()).find())
                    .sorted(Comparator.comparingInt(RollingTest::indexOf)).toList();
        }
    }

    static int indexOf(Path archive) {
        Matcher m = INDEX.matcher(archive.getFileName().toString());
        m.find();
        return Integer.parseInt(m.group(1));
    }

    static byte[] gunzip(Path file) throws IOException {
        try (InputStream in = new GZIPInputStream(Files.newInputStream(file))) {
            return in.readAllBytes();
        }
    }

    static List<String> splitLines(byte[] bytes) {
        assertThat(bytes).doesNotContain((byte) 0);
        String text = new String(bytes, StandardCharsets.US_ASCII);
        if (text.isEmpty()) {
            return List.of();
        }
        assertThat(text).endsWith("\n");
        return List.of(text.split("\n"));
    }

    static void assertEveryLineOnceInOrder(List<String> lines, int perThread) {
        int[] next = new int[THREADS];
        for (String l : lines) {
            int thread = Integer.parseInt(l.substring(1, l.indexOf(' ')));
            int n = Integer.parseInt(l.split(" ")[1]);
            assertThat(l).isEqualTo(line(thread, n));
            assertThat(n).as("thread %d", thread).isEqualTo(next[thread]++);
        }
        for (int t = 0; t < THREADS; t++) {
            assertThat(next[t]).isEqualTo(perThread);
        }
    }

    /** Follows the live file by name, as log shippers do: reads to the end, re-opens when it was replaced. */
    static final class Follower extends Thread {
        final Path file;
        final AtomicBoolean writing;
        final List<String> lines = new ArrayList<>();
        int reopened;

        Follower(Path file, AtomicBoolean writing) {
            this.file = file;
            this.writing = writing;
            setDaemon(true);
        }

        @Override
        public void run() {
            ByteArrayOutputStream partial = new ByteArrayOutputStream();
            ByteBuffer buffer = ByteBuffer.allocate(64 * 1024);
            FileChannel channel = null;
            Object key = null;
            try {
                while (writing.get() || channel != null) {
                    if (channel == null) {
                        try {
                            channel = FileChannel.open(file, StandardOpenOption.READ);
                            key = Files.readAttributes(file, java.nio.file.attribute.BasicFileAttributes.class).fileKey();
                        } catch (NoSuchFileException e) {
                            Thread.sleep(1);
                            continue;
                        }
                    }
                    buffer.clear();
                    int n = channel.read(buffer);
                    if (n > 0) {
                        for (int i = 0; i < n; i++) {
                            byte b = buffer.get(i);
                            if (b == '\n') {
                                lines.add(partial.toString(StandardCharsets.US_ASCII));
                                partial.reset();
                            } else {
                                partial.write(b);
                            }
                        }
                        continue;
                    }
                    Object now = null;
                    try {
                        now = Files.readAttributes(file, java.nio.file.attribute.BasicFileAttributes.class).fileKey();
                    } catch (NoSuchFileException e) {
                        // between rename and re-create
                    }
                    if (now != null && !now.equals(key) || !writing.get()) {
                        channel.close(); // the old file was read to its end: follow the new one
                        channel = null;
                        partial.reset();
                        reopened++;
                    } else {
                        Thread.sleep(1);
                    }
                }
            } catch (IOException | InterruptedException e) {
                lines.add("follower failed: " + e);
            }
        }
    }
}
