package io.github.lockfreelog.journal;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;

/**
 * The files the engine owns beside the log (the journal, its lock) live in a folder that others
 * may be able to write to. They are opened without following symbolic links, so a link planted at
 * their path can never make the engine create or overwrite the file it points to; such a link is
 * moved aside, as a damaged journal is. Folders the engine creates for them are owner-only.
 */
public final class SafeFiles {

    private SafeFiles() {
    }

    /** Opens {@code path} with {@code options}, never following a symbolic link at {@code path}. */
    public static FileChannel open(Path path, OpenOption... options) throws IOException {
        OpenOption[] all = Arrays.copyOf(options, options.length + 1);
        all[options.length] = LinkOption.NOFOLLOW_LINKS;
        return FileChannel.open(path, all);
    }

    /**
     * Creates {@code dir} and its missing parents; where the file system supports it, the last
     * folder, if created here, is readable and writable by its owner only.
     */
    public static void createPrivateDirectories(Path dir) throws IOException {
        if (dir == null || Files.isDirectory(dir)) {
            return;
        }
        Path parent = dir.getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        try {
            if (dir.getFileSystem().supportedFileAttributeViews().contains("posix")) {
                Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            } else {
                Files.createDirectory(dir);
            }
        } catch (FileAlreadyExistsException e) {
            if (!Files.isDirectory(dir)) {
                throw e;
            }
        }
    }

    /**
     * If {@code path} is a symbolic link, moves the link (never what it points to) aside and says
     * so; returns whether it did.
     */
    public static boolean refuseLink(Path path, StatusReporter status) throws IOException {
        if (!Files.isSymbolicLink(path)) {
            return false;
        }
        Path target = Files.readSymbolicLink(path);
        Path aside = moveAside(path);
        status.error("refused the symbolic link " + path + " (to " + target + ") where lockfreelog keeps its own file;"
                + " moved the link to " + aside + " and created a plain file instead", null);
        return true;
    }

    /** Renames {@code file} (a damaged journal, a planted link) to {@code <name>.bad-<time>} beside it. */
    public static Path moveAside(Path file) throws IOException {
        String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss-SSS"));
        Path aside = file.resolveSibling(file.getFileName() + ".bad-" + stamp);
        return Files.move(file, aside, StandardCopyOption.ATOMIC_MOVE, LinkOption.NOFOLLOW_LINKS);
    }
}
