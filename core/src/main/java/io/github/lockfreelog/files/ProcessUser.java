package io.github.lockfreelog.files;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.UserPrincipal;

/**
 * The user this process runs as, to compare with the owner of a folder. Where {@code /proc} is
 * present its numeric id is compared (it also holds for a container's user with no name);
 * elsewhere the name in {@code user.name}.
 */
final class ProcessUser {

    private static final Path SELF = Path.of("/proc/self/");
    private static final int UID = uid();

    private ProcessUser() {
    }

    private static int uid() {
        try {
            return (Integer) Files.getAttribute(SELF, "unix:uid");
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    static String name() {
        return System.getProperty("user.name");
    }

    /**
     * This user as part of a file name that only this user's processes use: {@code uid-<number>} where the numeric
     * id is known (a container's user may have no name), else {@code user-<name>}.
     */
    static String fileNameTag() {
        return UID >= 0 ? "uid-" + UID : "user-" + String.valueOf(name()).replaceAll("[^A-Za-z0-9._-]", "_");
    }

    /** Whether this process's numeric user id is known ({@code /proc} is there). */
    static boolean knowsUid() {
        return UID >= 0;
    }

    /** Whether {@code uid} is this process's user's numeric id (where it is known). */
    static boolean isSelf(int uid) {
        return UID >= 0 && uid == UID;
    }

    /** Whether the owner of {@code path}, {@code owner}, is this process's user; {@code options}: how to read it. */
    static boolean owns(Path path, UserPrincipal owner, LinkOption... options) throws IOException {
        if (UID >= 0) {
            try {
                return (Integer) Files.getAttribute(path, "unix:uid", options) == UID;
            } catch (UnsupportedOperationException | IllegalArgumentException e) {
                // no unix view on this file system: compare names below
            }
        }
        return owner.getName().equals(name());
    }
}
