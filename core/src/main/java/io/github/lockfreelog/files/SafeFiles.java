package io.github.lockfreelog.files;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFileAttributeView;
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

    /** Opens {@code path} with {@code options}, never following a symbolic link at {@code path}. */
    public static FileChannel open(Path path, OpenOption... options) throws IOException {
        return FileChannel.open(path, withNoFollow(options));
    }

    /** Opens, or creates owner-only ({@code rw-------}), {@code path}, never following a link at it. */
    public static FileChannel openOwnerOnly(Path path, OpenOption... options) throws IOException {
        Set<OpenOption> all = new HashSet<>(Arrays.asList(withNoFollow(options)));
        if (PrivateFolders.isPosix(path)) {
            return FileChannel.open(path, all, OWNER_ONLY);
        }
        return FileChannel.open(path, all);
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

    /** Renames {@code file} (a damaged journal, a planted link) to {@code <name>.bad-<time>} beside it. */
    public static Path moveAside(Path file) throws IOException {
        String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss-SSS"));
        Path aside = file.resolveSibling(file.getFileName() + ".bad-" + stamp);
        return Files.move(file, aside, StandardCopyOption.ATOMIC_MOVE, LinkOption.NOFOLLOW_LINKS);
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
