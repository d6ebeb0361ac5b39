package io.github.lockfreelog.logback.rolling;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Renames a file, never onto a name that is taken: a clash ({@link java.nio.file.FileAlreadyExistsException}) is
 * reported by the caller, where replacing would lose the file that had the name. On one file system the rename is
 * atomic ({@code rename(2)}); where they differ (an archive folder on another mount) the file is copied and deleted.
 * The look for the name and the rename are two steps: the callers keep others from taking the name between them
 * (the roll lock, the lock on a compression's source).
 */
final class FileMove {

    private FileMove() {
    }

    static void move(Path from, Path to) throws IOException {
        Files.move(from, to);
    }
}
