package io.github.lockfreelog.files;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Opening files without following links, and what to do with a link planted where lockfreelog
 * keeps a file of its own: it is never followed, and moved aside (never what it points to).
 * Files lockfreelog creates for itself are owner-only.
 */
public final class SafeFiles {

    private static final FileAttribute<Set<PosixFilePermission>> OWNER_ONLY =
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"));

    private SafeFiles() {
    }

    /**
     * Opens {@code path} with {@code options}, never following a symbolic link at {@code path}; in a folder that
     * {@link PrivateFolders} checked, in that very folder ({@link CheckedOpens}).
     */
    public static FileChannel open(Path path, OpenOption... options) throws IOException {
        return CheckedOpens.open(path, new HashSet<>(Arrays.asList(withNoFollow(options))));
    }

    /**
     * Opens, or creates owner-only ({@code rw-------}), {@code path}, never following a link at it; in a folder that
     * {@link PrivateFolders} checked, in that very folder ({@link CheckedOpens}).
     */
    public static FileChannel openOwnerOnly(Path path, OpenOption... options) throws IOException {
        Set<OpenOption> all = new HashSet<>(Arrays.asList(withNoFollow(options)));
        if (PrivateFolders.isPosix(path)) {
            return CheckedOpens.open(path, all, OWNER_ONLY);
        }
        return CheckedOpens.open(path, all);
    }

