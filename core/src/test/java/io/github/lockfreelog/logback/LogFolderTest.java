package io.github.lockfreelog.logback;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.core.status.Status;
import ch.qos.logback.core.util.Duration;
import ch.qos.logback.core.util.FileSize;
import io.github.lockfreelog.diagnostics.AppenderStatistics;
import io.github.lockfreelog.testing.TestAppenders;
import io.github.lockfreelog.testsupport.TestLogback;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What operators do to a log folder while the appender runs: archives in a folder that turns
 * read-only, a link swapped in for the live file, the whole folder deleted, and a hidden folder
 * that is not the process's own. Writer threads log numbered lines all along; every line that
 * reached the appender is checked afterwards (once each, in order per thread).
 */
class LogFolderTest {

    static final int THREADS = 2;

    @TempDir
    Path dir;

    private final LoggerContext context = TestLogback.newContext();
    private Writers writers;
    private LockFreeFileAppender appender;

    @AfterEach
    void stop() throws Exception {
        if (writers != null) {
            writers.stop();
        }
        if (appender != null) {
            appender.stop();
        }
    }

    /**
     * The archive folder is unwritable for 4 s (an immutable folder, or a read-only mount): the
     * live file keeps being written past maxFileSize, nothing is dropped, an ERROR status names the
     * roll and its cause, and once the folder is writable again the file rolls. Before: nothing more
     * reached the live file, and callers blocked and dropped with reason io.
     */
    @Test
    void aRollThatCannotCompleteNeverStopsTheLiveFile() throws Exception {
        Path log = dir.resolve("app.log");
        Path archive = Files.createDirectories(dir.resolve("archive"));
        appender = TestAppenders.start(context, log, a -> {
            a.setFileNamePattern(archive + "/app.%d{yyyy-MM-dd}.%i.log.gz");
            a.setMaxFileSize(FileSize.valueOf("64KB"));
        });
        writers = new Writers(appender, 20);
        TimeUnit.MILLISECONDS.sleep(500);
        assertThat(archives(archive)).as("rolled before the fault").isNotEmpty();
        long writtenBefore;
        long liveBefore;
        Unwritable fault = Unwritable.make(archive);
        try {
            TimeUnit.MILLISECONDS.sleep(100);
            writtenBefore = appender.getStatistics().eventsWritten();
            liveBefore = Files.size(log);
            TimeUnit.SECONDS.sleep(4);
            AppenderStatistics during = appender.getStatistics();
            assertThat(during.eventsWritten() - writtenBefore).as("events written while rolls failed").isGreaterThan(10_000);
            assertThat(Files.size(log)).as("the live file grew past maxFileSize").isGreaterThan(liveBefore + 256 * 1024);
            assertThat(during.dropped()).as("nothing dropped").isZero();
        } finally {
            fault.close();
        }
        int archivesAfterFault = archives(archive).size();
        TimeUnit.MILLISECONDS.sleep(1_500);
        assertThat(archives(archive).size()).as("the file rolls again once the folder is writable").isGreaterThan(archivesAfterFault);
        long[] last = writers.stop();
        appender.stop();
        assertThat(appender.getStatistics().dropped()).isZero();
        assertThat(TestLogback.statusMessages(context, Status.ERROR)).anySatisfy(m -> assertThat(m)
                .contains("rolling the log file").contains(log.toString()).contains("the live file is written on"));
        List<Path> files = new ArrayList<>(archives(archive));
        assertThat(files).as("every rolled file compressed once the folder is writable").allMatch(f -> f.toString().endsWith(".gz"));
        files.add(log);
        assertThat(sequences(files)).isEqualTo(fromZero(last));
    }

