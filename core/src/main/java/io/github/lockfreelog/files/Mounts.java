package io.github.lockfreelog.files;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Set;

/**
 * What the file system under a folder is, and what it can be trusted with. lockfreelog's journals
 * are memory-mapped and owned through file locks ({@code JournalLock}): both hold only among the
 * processes of one host. On a file system that hosts share (NFS, SMB, a FUSE mount of a bucket) a
 * second host's process neither sees the map's writes in time nor, where locks are local or
 * absent ({@code nolock}, {@code local_lock=}, {@code nobrl}), the lock: it would recover and
 * rebuild a journal that the first one still writes. Which of these mounts honour locks across
 * hosts cannot be told from one host, so every one is refused for journals ({@link #requireLocal}).
 *
 * <p>How a folder is looked at goes through one {@link Probe}, which tests replace to fake a file
 * system this host does not have ({@link #replaceProbe}).
 */
public final class Mounts {

    /** File system types, as Linux names them, that several hosts may mount at once. */
    private static final Set<String> SHARED = Set.of("nfs", "nfs4", "cifs", "smb3", "smbfs", "smb2", "9p", "ceph",
            "glusterfs", "lustre", "gpfs", "beegfs", "afs", "davfs", "ncpfs", "coda", "orangefs", "pvfs2", "fuse");
    /** FUSE file systems (type {@code fuse.<name>}) that reach a server or a bucket. */
    private static final Set<String> SHARED_FUSE = Set.of("gcsfuse", "s3fs", "sshfs", "rclone", "goofys",
            "mountpoint-s3", "blobfuse", "blobfuse2", "juicefs", "ceph-fuse", "glusterfs", "s3ql", "geesefs",
            "objectivefs", "seaweedfs", "alluxio-fuse", "davfs2", "lizardfs", "mfs");
    /** The message of the {@link IOException} that a lock ends in where the file system has none (ENOLCK). */
    private static final String NO_LOCKS = "No locks available";

    private static volatile Probe probe = new Probe() { };

    private Mounts() {
    }

    /** The file system of a folder, as {@link Mounts#of} found it. */
    public record Mount(Path folder, String type, boolean posix, boolean fileKeys) {

        /** Whether other hosts may mount it too (see the class comment); an unknown plain FUSE mount counts. */
        public boolean sharedAcrossHosts() {
            return SHARED.contains(type) || (type.startsWith("fuse.") && SHARED_FUSE.contains(type.substring(5)));
        }

        @Override
        public String toString() {
            return folder + " (file system " + type + ")";
        }
    }

    /** How a folder's file system is looked at, and how a file is locked on it. */
    public interface Probe {

        /** The file system of {@code folder}, which exists. */
        default Mount mount(Path folder) throws IOException {
            FileStore store = Files.getFileStore(folder);
            boolean posix = PrivateFolders.isPosix(folder) && store.supportsFileAttributeView("posix");
            Object key = Files.readAttributes(folder, BasicFileAttributes.class).fileKey();
            return new Mount(folder, store.type(), posix, key != null);
        }

        /** {@link FileChannel#tryLock()} on {@code channel}, open on {@code file}. */
        default FileLock tryLock(FileChannel channel, Path file) throws IOException {
            return channel.tryLock();
        }
    }

    /** Undoes {@link #replaceProbe}. */
    public interface Restore extends AutoCloseable {
        @Override
        void close();
    }

    /**
     * Looks at folders and locks files through {@code replacement} until the returned handle is
     * closed: for tests, which fake a file system this host does not have.
     */
    public static Restore replaceProbe(Probe replacement) {
        Probe before = probe;
        probe = replacement;
        return () -> probe = before;
    }

    /**
     * The file system of {@code folder}, or of its nearest folder that exists; type {@code unknown},
     * with permissions and keys assumed, when it cannot be looked at.
     */
    public static Mount of(Path folder) {
        Path existing = folder.toAbsolutePath().normalize();
        while (existing.getParent() != null && !Files.isDirectory(existing)) {
            existing = existing.getParent();
        }
        try {
            Mount found = probe.mount(existing);
            return new Mount(folder, found.type(), found.posix(), found.fileKeys());
        } catch (IOException | RuntimeException e) {
            return new Mount(folder, "unknown", true, true);
        }
    }

    /**
     * Refuses {@code folder} for journals and their locks when other hosts may mount its file
     * system, naming it, its type and the setting that moves the journal.
     *
     * @throws PrivateFolders.UnsafeFolderException when it is such a file system
     */
    public static void requireLocal(Path folder) throws PrivateFolders.UnsafeFolderException {
        Mount mount = of(folder);
        if (mount.sharedAcrossHosts()) {
            throw new PrivateFolders.UnsafeFolderException("the folder " + mount.folder() + " is on " + mount.type()
                    + ", a file system that several hosts may mount: lockfreelog keeps its journals and their locks only on a disk of this"
                    + " host, since neither a journal's memory map nor its locks hold across hosts there; set journal"
                    + " to a path on a local disk; the log file may stay on " + mount.type() + ", written from this host"
                    + " only");
        }
    }

    /** Locks {@code file} through {@code channel}, as {@link FileChannel#tryLock()}; the probe's, for tests. */
    static FileLock tryLock(FileChannel channel, Path file) throws IOException {
        return probe.tryLock(channel, file);
    }

    /** Whether {@code e} says that the file system has no locks to give (ENOLCK). */
    public static boolean noLocks(IOException e) {
        String message = e.getMessage();
        return message != null && message.contains(NO_LOCKS);
    }

    /** What to say when the file system of {@code folder} has no locks (ENOLCK): names it, its type and the way out. */
    public static String noLocksIn(Path folder) {
        return "file locks are not available (" + NO_LOCKS + ") in the folder " + of(folder);
    }
}
