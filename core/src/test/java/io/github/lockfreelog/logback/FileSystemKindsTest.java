package io.github.lockfreelog.logback;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.core.status.Status;
import ch.qos.logback.core.util.FileSize;
import io.github.lockfreelog.files.Mounts;
import io.github.lockfreelog.testing.TestAppenders;
import io.github.lockfreelog.testsupport.TestLogback;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * File systems this host cannot trust with journals and locks (NFS, SMB, FUSE mounts of buckets),
 * locks that fail outright (ENOLCK), and file systems without POSIX permissions or file keys
 * (Windows). None of them is here: {@link Mounts#replaceProbe} makes a folder of this test look like
 * one, and its locks fail as such a mount's do.
 */
class FileSystemKindsTest {

    private static final String ARCHIVE = "app\\.\\d{4}-\\d{2}-\\d{2}\\.\\d+\\.log(\\.gz)?";

    @TempDir
    Path tmp;

    private Path dir;
    private Path shared;
    private Path local;
    private final LoggerContext context = TestLogback.newContext();
    private final List<LockFreeFileAppender> appenders = new ArrayList<>();
    private Mounts.Restore fake;

    @BeforeEach
    void folders() throws IOException {
        dir = tmp.toRealPath();
        shared = Files.createDirectories(dir.resolve("shared"));
        local = Files.createDirectories(dir.resolve("local"));
    }

    @AfterEach
    void stop() {
        appenders.forEach(LockFreeFileAppender::stop);
        if (fake != null) {
            fake.close();
        }
    }

    /** Makes {@link #shared} look like a mount of {@code type}, with or without locks; with POSIX permissions and keys. */
    private void fake(String type, boolean locks) {
        fake(type, locks, true, true);
    }

    private void fake(String type, boolean locks, boolean posix, boolean fileKeys) {
        fake = Mounts.replaceProbe(new Mounts.Probe() {
            @Override
            public Mounts.Mount mount(Path folder) throws IOException {
                Mounts.Mount real = Mounts.Probe.super.mount(folder);
                return folder.startsWith(shared) ? new Mounts.Mount(folder, type, posix, fileKeys) : real;
            }

            @Override
            public FileLock tryLock(FileChannel channel, Path file) throws IOException {
                if (!locks && file.startsWith(shared)) {
                    throw new IOException("No locks available"); // what the JDK says for ENOLCK
                }
                return Mounts.Probe.super.tryLock(channel, file);
            }
        });
    }

    private LockFreeFileAppender create(Path log, java.util.function.Consumer<LockFreeFileAppender> settings) {
        LockFreeFileAppender appender = TestAppenders.create(context, log, settings);
        appenders.add(appender);
        return appender;
    }

    @ParameterizedTest
    @ValueSource(strings = {"nfs", "nfs4", "cifs", "smb3", "smbfs", "fuse.gcsfuse", "fuse.s3fs", "fuse.sshfs", "fuse",
            "9p", "ceph", "glusterfs", "fuse.glusterfs"})
    void fileSystemsThatHostsShareAreKnown(String type) {
        assertThat(new Mounts.Mount(dir, type, true, true).sharedAcrossHosts()).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"ext4", "xfs", "btrfs", "zfs", "tmpfs", "overlay", "fuse.fuse-overlayfs", "fuseblk", "unknown"})
    void localFileSystemsAreNot(String type) {
        assertThat(new Mounts.Mount(dir, type, true, true).sharedAcrossHosts()).isFalse();
    }

    /** The real probe reads this host's mount: the temporary folder is on a disk of this host. */
    @Test
    void theRealProbeNamesTheTypeOfTheFolder() throws IOException {
        Mounts.Mount mount = Mounts.of(dir.resolve("not/yet"));
        assertThat(mount.type()).isEqualTo(Files.getFileStore(dir).type());
        assertThat(mount.folder()).isEqualTo(dir.resolve("not/yet"));
        assertThat(mount.posix()).isTrue();
        assertThat(mount.fileKeys()).isTrue();
    }

    /**
     * A log folder on NFS and the journal left beside it: refused at start, naming the folder, its
     * file system and the setting; nothing is created there. Before: it started, and two hosts
     * writing the file both took slot 0.
     */
    @Test
    void aJournalBesideALogFileOnNfsIsRefused() throws Exception {
        fake("nfs4", true);
        LockFreeFileAppender refused = create(shared.resolve("app.log"), a -> { });
        refused.start();
        assertThat(refused.isStarted()).isFalse();
        assertThat(TestLogback.statusMessages(context, Status.ERROR)).singleElement().satisfies(m -> assertThat(m)
                .contains(shared.resolve(LockFreeFileAppender.JOURNAL_FOLDER).toString()).contains("nfs4")
                .contains("set journal").contains("for the appender named \"TEST\""));
        assertThat(shared.resolve(LockFreeFileAppender.JOURNAL_FOLDER)).doesNotExist();
    }

    /** A journal set explicitly on a FUSE mount of a bucket is refused the same way. */
    @Test
    void aJournalSetOnABucketIsRefused() {
        fake("fuse.gcsfuse", true);
        LockFreeFileAppender refused = create(local.resolve("app.log"), a -> a.setJournal(shared + "/j/app.journal"));
        refused.start();
        assertThat(refused.isStarted()).isFalse();
        assertThat(TestLogback.statusMessages(context, Status.ERROR)).singleElement().satisfies(m -> assertThat(m)
                .contains(shared.resolve("j").toString()).contains("fuse.gcsfuse").contains("set journal"));
    }

    /**
     * With its journal on local disk, a log file on NFS is written (one host writes it), and an
     * INFO says that processes on other hosts must each write a file of their own.
     */
    @Test
    void aLogFileOnNfsWithALocalJournalIsWritten() throws Exception {
        fake("nfs4", true);
        Path log = shared.resolve("app.log");
        LockFreeFileAppender appender = create(log, a -> a.setJournal(local + "/app.journal"));
        appender.start();
        assertThat(appender.isStarted()).as(TestLogback.statuses(context)).isTrue();
        for (int i = 0; i < 100; i++) {
            appender.doAppend(TestLogback.event(context, Level.INFO, "line " + i));
        }
        appender.stop();
        assertThat(TestLogback.lines(log)).containsExactlyElementsOf(
                IntStream.range(0, 100).mapToObj(i -> "line " + i).toList());
        assertThat(TestLogback.statusMessages(context, Status.INFO)).filteredOn(m -> m.contains("several hosts"))
                .singleElement().satisfies(m -> assertThat(m).contains(log.toString()).contains("nfs4")
                        .contains("other hosts"));
    }

    /**
     * A file system of unknown kind whose locks fail outright (ENOLCK): start is refused with a
     * message naming the folder, its file system and the setting. Before: a bare "No locks available".
     */
    @Test
    void journalLocksThatFailOutrightAreExplained() {
        fake("fuse.mystery", false);
        LockFreeFileAppender refused = create(shared.resolve("app.log"), a -> { });
        refused.start();
        assertThat(refused.isStarted()).isFalse();
        assertThat(TestLogback.statusMessages(context, Status.ERROR)).singleElement().satisfies(m -> assertThat(m)
                .contains("No locks available").contains(shared.resolve(LockFreeFileAppender.JOURNAL_FOLDER).toString())
                .contains("fuse.mystery").contains("set journal"));
    }

    /**
     * A log file on NFS whose locks fail outright (ENOLCK), its journal local: the file rolls all
     * the same, without the roll lock, and one WARN says so and what it takes. Before: every roll
     * failed, and the file never rolled. Every line is in the live file or an archive, once, in order.
     */
    @ParameterizedTest
    @ValueSource(strings = {"", ".gz"})
    void aLogFileWhoseLocksFailOutrightRollsAllTheSame(String compression) throws Exception {
        fake("nfs", false);
        Path log = shared.resolve("app.log");
        Path archive = shared.resolve("archive");
        LockFreeFileAppender appender = create(log, a -> {
            a.setJournal(local + "/app.journal");
            a.setFileNamePattern(archive + "/app.%d{yyyy-MM-dd}.%i.log" + compression);
            a.setMaxFileSize(FileSize.valueOf("16KB"));
        });
        appender.start();
        assertThat(appender.isStarted()).as(TestLogback.statuses(context)).isTrue();
        int lines = 5_000;
        for (int i = 0; i < lines; i++) {
            appender.doAppend(TestLogback.event(context, Level.INFO, String.format("line %06d", i)));
        }
        await().atMost(Duration.ofSeconds(20)).until(() -> finished(archive, compression) >= 2);
        appender.stop();
        List<String> all = new ArrayList<>();
        for (Path rolled : archives(archive)) {
            assertThat(rolled.getFileName().toString()).as("compressed, nothing left half done").endsWith(".log"
                    + compression);
            all.addAll(compression.isEmpty() ? TestLogback.lines(rolled) : gunzip(rolled));
        }
        all.addAll(TestLogback.lines(log));
        assertThat(all).containsExactlyElementsOf(
                IntStream.range(0, lines).mapToObj(i -> String.format("line %06d", i)).toList());
        assertThat(TestLogback.statusMessages(context, Status.ERROR)).as("no roll failed").isEmpty();
        assertThat(TestLogback.statusMessages(context, Status.WARN)).filteredOn(m -> m.contains("roll lock"))
                .singleElement().satisfies(m -> assertThat(m).contains("No locks available")
                        .contains(shared.resolve(LockFreeFileAppender.JOURNAL_FOLDER).toString()).contains("nfs")
                        .contains(log.toString()));
        if (!compression.isEmpty()) {
            assertThat(TestLogback.statusMessages(context, Status.WARN)).filteredOn(m -> m.startsWith("compressing"))
                    .singleElement().satisfies(m -> assertThat(m).contains("without a lock").contains("No locks available")
                            .contains(archive.toString()).contains("nfs"));
        }
    }

    /**
     * The real probe reads the kernel's mount table: a tmpfs mounted inside the test's folder is
     * named as such, and it is a disk of this host, so an appender starts there. Root only.
     */
    @Test
    void aRealTmpfsMountIsNamedAndLocal() throws Exception {
        assumeThat(System.getProperty("user.name")).as("only root can mount").isEqualTo("root");
        Path mounted = Files.createDirectories(dir.resolve("tmpfs"));
        assumeThat(run("mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", mounted.toString())).as("mount").isZero();
        try {
            assertThat(Mounts.of(mounted.resolve("logs/.lockfreelog")).type()).isEqualTo("tmpfs");
            assertThat(Mounts.of(mounted).sharedAcrossHosts()).isFalse();
            assertThat(Mounts.of(dir).type()).isEqualTo(Files.getFileStore(dir).type()).isNotEqualTo("tmpfs");
            Path log = mounted.resolve("logs/app.log");
            LockFreeFileAppender appender = create(log, a -> { });
            appender.start();
            assertThat(appender.isStarted()).as(TestLogback.statuses(context)).isTrue();
            appender.doAppend(TestLogback.event(context, Level.INFO, "on tmpfs"));
            appender.stop();
            assertThat(TestLogback.lines(log)).containsExactly("on tmpfs");
        } finally {
            run("umount", mounted.toString());
        }
    }

    private static int run(String... command) throws IOException, InterruptedException {
        return new ProcessBuilder(command).inheritIO().start().waitFor();
    }

    /**
     * Without POSIX permissions or file keys (Windows, some FUSE mounts) the owner-only folder rules
     * and the identity checks cannot apply: one INFO at start names them and the folder. Before:
     * they were skipped without a word.
     */
    @Test
    void checksThatCannotApplyAreNamedOnceAtStart() throws Exception {
        fake("fuse.mystery", true, false, false);
        Path log = shared.resolve("app.log");
        LockFreeFileAppender appender = create(log, a -> { });
        appender.start();
        assertThat(appender.isStarted()).as(TestLogback.statuses(context)).isTrue();
        assertThat(TestLogback.statusMessages(context, Status.INFO)).filteredOn(m -> m.contains("cannot apply"))
                .singleElement().satisfies(m -> assertThat(m).contains(shared.toString()).contains("fuse.mystery")
                        .contains("owner-only").contains("identity").contains("for the appender named \"TEST\""));
    }

    /** On a disk of this host with POSIX permissions and keys nothing of the kind is said. */
    @Test
    void aLocalDiskGetsNoWord() throws Exception {
        LockFreeFileAppender appender = create(local.resolve("app.log"), a -> { });
        appender.start();
        assertThat(appender.isStarted()).as(TestLogback.statuses(context)).isTrue();
        assertThat(TestLogback.statusMessages(context, Status.INFO))
                .noneMatch(m -> m.contains("cannot apply") || m.contains("several hosts"));
    }

    /** How many archives are complete: named {@code app.<date>.<i>.log<compression>}. */
    private static long finished(Path folder, String compression) throws IOException {
        if (!Files.isDirectory(folder)) {
            return 0;
        }
        try (Stream<Path> files = Files.list(folder)) {
            return files.filter(a -> a.getFileName().toString().matches(ARCHIVE) && a.toString().endsWith(".log"
                    + compression)).count();
        }
    }

    /** Every file of the archive folder, which must all be complete archives, in the order rolled. */
    private static List<Path> archives(Path folder) throws IOException {
        if (!Files.isDirectory(folder)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(folder)) {
            List<Path> all = files.toList();
            assertThat(all).as("archives, nothing left half done").allSatisfy(a -> assertThat(a.getFileName().toString())
                    .matches(ARCHIVE));
            return all.stream().sorted((a, b) -> Integer.compare(index(a), index(b))).toList();
        }
    }

    /** The {@code %i} of an archive named {@code app.<date>.<i>.log} or {@code app.<date>.<i>.log.gz}. */
    private static int index(Path archive) {
        String[] parts = archive.getFileName().toString().replace(".gz", "").split("\\.");
        return Integer.parseInt(parts[parts.length - 2]);
    }

    private static List<String> gunzip(Path archive) throws IOException {
        try (InputStream in = new GZIPInputStream(Files.newInputStream(archive))) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        }
    }
}
