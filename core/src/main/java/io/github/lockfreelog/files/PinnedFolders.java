package io.github.lockfreelog.files;

import io.github.lockfreelog.files.PrivateFolders.UnsafeFolderException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.FileAttribute;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * The folders that {@link PrivateFolders} checked, each known by the identity it had when checked (its file key:
 * device and inode), and the opens of files in them, made in that very folder. A name is looked up anew at each
 * open, so a folder renamed away after its check, and a link or another folder put at its name (by another user, in
 * a folder others may write to without the sticky bit), would take the open elsewhere. Here the folder is opened
 * first and its identity compared with the one checked; the file is then opened in the folder opened
 * ({@code openat(2)}, through the JDK's {@link SecureDirectoryStream}, which Linux has), never by its path, so
 * nothing can come between them. Where the JDK has no such stream, the folder's identity is compared before and
 * after the open instead. A folder that is not the one checked is refused with an {@link UnsafeFolderException}
 * that names it; a check of the folder ({@link PrivateFolders#ensure}) pins it anew.
 */
final class PinnedFolders {

    /** The file key of each folder checked, by its absolute, normalised path. */
    private static final Map<Path, Object> PINNED = new ConcurrentHashMap<>();

    /**
     * Runs before a file is opened in a pinned folder (given the folder), where tests make a co-tenant's swap between
     * the check and the open; {@code null} but in those tests.
     */
    static volatile Consumer<Path> betweenCheckAndOpen;

    private PinnedFolders() {
    }

    /** Pins {@code folder}, just checked, to the file key {@code key} it had then ({@code null}: none known). */
    static void pin(Path folder, Object key) {
        Path name = folder.toAbsolutePath().normalize();
        if (key == null) {
            PINNED.remove(name);
        } else {
            PINNED.put(name, key);
        }
    }

    /**
     * Opens {@code file} with {@code options} (which must not follow a link) and {@code attributes}: in the folder
     * checked, when its folder is pinned; else by its path.
     *
     * @throws UnsafeFolderException when the folder at the name is not the one checked
     */
    static FileChannel open(Path file, Set<OpenOption> options, FileAttribute<?>... attributes) throws IOException {
        Path absolute = file.toAbsolutePath().normalize();
        Path folder = absolute.getParent();
        Object pinned = folder == null ? null : PINNED.get(folder);
        if (pinned == null) {
            return FileChannel.open(file, options, attributes);
        }
        Consumer<Path> race = betweenCheckAndOpen;
        if (race != null) {
            race.accept(folder);
        }
        try (DirectoryStream<Path> opened = Files.newDirectoryStream(folder)) {
            if (opened instanceof SecureDirectoryStream<Path> secure) {
                Object key = secure.getFileAttributeView(BasicFileAttributeView.class).readAttributes().fileKey();
                if (!pinned.equals(key)) {
                    throw replaced(folder, absolute);
                }
                SeekableByteChannel channel = secure.newByteChannel(absolute.getFileName(), options, attributes);
                if (channel instanceof FileChannel fileChannel) {
                    return fileChannel;
                }
                channel.close(); // not a FileChannel on this JDK: opened by path below
            }
        }
        if (!pinned.equals(FileIdentity.ofTarget(folder))) {
            throw replaced(folder, absolute);
        }
        FileChannel channel = FileChannel.open(file, options, attributes);
        if (!pinned.equals(FileIdentity.ofTarget(folder))) {
            channel.close();
            throw replaced(folder, absolute);
        }
        return channel;
    }

    /**
     * Renames {@code from} to {@code to}, a name in the same folder, links not followed: in the folder checked, when
     * that folder is pinned ({@code renameat(2)}); else by path.
     *
     * @throws UnsafeFolderException when the folder at the name is not the one checked
     */
    static void move(Path from, Path to) throws IOException {
        Path absolute = from.toAbsolutePath().normalize();
        Path folder = absolute.getParent();
        Object pinned = folder == null ? null : PINNED.get(folder);
        if (pinned != null && folder.equals(to.toAbsolutePath().normalize().getParent())) {
            try (DirectoryStream<Path> opened = Files.newDirectoryStream(folder)) {
                if (opened instanceof SecureDirectoryStream<Path> secure) {
                    if (!pinned.equals(secure.getFileAttributeView(BasicFileAttributeView.class).readAttributes()
                            .fileKey())) {
                        throw replaced(folder, absolute);
                    }
                    secure.move(absolute.getFileName(), secure, to.getFileName());
                    return;
                }
            }
        }
        Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, LinkOption.NOFOLLOW_LINKS);
    }

    /**
     * Deletes the file {@code file} (a link not followed): in the folder checked, when that folder is pinned
     * ({@code unlinkat(2)}); else by path.
     *
     * @throws UnsafeFolderException when the folder at the name is not the one checked
     */
    static void delete(Path file) throws IOException {
        Path absolute = file.toAbsolutePath().normalize();
        Path folder = absolute.getParent();
        Object pinned = folder == null ? null : PINNED.get(folder);
        if (pinned != null) {
            try (DirectoryStream<Path> opened = Files.newDirectoryStream(folder)) {
                if (opened instanceof SecureDirectoryStream<Path> secure) {
                    if (!pinned.equals(secure.getFileAttributeView(BasicFileAttributeView.class).readAttributes()
                            .fileKey())) {
                        throw replaced(folder, absolute);
                    }
                    secure.deleteFile(absolute.getFileName());
                    return;
                }
            }
        }
        Files.delete(file);
    }

    private static UnsafeFolderException replaced(Path folder, Path file) {
        Object now = FileIdentity.of(folder);
        String what = Files.isSymbolicLink(folder) ? "a symbolic link (to " + target(folder) + ")"
                : Objects.equals(now, FileIdentity.ABSENT) ? "gone" : "another folder";
        return new UnsafeFolderException("the folder " + folder + " is no longer the folder lockfreelog checked: at its"
                + " name is now " + what + " (renamed and replaced since its check, by whoever may write to "
                + folder.getParent() + "); lockfreelog never opens " + file.getFileName() + " through it. Keep journal"
                + " folders out of folders that others may write to without the sticky bit");
    }

    private static String target(Path link) {
        try {
            return Files.readSymbolicLink(link).toString();
        } catch (IOException e) {
            return "?";
        }
    }
}
