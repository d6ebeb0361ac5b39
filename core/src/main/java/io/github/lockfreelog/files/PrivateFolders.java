package io.github.lockfreelog.files;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.Set;

/**
 * Folders that hold lockfreelog's own files (journals, locks): they must belong to the process's
 * user and be closed to others, since whoever may write to such a folder can plant files and links
 * in it, and journals hold the log's content. A folder created here is owner-only
 * ({@code rwx------}); one found (or reached through a link) that is not the process's user's, or
 * that group or others may write to, is refused with an {@link UnsafeFolderException} naming it.
 * On a file system without POSIX permissions nothing is checked.
 */
public final class PrivateFolders {

    private static final Set<PosixFilePermission> OPEN = Set.of(PosixFilePermission.GROUP_WRITE,
            PosixFilePermission.OTHERS_WRITE);

    private PrivateFolders() {
    }

    /** A folder that lockfreelog refuses to keep its files in. */
    public static final class UnsafeFolderException extends IOException {
        private static final long serialVersionUID = 1L;

        UnsafeFolderException(String message) {
            super(message);
        }
    }

    /**
     * Creates {@code dir} owner-only (its missing parents as {@link Files#createDirectories} would),
     * or checks the folder found there; see the class comment.
     *
     * @throws UnsafeFolderException when the folder found is not the process's user's or is open to others
     */
    public static void ensure(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            create(dir);
        }
        check(dir);
    }

    private static void create(Path dir) throws IOException {
        Path parent = dir.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        try {
            if (isPosix(dir)) {
                Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            } else {
                Files.createDirectory(dir);
            }
        } catch (FileAlreadyExistsException e) {
            if (!Files.isDirectory(dir)) {
                throw e; // a file, or a dangling link: nothing to keep files in
            }
        }
    }

    /** Checks the folder {@code dir} (following a link to it): the process's user's, and closed to others. */
    public static void check(Path dir) throws IOException {
        if (!isPosix(dir)) {
            return;
        }
        UserPrincipal owner = Files.getOwner(dir);
        if (!ProcessUser.owns(dir, owner)) {
            throw new UnsafeFolderException("the folder " + dir + describeLink(dir) + " is owned by " + owner.getName()
                    + ", not by " + ProcessUser.name() + " who runs this process: lockfreelog keeps its journals only in"
                    + " a folder of its own user; remove it, give it to " + ProcessUser.name()
                    + ", or set the journal elsewhere");
        }
        Set<PosixFilePermission> mode = Files.getPosixFilePermissions(dir);
        if (mode.stream().anyMatch(OPEN::contains)) {
            throw new UnsafeFolderException("the folder " + dir + describeLink(dir) + " is open to others (mode "
                    + PosixFilePermissions.toString(mode) + "): others could plant files in it; lockfreelog keeps its"
                    + " journals only in a folder that group and others may not write to (chmod 700 " + dir + ")");
        }
    }

    private static String describeLink(Path dir) {
        try {
            return Files.isSymbolicLink(dir) ? " (a link to " + Files.readSymbolicLink(dir) + ")" : "";
        } catch (IOException e) {
            return "";
        }
    }

    static boolean isPosix(Path path) {
        return path.getFileSystem().supportedFileAttributeViews().contains("posix");
    }
}