    /**
     * Creates the live log file {@code file} and opens it for appending: {@code O_CREAT|O_EXCL}, so it never opens a
     * file that someone else made at the name meanwhile (nor a FIFO, nor through a link), with {@code mode} from the
     * first moment ({@code null}: the umask's default), so it is never open wider than the log it replaces; then given
     * exactly {@code mode}, which the umask may have narrowed.
     *
     * @throws java.nio.file.FileAlreadyExistsException when something is at the name: see {@link #openLiveFile}
     */
    public static FileChannel createLiveFile(Path file, Set<PosixFilePermission> mode) throws IOException {
        Set<OpenOption> options = Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE, StandardOpenOption.APPEND,
                LinkOption.NOFOLLOW_LINKS);
        if (mode == null || !PrivateFolders.isPosix(file)) {
            return FileChannel.open(file, options);
        }
        FileChannel created = FileChannel.open(file, options, PosixFilePermissions.asFileAttribute(mode));
        try {
            setPermissions(file, mode); // the umask may have narrowed it: only ever widened to the log's own
        } catch (IOException e) {
            // it stays narrower than the log's mode: safe, and the log is written all the same
        }
        return created;
    }

    /**
     * Opens the live log file {@code file} that is there already (made by another instance, or an operator), with
     * {@code options} ({@link StandardOpenOption#WRITE} and {@link StandardOpenOption#APPEND}, or
     * {@link StandardOpenOption#READ}), only when it is a regular file of this process's user or of {@code ownerUid}
     * (the user who owned the log when the appender started; {@code -1}: any): a FIFO is never opened, as its open
     * would block until someone reads it, nor a device, a folder or a socket; and the log is never written into a file
     * of another user, who could read and change it. What takes the name between that check and the open (in a folder
     * others may write to without the sticky bit) cannot block the caller either, and is refused when it is a FIFO or a
     * socket ({@link CheckedOpens}). A link at the name is followed only with {@code followLink} (a
     * log that was a link at start), and then the file it reaches is checked.
     *
     * @throws RefusedLiveFileException naming what was found, its owner and what to do
     */
    public static FileChannel openLiveFile(Path file, boolean followLink, int ownerUid, OpenOption... options)
            throws IOException {
        LinkOption[] how = followLink ? new LinkOption[0] : new LinkOption[] {LinkOption.NOFOLLOW_LINKS};
        if (PrivateFolders.isPosix(file)) {
            PosixFileAttributes found = Files.readAttributes(file, PosixFileAttributes.class, how);
            if (!found.isRegularFile()) {
                throw new RefusedLiveFileException("the log file " + file + " is " + kind(found) + " of "
                        + found.owner().getName() + ", not a regular file: lockfreelog never opens it (a FIFO would stall"
                        + " the writer until someone reads it, and takes what it reads); events wait in the journal until"
                        + " it is removed");
            }
            int uid = uid(file, how);
            if (uid >= 0 && ownerUid >= 0 && uid != ownerUid && !ProcessUser.isSelf(uid)) {
                throw new RefusedLiveFileException("the log file " + file + " is owned by " + found.owner().getName()
                        + " (uid " + uid + "), neither by this process's user nor by uid " + ownerUid + ", who owned the"
                        + " log when the appender started: lockfreelog never writes its log into a file another user may"
                        + " read and change; events wait in the journal until it is removed (find out who made it)");
            }
        }
        Consumer<Path> race = betweenCheckAndOpen;
        if (race != null) {
            race.accept(file);
        }
        // what took the name since the check cannot block the open, nor be written if it is a FIFO
        return CheckedOpens.openUnblocked(file, new HashSet<>(Arrays.asList(followLink ? options : withNoFollow(options))));
    }

    /**
     * Deletes the file {@code path}, a link at it not followed; in a journal folder, in the folder checked
     * ({@link CheckedOpens}).
     */
    public static void delete(Path path) throws IOException {
        CheckedOpens.delete(path);
    }

    /**
     * Renames {@code from} to {@code to} in the same folder, atomically, links not followed; in a journal folder, in
     * the folder checked ({@link CheckedOpens}).
     */
    public static void rename(Path from, Path to) throws IOException {
        CheckedOpens.move(from, to);
    }

    /**
     * Runs between the check of a live log file and its open ({@link #openLiveFile}), where tests make a co-tenant's
     * swap at a chosen moment; {@code null} but in those tests.
     */
    static volatile Consumer<Path> betweenCheckAndOpen;

    /** The numeric owner of {@code path}, or {@code -1} where the file system does not tell it. */
    public static int uid(Path path, LinkOption... how) throws IOException {
        try {
            return (Integer) Files.getAttribute(path, "unix:uid", how);
        } catch (UnsupportedOperationException | IllegalArgumentException e) {
            return -1;
        }
    }

    /** Whether {@code path} (a link not followed) is known to belong to another user than this process's. */
    public static boolean isOtherUsers(Path path) throws IOException {
        int uid = uid(path, LinkOption.NOFOLLOW_LINKS);
        return uid >= 0 && ProcessUser.knowsUid() && !ProcessUser.isSelf(uid);
    }

    private static String kind(PosixFileAttributes found) {
        return found.isDirectory() ? "a folder" : found.isSymbolicLink() ? "a symbolic link"
                : found.isOther() ? "a FIFO, socket or device" : "not a regular file";
    }

    /** A live log file that lockfreelog will not open: not a regular file, or another user's. */
    public static final class RefusedLiveFileException extends IOException {
        private static final long serialVersionUID = 1L;

        RefusedLiveFileException(String message) {
            super(message);
        }
    }

    private static OpenOption[] withNoFollow(OpenOption... options) {
        OpenOption[] all = new OpenOption[options.length + 1]; // not copyOf: the caller's array may be narrower
        System.arraycopy(options, 0, all, 0, options.length);
        all[options.length] = LinkOption.NOFOLLOW_LINKS;
        return all;
    }

    /**
     * If {@code path} is a symbolic link, moves the link (never what it points to) aside, reports it
     * to {@code error} (naming it and its target), and returns {@code true}.
     */
    public static boolean refuseLink(Path path, Consumer<String> error) throws IOException {
        if (!Files.isSymbolicLink(path)) {
            return false;
        }
        Path target = Files.readSymbolicLink(path);
        Path aside = moveAside(path);
        error.accept("refused the symbolic link " + path + " (to " + target + ") where lockfreelog keeps its own file;"
                + " moved the link to " + aside + " and created a plain file instead");
        return true;
    }

    /**
     * Renames {@code file} (a damaged journal, a planted link) to {@code <name>.bad-<time>} beside it; in a journal
     * folder, in the folder checked ({@link CheckedOpens}).
     */
    public static Path moveAside(Path file) throws IOException {
        String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss-SSS"));
        Path aside = file.resolveSibling(file.getFileName() + ".bad-" + stamp);
        CheckedOpens.move(file, aside); // in the folder checked, when it is a journal's
        return aside;
    }

    /**
     * Makes the file {@code path} owner-only, whatever mode it had, by name: {@code chmod(2)}, which
     * opens no descriptor, so it may be used on a file this process holds locked (closing any
     * descriptor of it would release the lock). For a file the caller has made sure is no link (it
     * opened it without following one).
     */
    public static void makeOwnerOnlyByName(Path path) throws IOException {
        if (PrivateFolders.isPosix(path)) {
            Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("rw-------"));
        }
    }

    /**
     * Gives {@code to} the permissions of {@code from} (an archive those of the file it was rolled
     * from), links at either not followed; nothing where the file system has no POSIX permissions.
     */
    public static void copyPermissions(Path from, Path to) throws IOException {
        if (!PrivateFolders.isPosix(from)) {
            return;
        }
        setPermissions(to, Files.getPosixFilePermissions(from, LinkOption.NOFOLLOW_LINKS));
    }

    /** The permissions of {@code path} (a link not followed), or {@code null} where they cannot be told. */
    public static Set<PosixFilePermission> permissionsOf(Path path) {
        try {
            return PrivateFolders.isPosix(path) ? Files.getPosixFilePermissions(path, LinkOption.NOFOLLOW_LINKS) : null;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private static void setPermissions(Path path, Set<PosixFilePermission> permissions) throws IOException {
        PosixFileAttributeView view = Files.getFileAttributeView(path, PosixFileAttributeView.class,
                LinkOption.NOFOLLOW_LINKS);
        if (view != null) {
            view.setPermissions(permissions);
        }
    }

    /**
     * Makes the names in {@code folder} durable (a rename or a delete in it): forces the folder itself, where the
     * platform lets a folder be opened (Linux, macOS); elsewhere nothing.
     */
    public static void syncFolder(Path folder) {
        try (FileChannel channel = FileChannel.open(folder, StandardOpenOption.READ)) {
            channel.force(true);
        } catch (IOException | RuntimeException e) {
            // a folder cannot be opened or forced here (Windows): the rename stands, unforced
        }
    }
}
