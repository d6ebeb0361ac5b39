package io.github.lockfreelog.logback;

import ch.qos.logback.core.spi.ContextAware;
import io.github.lockfreelog.files.FileClaims;
import io.github.lockfreelog.files.FileIdentity;
import io.github.lockfreelog.files.PrivateFolders;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

/**
 * Claims an appender's log file (if it has one) and journal for it alone and checks that it may write both: while it runs, no
 * other appender of the JVM uses either, by any path ({@link FileClaims}). Problems go to the appender's status.
 */
final class AppenderFiles {

    private final ContextAware appender;
    /** The claims held: the log file and, when set explicitly, the journal. */
    private final List<FileClaims.Claim> claims = new ArrayList<>();

    AppenderFiles(ContextAware appender) {
        this.appender = appender;
    }

    /**
     * The journal for {@code logFile}: {@code journal} when set, else the first slot's file in the hidden folder
     * beside the log file.
     */
    static Path journalOf(Path logFile, String journal) {
        if (journal != null && !journal.isBlank()) {
            // not created here: its folder is made owner-only, or checked, before anything is put in it
            return FileIdentity.canonical(Paths.get(journal));
        }
        return logFile.resolveSibling(LockFreeAppenderBase.JOURNAL_FOLDER).resolve(logFile.getFileName() + ".journal");
    }

    /**
     * Claims the log file and, with {@code claimJournal}, the journal, then checks that both folders exist (the
     * journal's closed to other users) and that both files may be written.
     *
     * @return whether all went well; if not, each problem was reported and nothing stays claimed
     */
    boolean claim(Path logFile, Path journalFile, boolean claimJournal, String name, String suffix) {
        if (!claim(logFile, "log file", "<file>", name, suffix)
                || (claimJournal && !claim(journalFile, "journal", "<journal>", name, suffix))) {
            release();
            return false;
        }
        if (!checkWritable(logFile, false, suffix) || !checkWritable(journalFile, true, suffix)) {
            release();
            return false;
        }
        return true;
    }

    /**
     * Claims the journal alone (an appender without a log file: the console), then checks that its folder
     * exists, closed to other users, and that it may be written.
     *
     * @return whether all went well; if not, each problem was reported and nothing stays claimed
     */
    boolean claimJournal(Path journalFile, String name, String suffix) {
        if (!claim(journalFile, "journal", "<journal>", name, suffix) || !checkWritable(journalFile, true, suffix)) {
            release();
            return false;
        }
        return true;
    }

    /** Gives back every claim held; nothing when none is. */
    void release() {
        claims.forEach(FileClaims.Claim::close);
        claims.clear();
    }

    /** Claims {@code path} for the appender; reports the appender that holds it already. */
    private boolean claim(Path path, String what, String setting, String name, String suffix) {
        FileClaims.Result result = FileClaims.claim(path, name);
        if (result.claim() == null) {
            appender.addError("The " + what + " " + path + " is already used by the appender named \"" + result.heldBy()
                    + "\"" + " (by this path or another one to the same file)" + suffix + ": give each appender its own "
                    + setting);
            return false;
        }
        claims.add(result.claim());
        return true;
    }

    private boolean checkWritable(Path target, boolean ownerOnly, String suffix) {
        Path dir = target.getParent();
        try {
            if (ownerOnly) {
                PrivateFolders.ensure(dir); // the journal's folder: the process's user's, closed to others
            } else {
                Files.createDirectories(dir);
            }
        } catch (PrivateFolders.UnsafeFolderException e) {
            appender.addError("Refused " + e.getMessage() + suffix);
            return false;
        } catch (IOException | RuntimeException e) {
            appender.addError("Cannot create the directory " + dir + suffix + ": " + e);
            return false;
        }
        if (!Files.isWritable(dir) || (Files.exists(target, LinkOption.NOFOLLOW_LINKS) && !Files.isSymbolicLink(target)
                && !Files.isWritable(target))) {
            appender.addError("Cannot write " + target + suffix + ": check the permissions of " + dir);
            return false;
        }
        return true;
    }
}
