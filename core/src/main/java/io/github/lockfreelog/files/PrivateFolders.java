package io.github.lockfreelog.files;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
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

    /**
     * Whether {@code dir} (a link to it followed) may hold journals as it is: this user's and closed to others, or on
     * a file system without POSIX permissions. A folder for which this is {@code false} may still hold them in this
     * user's own folder inside it ({@link #ownFolderIn}).
     */
    public static boolean isPrivate(Path dir) throws IOException {
        return !isPosix(dir) || (ProcessUser.owns(dir, Files.getOwner(dir))
                && Files.getPosixFilePermissions(dir).stream().noneMatch(OPEN::contains));
    }

    /**
     * This user's own folder inside {@code dir}, a folder that is not private ({@link #isPrivate}: others may write
     * to it, or it is another user's, as a Kubernetes {@code emptyDir} of mode 0777 owned by root is), as
     * {@code java.io.tmpdir} holds the default journals. Its name, {@code .lockfreelog-uid-<uid>}, is this user's
     * alone: a folder of that name that another user made first is theirs, and refused. It is created owner-only in
     * one step ({@code mkdir} with mode 0700, so it is never open to others for a moment), and whatever is found there
     * is checked without following a link: a folder, not a link, this user's, closed to others. Others cannot plant
     * files in it; in {@code dir} they may still rename it away when {@code dir} has no sticky bit, and the
     * check runs again before each file is created in it ({@link #ensure}).
     *
     * @throws UnsafeFolderException when the name is taken by a link, a file, another user's folder or an open one
     */
    public static Path ownFolderIn(Path dir) throws IOException {
        Path own = dir.resolve(".lockfreelog-" + ProcessUser.fileNameTag());
        try {
            Files.createDirectory(own, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        } catch (FileAlreadyExistsException e) {
            // made by an earlier start, or by someone else: checked below, without following a link
        }
        PosixFileAttributes found = Files.readAttributes(own, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        String why = "; since others may write to " + dir + " (mode " + mode(dir) + ", owner "
                + Files.getOwner(dir).getName() + "), lockfreelog keeps this user's journals there only in a folder of that"
                + " name that is this user's own and closed to others: ";
        String taken = why + "remove " + own + " and find out who made it, or set the journal elsewhere";
        if (found.isSymbolicLink()) {
            throw new UnsafeFolderException("the folder " + own + " is a symbolic link (to " + Files.readSymbolicLink(own)
                    + "), never followed" + taken);
        }
        if (!found.isDirectory()) {
            throw new UnsafeFolderException("the name " + own + " is taken by a file that is not a folder" + taken);
        }
        if (!ProcessUser.owns(own, found.owner(), LinkOption.NOFOLLOW_LINKS)) {
            throw new UnsafeFolderException("the folder " + own + " is owned by " + found.owner().getName() + ", not by "
                    + ProcessUser.name() + " who runs this process" + taken);
        }
        if (found.permissions().stream().anyMatch(OPEN::contains)) {
            throw new UnsafeFolderException("the folder " + own + " is open to others (mode "
                    + PosixFilePermissions.toString(found.permissions()) + "): others could plant files in it" + why
                    + "chmod 700 " + own + " if you opened it yourself, else remove it");
        }
        return own;
    }

    /** The mode of {@code dir} as {@code ls -l} shows it, sticky bit included ({@code rwxrwxrwt}). */
    public static String mode(Path dir) throws IOException {
        String mode = PosixFilePermissions.toString(Files.getPosixFilePermissions(dir));
        try {
            if (((Integer) Files.getAttribute(dir, "unix:mode") & 01000) != 0) {
                return mode.substring(0, 8) + (mode.charAt(8) == 'x' ? 't' : 'T');
            }
        } catch (UnsupportedOperationException | IllegalArgumentException e) {
            // no unix view: the sticky bit is not known
        }
        return mode;
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