    /**
     * While the appender runs, the live file is renamed away and a symbolic link to a file
     * elsewhere is planted in its place. Nothing is written through the link: an ERROR status names
     * it, and the lines go on in a plain file of the log's name. Before: the lines went into the
     * link's target.
     */
    @Test
    void aSymbolicLinkSwappedInForTheLiveFileIsNeverWrittenThrough() throws Exception {
        Path logs = Files.createDirectories(dir.resolve("logs"));
        Path log = logs.resolve("app.log");
        Path victim = dir.resolve("victim.txt");
        Files.writeString(victim, "precious\n");
        appender = TestAppenders.start(context, log, a -> { });
        writers = new Writers(appender, 100);
        TimeUnit.MILLISECONDS.sleep(200);
        Path moved = logs.resolve("app.log.old");
        Files.move(log, moved);
        List<Path> files = new ArrayList<>(List.of(moved));
        for (int n = 2;; n++) {
            try {
                Files.createSymbolicLink(log, Path.of("../victim.txt"));
                break;
            } catch (java.nio.file.FileAlreadyExistsException e) {
                // the drainer saw the file go and made a new one first: move that aside too, and plant the link again
                Path again = logs.resolve("app.log.old" + n);
                Files.move(log, again);
                files.add(again);
            }
        }
        TimeUnit.MILLISECONDS.sleep(500);
        long[] last = writers.stop();
        appender.stop();
        files.add(log);

        assertThat(Files.readString(victim)).as("the link's target is untouched").isEqualTo("precious\n");
        assertThat(TestLogback.statusMessages(context, Status.ERROR)).anySatisfy(m -> assertThat(m)
                .contains("symbolic link").contains(log.toString()).contains("victim.txt"));
        assertThat(Files.isSymbolicLink(log)).as("a plain file took the log's name").isFalse();
        assertThat(sequences(files)).isEqualTo(fromZero(last));
    }

    /** A log file that was a symbolic link at start stays one: Logback writes through it, and so does this appender. */
    @Test
    void aLogFileThatIsALinkAtStartIsWrittenThrough() throws Exception {
        Path target = Files.createDirectories(dir.resolve("real")).resolve("app.log");
        Path log = Files.createSymbolicLink(dir.resolve("app.log"), target);
        appender = TestAppenders.start(context, log, a -> { });
        writers = new Writers(appender, 20);
        TimeUnit.MILLISECONDS.sleep(200);
        long[] last = writers.stop();
        appender.stop();
        assertThat(Files.isSymbolicLink(log)).isTrue();
        assertThat(TestLogback.statusMessages(context, Status.ERROR)).isEmpty();
        assertThat(sequences(List.of(target))).isEqualTo(fromZero(last));
    }

