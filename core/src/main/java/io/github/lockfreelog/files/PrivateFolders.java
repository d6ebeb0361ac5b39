package io.github.lockfreelog.files;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

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
    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rwx------");

    /** Opens refused since start because a folder was not the one checked ({@link #swapsRefused}). */
    private static final AtomicInteger SWAPS_REFUSED = new AtomicInteger();

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
                Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
            } else {
                Files.createDirectory(dir);
            }
        } catch (FileAlreadyExistsException e) {
            if (!Files.isDirectory(dir)) {
                throw e; // a file, or a dangling link: nothing to keep files in
            }
        }
    }

    /**
     * Checks the folder {@code dir}: the process's user's, and closed to others. A link at {@code dir} is followed only
     * where its own folder is private ({@link #isPrivate}): only this user can have put it there. In a folder that
     * others may write to, a link at the name is refused, never followed: without the sticky bit, another user may
     * rename this user's own folder ({@link #ownFolderIn}) away and put a link to any folder of this user's in its
     * place, between one start and a rebuild of the journal.
     */
    public static void check(Path dir) throws IOException {
        if (!isPosix(dir)) {
            return;
        }
        Path parent = dir.toAbsolutePath().getParent();
        if (Files.isSymbolicLink(dir) && parent != null && !isPrivate(parent)) {
            throw new UnsafeFolderException("the folder " + dir + describeLink(dir) + " is a symbolic link in " + parent
                    + ", which others may write to (mode " + mode(parent) + ", owner " + Files.getOwner(parent).getName()
                    + "): lockfreelog never follows it there, as another user may have put it; remove it and find out"
                    + " who made it, or set the journal to a folder of this user's own");
        }
        Look found = look(dir);
        UserPrincipal owner = found.owner();
        if (!found.mine()) {
            throw new UnsafeFolderException("the folder " + dir + describeLink(dir) + " is owned by " + owner.getName()
                    + ", not by " + ProcessUser.name() + " who runs this process: lockfreelog keeps its journals only in"
                    + " a folder of its own user; remove it, give it to " + ProcessUser.name()
                    + ", or set the journal elsewhere");
        }
        Set<PosixFilePermission> mode = found.permissions();
        if (mode.stream().anyMatch(OPEN::contains)) {
            throw new UnsafeFolderException("the folder " + dir + describeLink(dir) + " is open to others (mode "
                    + PosixFilePermissions.toString(mode) + "): others could plant files in it; lockfreelog keeps its"
                    + " journals only in a folder that group and others may not write to (chmod 700 " + dir + ")");
        }
        CheckedOpens.pin(dir, found.isDirectory() ? found.fileKey() : null); // every open in it is made in this folder
    }

    /** What one {@code stat} of a folder (a link followed) says: its owner, whether that is this user, its mode, its key. */
    private record Look(UserPrincipal owner, boolean mine, Set<PosixFilePermission> permissions, Object fileKey,
            boolean isDirectory) {
    }

    /** One look at {@code dir}, so that what is checked and what is pinned are of one and the same folder. */
    @SuppressWarnings("unchecked")
    private static Look look(Path dir) throws IOException {
        try {
            Map<String, Object> unix = Files.readAttributes(dir, "unix:uid,owner,permissions,fileKey,isDirectory");
            int uid = (Integer) unix.get("uid");
            UserPrincipal owner = (UserPrincipal) unix.get("owner");
            boolean mine = ProcessUser.knowsUid() ? ProcessUser.isSelf(uid) : owner.getName().equals(ProcessUser.name());
            return new Look(owner, mine, (Set<PosixFilePermission>) unix.get("permissions"), unix.get("fileKey"),
                    (Boolean) unix.get("isDirectory"));
        } catch (UnsupportedOperationException | IllegalArgumentException e) {
            PosixFileAttributes found = Files.readAttributes(dir, PosixFileAttributes.class); // no unix view
            return new Look(found.owner(), ProcessUser.owns(dir, found.owner()), found.permissions(), found.fileKey(),
                    found.isDirectory());
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
     * to it, or it is another user's, as {@code java.io.tmpdir} or a Kubernetes {@code emptyDir} of mode 0777 owned by
     * root is): {@code <base>-uid-<uid>}, a name that is this user's alone. It is created owner-only in one step
     * ({@code mkdir} with mode 0700, so it is never open to others for a moment), and whatever is found there is
     * checked without following a link: a folder, not a link, this user's, closed to others.
     *
     * <p>Another user may make something of that name first (a folder of theirs, a link, a file) to keep lockfreelog
     * from starting. That is never followed or used, and never stops a start: the folder is then the first of this
     * user's own, closed folders named {@code <base>-uid-<uid>-<random>} (by name, so every start of this user finds
     * the same one again, and with it what a crash left), created with a random name when there is none, which no one
     * can make first. {@link OwnFolder#taken} then says what held the name, to be said once.
     *
     * @throws UnsafeFolderException when this user's own folder of that name is open to others (only this user can
     *         have opened it: it is refused, with how to close it)
     */
    public static OwnFolder ownFolderIn(Path dir, String base) throws IOException {
        String name = base + "-" + ProcessUser.fileNameTag();
        Path own = dir.resolve(name);
        if (!isPosix(dir)) {
            Files.createDirectories(own);
            return new OwnFolder(own, null);
        }
        try {
            Files.createDirectory(own, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
        } catch (FileAlreadyExistsException e) {
            // made by an earlier start, or by someone else: checked below, without following a link
        }
        PosixFileAttributes found = Files.readAttributes(own, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        String taken = takenBy(own, found);
        if (taken == null) {
            if (found.permissions().stream().anyMatch(OPEN::contains)) {
                throw new UnsafeFolderException("the folder " + own + " is open to others (mode "
                        + PosixFilePermissions.toString(found.permissions()) + "): others could plant files in it; since"
                        + " others may write to " + dir + " (mode " + mode(dir) + ", owner " + Files.getOwner(dir).getName()
                        + "), lockfreelog keeps this user's journals there only in a folder of that name that is closed to"
                        + " others: chmod 700 " + own + " if you opened it yourself, else remove it");
            }
            CheckedOpens.pin(own, found.fileKey()); // checked without following a link: every open in it is made there
            return new OwnFolder(own, null);
        }
        String prefix = name + "-";
        Path other = firstOwn(dir, prefix);
        if (other == null) {
            Files.createTempDirectory(dir, prefix, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
            other = firstOwn(dir, prefix); // two starts at once each made one: both take the first by name
        }
        if (other == null) {
            throw new UnsafeFolderException("the folder made for this user's journals in " + dir + " cannot be found"
                    + " again (" + own + " " + taken + "); set the journal to a folder of this user's own");
        }
        return new OwnFolder(other, own + " " + taken);
    }

    /**
     * How many times since start a file was not opened, moved or deleted in a folder because the folder at its name
     * was no longer the one checked (a link or another folder swapped in since): a start that met one may try once
     * more, and then finds what took the name.
     */
    public static int swapsRefused() {
        return SWAPS_REFUSED.get();
    }

    /**
     * The refusal, counted, of {@code file} in the pinned {@code folder}, whose name no longer leads to the folder
     * checked ({@link CheckedOpens}): what is at the name now, and who could have put it there.
     */
    static UnsafeFolderException swapped(Path folder, Path file) {
        SWAPS_REFUSED.incrementAndGet();
        Object now = FileIdentity.of(folder);
        String what = Files.isSymbolicLink(folder) ? "a symbolic link (to " + linkTarget(folder) + ")"
                : Objects.equals(now, FileIdentity.ABSENT) ? "gone" : "another folder";
        return new UnsafeFolderException("the folder " + folder + " is no longer the folder lockfreelog checked: at its"
                + " name is now " + what + " (renamed and replaced since its check, by whoever may write to "
                + folder.getParent() + "); lockfreelog never opens " + file.getFileName() + " through it. Keep journal"
                + " folders out of folders that others may write to without the sticky bit");
    }

    private static String linkTarget(Path link) {
        try {
            return Files.readSymbolicLink(link).toString();
        } catch (IOException e) {
            return "?";
        }
    }

    /** This user as part of a folder's name: {@code uid-<uid>} (see {@link #ownFolderIn}). */
    public static String userTag() {
        return ProcessUser.fileNameTag();
    }

    /**
     * This user's own folder in a folder open to others ({@link #ownFolderIn}), and, when another user held its usual
     * name, what held it ({@code null} when nothing did).
     */
    public record OwnFolder(Path folder, String taken) {
    }

    /** What holds the name {@code own} if it is not this user's own folder (a link, a file, another's); else {@code null}. */
    private static String takenBy(Path own, PosixFileAttributes found) throws IOException {
        if (found.isSymbolicLink()) {
            return "is a symbolic link (to " + Files.readSymbolicLink(own) + ", owner " + found.owner().getName() + ")";
        }
        if (!found.isDirectory()) {
            return "is a file that is not a folder (owner " + found.owner().getName() + ")";
        }
        if (!ProcessUser.owns(own, found.owner(), LinkOption.NOFOLLOW_LINKS)) {
            return "is a folder of " + found.owner().getName() + ", not of " + ProcessUser.name() + " who runs this process";
        }
        return null;
    }

    /** The first, by name, of this user's own folders in {@code dir} closed to others whose name starts with {@code prefix}. */
    private static Path firstOwn(Path dir, String prefix) throws IOException {
        List<Path> names = new ArrayList<>();
        try (DirectoryStream<Path> found = Files.newDirectoryStream(dir, p -> p.getFileName().toString().startsWith(prefix))) {
            found.forEach(names::add);
        }
        Collections.sort(names);
        for (Path candidate : names) {
            PosixFileAttributes attributes;
            try {
                attributes = Files.readAttributes(candidate, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            } catch (IOException e) {
                continue; // gone meanwhile
            }
            if (attributes.isDirectory() && !attributes.isSymbolicLink()
                    && ProcessUser.owns(candidate, attributes.owner(), LinkOption.NOFOLLOW_LINKS)
                    && attributes.permissions().stream().noneMatch(OPEN::contains)) {
                CheckedOpens.pin(candidate, attributes.fileKey());
                return candidate;
            }
        }
        return null;
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
