package io.github.lockfreelog.files;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFileAttributes;
import java.util.function.Consumer;

/**
 * What a path names: the file's key (device and inode, {@link BasicFileAttributes#fileKey()}), the
 * one thing that stays the same when the file is renamed and differs when another file takes its
 * name. A link at the end of a path is never followed here unless asked for: the key is then the
 * link's own.
 */
public final class FileIdentity {

    /** The key of a name that stands for no file (also when a folder on its way is missing). */
    public static final Object ABSENT = new Object() {
        @Override
        public String toString() {
            return "(absent)";
        }
    };

    private FileIdentity() {
    }

    /**
     * The key of what {@code path} names, a link at its end not followed; {@link #ABSENT}; or
     * {@code null} when the file system cannot tell (it has no file keys, or the look-up failed).
     */
    public static Object of(Path path) {
        return key(path, LinkOption.NOFOLLOW_LINKS);
    }

    /** As {@link #of}, but following links: the key of the file a link points to. */
    public static Object ofTarget(Path path) {
        return key(path);
    }

    /**
     * As {@link #of} ({@link #ofTarget} with {@code followLink}), in the same look-up handing the file's POSIX
     * attributes to {@code seen} when it is there and the file system has them (one {@code stat} for both).
     */
    public static Object observe(Path path, boolean followLink, Consumer<PosixFileAttributes> seen) {
        LinkOption[] options = followLink ? new LinkOption[0] : new LinkOption[] {LinkOption.NOFOLLOW_LINKS};
        if (!PrivateFolders.isPosix(path)) {
            return key(path, options);
        }
        try {
            PosixFileAttributes attributes = Files.readAttributes(path, PosixFileAttributes.class, options);
            seen.accept(attributes);
            return attributes.fileKey();
        } catch (NoSuchFileException | NotDirectoryException e) {
            return ABSENT;
        } catch (FileSystemException e) {
            return isMissingFolder(e) ? ABSENT : null;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private static Object key(Path path, LinkOption... options) {
        try {
            return Files.readAttributes(path, BasicFileAttributes.class, options).fileKey();
        } catch (NoSuchFileException | NotDirectoryException e) {
            return ABSENT;
        } catch (FileSystemException e) {
            return isMissingFolder(e) ? ABSENT : null;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private static boolean isMissingFolder(FileSystemException e) {
        String reason = e.getReason();
        return reason != null && (reason.contains("No such file") || reason.contains("Not a directory"));
    }

    /**
     * Whether {@code path} (a link at its end not followed) names the file of {@code key}; also
     * {@code true} when that cannot be told on this file system.
     */
    public static boolean names(Path path, Object key) {
        if (key == null) {
            return true;
        }
        if (key == ABSENT) {
            return false; // a file that was gone when it was looked at names nothing we hold
        }
        Object now = of(path);
        return now == null || key.equals(now);
    }

    /**
     * The real path of {@code folder} (every link on its way resolved, as it is now), created first
     * if it is missing. Where identity matters, a folder is known by this path from start on, so a
     * link on its way that is swapped later never redirects what is written.
     */
    public static Path realFolder(Path folder) throws IOException {
        Path absolute = folder.toAbsolutePath().normalize();
        Files.createDirectories(absolute);
        return absolute.toRealPath();
    }

    /**
     * The path by which to compare {@code file} with others: its folder's real path (links on the
     * way resolved) and its own name, or its absolute, normalised path while its folder does not
     * exist. Creates nothing.
     */
    public static Path canonical(Path file) {
        Path absolute = file.toAbsolutePath().normalize();
        Path folder = absolute.getParent();
        if (folder == null) {
            return absolute;
        }
        try {
            return folder.toRealPath().resolve(absolute.getFileName());
        } catch (IOException e) {
            return absolute;
        }
    }

    /**
     * The real path of the file {@code file}: its folder's real path and its own name (the file
     * itself, which may be a link, is not resolved). The folder is created if it is missing.
     */
    public static Path realFile(Path file) throws IOException {
        Path absolute = file.toAbsolutePath().normalize();
        Path folder = absolute.getParent();
        return folder == null ? absolute : realFolder(folder).resolve(absolute.getFileName());
    }
}