    /**
     * {@code rm -rf logs} while the appender runs: within a second the folder and the log file are
     * back and written, the journal is rebuilt in an owner-only hidden folder, nothing acknowledged
     * after the deletion is lost, and stop is prompt and clean. Before: the folder never came back,
     * events were counted as written into the unlinked file, and stop took 10 s and promised a
     * recovery from a journal that was gone.
     */
    @Test
    void aLogFolderDeletedWhileRunningComesBackWithItsJournal() throws Exception {
        Path logs = dir.resolve("logs");
        Path log = logs.resolve("app.log");
        appender = TestAppenders.start(context, log, a -> a.setMaxBlockTime(Duration.valueOf("5 seconds")));
        writers = new Writers(appender, 100);
        TimeUnit.MILLISECONDS.sleep(300);
        deleteTree(logs);
        long[] afterDelete = writers.acknowledged();
        long deleted = System.nanoTime();
        while (!(Files.isRegularFile(log) && Files.size(log) > 0)) {
            assertThat(System.nanoTime() - deleted).as("the log file is written again within 1 s")
                    .isLessThan(TimeUnit.SECONDS.toNanos(1));
            TimeUnit.MILLISECONDS.sleep(5);
        }
        Path hidden = logs.resolve(LockFreeFileAppender.JOURNAL_FOLDER);
        Path journal = hidden.resolve("app.log.journal");
        while (!(Files.isRegularFile(journal) && Files.size(journal) > 0)) {
            assertThat(System.nanoTime() - deleted).as("the journal is rebuilt within 2 s")
                    .isLessThan(TimeUnit.SECONDS.toNanos(2));
            TimeUnit.MILLISECONDS.sleep(5);
        }
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(hidden, LinkOption.NOFOLLOW_LINKS)))
                .isEqualTo("rwx------");
        assertThat(appender.getStatistics().journal()).isEqualTo(journal.toString());
        TimeUnit.MILLISECONDS.sleep(300);
        long[] last = writers.stop();
        long stopping = System.nanoTime();
        appender.stop();
        assertThat(System.nanoTime() - stopping).as("stop is prompt; statuses: %s", TestLogback.statuses(context))
                .isLessThan(TimeUnit.SECONDS.toNanos(2));
        assertThat(TestLogback.statusMessages(context, Status.WARN)).noneSatisfy(m -> assertThat(m).contains("recover"));
        assertThat(appender.getStatistics().dropped()).isZero();
        assertThat(appender.getStatistics().inFlight()).isZero();
        Map<Integer, long[]> ranges = ranges(List.of(log));
        for (int t = 0; t < THREADS; t++) {
            // a writer notes a line once its append returned: the one after the noted one may be older
            // than the deletion, and gone with the deleted file
            assertThat(ranges.get(t)[0]).as("thread %d: every line acknowledged after the deletion", t)
                    .isLessThanOrEqualTo(afterDelete[t] + 2);
            assertThat(ranges.get(t)[1]).as("thread %d: to its last line", t).isEqualTo(last[t]);
        }
        assertThat(Files.size(journal)).as("the rebuilt journal is emptied at stop").isZero();
    }

    /**
     * Lock files are never written, so a sweep by age would pick them: the running appender keeps
     * their (and the journal's and write ledger's) modification time fresh, and locks a new lock file when a sweep
     * removed it anyway, so that instances of earlier versions, which look only at it, see the
     * journal in use.
     */
    @Test
    void theLockFilesOfARunningAppenderStayFreshAndComeBackWhenSwept() throws Exception {
        appender = TestAppenders.start(context, dir.resolve("app.log"), a -> { });
        Path journal = Path.of(appender.getStatistics().journal());
        Path lock = journal.resolveSibling(journal.getFileName() + ".lock");
        // aged from another process: in this one, setting a time opens the file, and closing that
        // descriptor would release the appender's own lock on it
        Path ledger = journal.resolveSibling("app.log.writes");
        assertThat(Unwritable.run("touch", "-d", "30 days ago", lock.toString(), journal.toString(), ledger.toString()))
                .isZero();
        long since = System.nanoTime();
        java.time.Instant aMinuteAgo = java.time.Instant.now().minusSeconds(60);
        while (Files.getLastModifiedTime(lock).toInstant().isBefore(aMinuteAgo)
                || Files.getLastModifiedTime(journal).toInstant().isBefore(aMinuteAgo)
                || Files.getLastModifiedTime(ledger).toInstant().isBefore(aMinuteAgo)) {
            assertThat(System.nanoTime() - since).as("refreshed within 2 s").isLessThan(TimeUnit.SECONDS.toNanos(2));
            TimeUnit.MILLISECONDS.sleep(20);
        }
        Files.delete(lock);
        since = System.nanoTime();
        while (!Files.exists(lock)) {
            assertThat(System.nanoTime() - since).as("locked again within 2 s").isLessThan(TimeUnit.SECONDS.toNanos(2));
            TimeUnit.MILLISECONDS.sleep(20);
        }
        try (CompressionLockTest.Probe probe = CompressionLockTest.Probe.start()) {
            assertThat(probe.tryLock(lock)).as("another process finds the new lock file locked").isEqualTo("REFUSED");
            assertThat(probe.tryLock(journal)).as("and the journal").isEqualTo("REFUSED");
        }
        assertThat(TestLogback.statusMessages(context, Status.WARN)).anySatisfy(m -> assertThat(m)
                .contains("the lock file " + lock).contains("locked again"));
    }

    /** A hidden folder that others may write to is refused: they could plant files in it. */
    @Test
    void aHiddenFolderOpenToOthersIsRefused() throws Exception {
        Path hidden = Files.createDirectories(dir.resolve(LockFreeFileAppender.JOURNAL_FOLDER));
        Files.setPosixFilePermissions(hidden, PosixFilePermissions.fromString("rwxrwxrwx"));
        assertRefused(hidden, "open to others");
    }

    /** A hidden folder of another user is refused. */
    @Test
    void aHiddenFolderOfAnotherUserIsRefused() throws Exception {
        UserPrincipal nobody = otherUser();
        Path hidden = Files.createDirectories(dir.resolve(LockFreeFileAppender.JOURNAL_FOLDER));
        Files.setPosixFilePermissions(hidden, PosixFilePermissions.fromString("rwx------"));
        Files.setOwner(hidden, nobody);
        assertRefused(hidden, "owned by " + nobody.getName());
    }

    /** A hidden folder that is a link to another user's folder is refused too. */
    @Test
    void aHiddenFolderLinkedToAnotherUsersFolderIsRefused() throws Exception {
        UserPrincipal nobody = otherUser();
        Path theirs = Files.createDirectories(dir.resolve("theirs"));
        Files.setPosixFilePermissions(theirs, PosixFilePermissions.fromString("rwx------"));
        Files.setOwner(theirs, nobody);
        Path hidden = Files.createSymbolicLink(dir.resolve(LockFreeFileAppender.JOURNAL_FOLDER), theirs);
        assertRefused(hidden, "owned by " + nobody.getName());
    }

    private void assertRefused(Path hidden, String why) throws IOException {
        LockFreeFileAppender refused = TestAppenders.create(context, dir.resolve("app.log"), a -> { });
        refused.start();
        assertThat(refused.isStarted()).isFalse();
        assertThat(TestLogback.statusMessages(context, Status.ERROR)).singleElement().satisfies(m -> assertThat(m)
                .contains(hidden.toString()).contains(why).contains("for the appender named \"TEST\""));
        try (Stream<Path> files = Files.list(hidden)) {
            assertThat(files).as("nothing created in the refused folder").isEmpty();
        }
    }

    private static UserPrincipal otherUser() throws IOException {
        assumeThat(System.getProperty("user.name")).as("only root can give a folder to another user").isEqualTo("root");
        return Path.of("/").getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody");
    }

    /**
     * The journal holds the log's content: it is readable by its owner only. Archives keep the
     * live file's permissions, whatever the umask. Before: both got the umask's mode.
     */
    @Test
    void journalsAreOwnerOnlyAndArchivesKeepTheLiveFilesPermissions() throws Exception {
        Path log = dir.resolve("app.log");
        Files.writeString(log, "");
        Files.setPosixFilePermissions(log, PosixFilePermissions.fromString("rw-r-----"));
        appender = TestAppenders.start(context, log, a -> {
            a.setFileNamePattern(dir + "/app.%d{yyyy-MM-dd}.%i.log.gz");
            a.setMaxFileSize(FileSize.valueOf("64KB"));
        });
        Path journal = Path.of(appender.getStatistics().journal());
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(journal, LinkOption.NOFOLLOW_LINKS)))
                .isEqualTo("rw-------");
        writers = new Writers(appender, 20);
        TimeUnit.MILLISECONDS.sleep(600);
        writers.stop();
        appender.stop();
        List<Path> archives = archives(dir);
        assertThat(archives).isNotEmpty();
        for (Path archive : archives) {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(archive, LinkOption.NOFOLLOW_LINKS)))
                    .as("%s", archive).isEqualTo("rw-r-----");
        }
    }

    // ---- fixtures ---------------------------------------------------------------------------------

    /** Threads that log numbered lines {@code T<thread> <n>} at a steady pace, remembering what was appended. */
    static final class Writers {
        private final List<Thread> threads = new ArrayList<>();
        private final AtomicBoolean stop = new AtomicBoolean();
        private final AtomicLongArray acknowledged = new AtomicLongArray(THREADS);

        /** {@code perMilli} lines per millisecond and thread, about. */
        Writers(LockFreeFileAppender appender, int perMilli) {
            LoggerContext context = (LoggerContext) appender.getContext();
            for (int t = 0; t < THREADS; t++) {
                int id = t;
                acknowledged.set(t, -1);
                Thread thread = new Thread(() -> {
                    long next = System.nanoTime();
                    for (long n = 0; !stop.get(); n++) {
                        appender.doAppend(TestLogback.event(context, Level.INFO, line(id, n)));
                        acknowledged.set(id, n);
                        if (n % perMilli == perMilli - 1) {
                            next += TimeUnit.MILLISECONDS.toNanos(1);
                            long wait = next - System.nanoTime();
                            if (wait > 0) {
                                java.util.concurrent.locks.LockSupport.parkNanos(wait);
                            }
                        }
                    }
                }, "folder-writer-" + t);
                thread.setDaemon(true);
                threads.add(thread);
                thread.start();
            }
        }

        long[] acknowledged() {
            long[] now = new long[THREADS];
            for (int t = 0; t < THREADS; t++) {
                now[t] = acknowledged.get(t);
            }
            return now;
        }

        /** Stops the threads; returns each one's last line number. */
        long[] stop() throws InterruptedException {
            stop.set(true);
            for (Thread thread : threads) {
                thread.join(10_000);
            }
            return acknowledged();
        }
    }

    static String line(int thread, long n) {
        return "T" + thread + " " + n + " check=" + (n * 31 + thread) + " .....................................";
    }

    /** Per thread, the line numbers found in {@code files} (read in order), checked to run 0, 1, 2 ... once each. */
    static Map<Integer, Long> sequences(List<Path> files) throws IOException {
        Map<Integer, long[]> ranges = ranges(files);
        Map<Integer, Long> counts = new HashMap<>();
        ranges.forEach((thread, range) -> {
            assertThat(range[0]).as("thread %d starts at 0", thread).isZero();
            counts.put(thread, range[1] + 1);
        });
        return counts;
    }

    /** Per thread, the first and last line number in {@code files}, checked to be consecutive, once each, intact. */
    static Map<Integer, long[]> ranges(List<Path> files) throws IOException {
        Map<Integer, long[]> ranges = new HashMap<>();
        for (Path file : files) {
            byte[] content = file.toString().endsWith(".gz") ? RollingTest.gunzip(file) : Files.readAllBytes(file);
            if (content.length == 0) {
                continue;
            }
            assertThat(content[content.length - 1]).as("%s ends with a whole line", file).isEqualTo((byte) '\n');
            for (String text : new String(content, StandardCharsets.US_ASCII).split("\n")) {
                String[] parts = text.split(" ");
                int thread = Integer.parseInt(parts[0].substring(1));
                long n = Long.parseLong(parts[1]);
                assertThat(text).as("intact line in %s", file).isEqualTo(line(thread, n));
                long[] range = ranges.computeIfAbsent(thread, k -> new long[] {n, n - 1});
                assertThat(n).as("thread %d: consecutive, once each (in %s)", thread, file).isEqualTo(range[1] + 1);
                range[1] = n;
            }
        }
        return ranges;
    }

    static Map<Integer, Long> fromZero(long[] last) {
        Map<Integer, Long> counts = new HashMap<>();
        for (int t = 0; t < last.length; t++) {
            counts.put(t, last[t] + 1);
        }
        return counts;
    }

    /** The rolled files in {@code folder} (archives, and sources not compressed yet), by date and index. */
    static List<Path> archives(Path folder) throws IOException {
        try (Stream<Path> files = Files.list(folder)) {
            return files.filter(p -> p.getFileName().toString().matches("app\\.\\d{4}-\\d{2}-\\d{2}\\.\\d+\\.log\\.(gz|tmp)"))
                    .sorted(Comparator.comparing((Path p) -> p.getFileName().toString().substring(4, 14))
                            .thenComparingInt(p -> Integer.parseInt(p.getFileName().toString().split("\\.")[2])))
                    .toList();
        }
    }

    /**
     * Deletes a folder and all it holds, links not followed, as {@code rm -rf} does, again while
     * the appender puts a file back into it meanwhile (as an operator would run it again).
     */
    static void deleteTree(Path folder) throws IOException {
        for (int tries = 1;; tries++) {
            try (Stream<Path> files = Files.walk(folder)) {
                for (Path file : (Iterable<Path>) files.sorted(Comparator.reverseOrder())::iterator) {
                    Files.deleteIfExists(file);
                }
                return;
            } catch (java.nio.file.DirectoryNotEmptyException | java.nio.file.NoSuchFileException e) {
                if (tries == 10) {
                    throw e;
                }
            }
        }
    }

    /**
     * A folder made unwritable until closed: immutable ({@code chattr +i}) as root, for whom
     * permission bits do not count, else read-only by its mode.
     */
    static final class Unwritable {
        private final Path folder;
        private final boolean immutable;

        private Unwritable(Path folder, boolean immutable) {
            this.folder = folder;
            this.immutable = immutable;
        }

        static Unwritable make(Path folder) throws IOException {
            if (System.getProperty("user.name").equals("root")) {
                assumeThat(run("chattr", "+i", folder.toString())).as("chattr +i on %s", folder).isZero();
                return new Unwritable(folder, true);
            }
            Files.setPosixFilePermissions(folder, PosixFilePermissions.fromString("r-xr-xr-x"));
            return new Unwritable(folder, false);
        }

        void close() throws IOException {
            if (immutable) {
                assertThat(run("chattr", "-i", folder.toString())).isZero();
            } else {
                Files.setPosixFilePermissions(folder, PosixFilePermissions.fromString("rwxr-xr-x"));
            }
        }

        static int run(String... command) throws IOException {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            process.getInputStream().readAllBytes();
            try {
                return process.waitFor(30, TimeUnit.SECONDS) ? process.exitValue() : -1;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return -1;
            }
        }
    }
}
