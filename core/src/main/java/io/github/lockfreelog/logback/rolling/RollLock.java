package io.github.lockfreelog.logback.rolling;

import io.github.lockfreelog.diagnostics.StatusReporter;
import io.github.lockfreelog.files.Mounts;
import io.github.lockfreelog.files.SharedFileLock;
import io.github.lockfreelog.journal.JournalSlots;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * The lock that every instance writing one log file holds while it rolls it: it checks that the live file is still
 * the one it writes, renames it and opens the next one, so two instances never both rename it. Where the file system
 * has no locks at all (ENOLCK), rolls go on without it, after one WARN that says when that is safe.
 */
final class RollLock {

    /** How long a roll waits for another process's roll before it fails (and is tried again later). */
    static final long WAIT_NANOS = TimeUnit.SECONDS.toNanos(5);

    private RollLock() {
    }

    /** The roll lock file of {@code logFile} (a real path): {@code <log folder>/.lockfreelog/<log file name>.roll.lock}, in the folder {@link JournalSlots#hiddenFolder} chooses. */
    static Path fileOf(Path logFile) {
        return JournalSlots.hiddenFolderOf(logFile).resolve(logFile.getFileName() + ".roll.lock");
    }

    /** Opens the roll lock of {@code logFile}. */
    static SharedFileLock open(Path logFile, StatusReporter status) throws IOException {
        Path lockFile = fileOf(logFile);
        return SharedFileLock.open(lockFile, WAIT_NANOS, noLocks -> status.warn("the roll lock " + lockFile
                + " cannot be taken: " + Mounts.noLocksIn(lockFile.getParent()) + "; the log file " + logFile
                + " rolls without it, which is safe while no other process writes " + logFile + "; for several"
                + " processes to write it, mount its folder with working locks (NFS: with its lock service running,"
                + " not with nolock)", noLocks));
    }
}
