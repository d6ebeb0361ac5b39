package io.github.lockfreelog.logback;

import ch.qos.logback.core.spi.ContextAware;
import io.github.lockfreelog.files.FileClaims;
import io.github.lockfreelog.files.FileIdentity;
import io.github.lockfreelog.files.Mounts;
import io.github.lockfreelog.files.PrivateFolders;
import io.github.lockfreelog.journal.JournalSlots;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

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

    /** The journal that was set ({@code journal}), as a real path; not created here. */
    static Path journalOf(String journal) {
        // not created here: its folder is made owner-only, or checked, before anything is put in it
        return FileIdentity.canonical(Paths.get(journal.trim()));
    }

    /**
     * The default journal of {@code logFile} (a real path): the first slot's file in the hidden folder beside it
     * ({@link JournalSlots#hiddenFolder}: {@code .lockfreelog}, or this user's own folder where others may write to
     * the log's folder). The log's folder is made first, so that its mode, which decides, is the one it keeps.
     *
     * @return the journal, or {@code null} when the folders cannot be made (reported)
     */
    Path defaultJournal(Path logFile, String suffix) {
        Path dir = logFile.getParent();
        try {
            Files.createDirectories(dir);
            Mounts.requireLocal(dir.resolve(JournalSlots.JOURNAL_FOLDER)); // before anything is created there
            PrivateFolders.OwnFolder hidden = JournalSlots.hiddenFolder(logFile);
            warnIfTaken(hidden, suffix);
            return hidden.folder().resolve(logFile.getFileName() + ".journal");
        } catch (PrivateFolders.UnsafeFolderException e) {
            appender.addError("Refused " + e.getMessage() + suffix);
        } catch (IOException | RuntimeException e) {
            appender.addError(cannotCreate(dir, "journal", suffix, e));
        }
        return null;
    }

    /**
     * Says, once, at WARN, that another user held the name of this user's own folder ({@link PrivateFolders#ownFolderIn})
     * and where the journals went instead.
     */
    void warnIfTaken(PrivateFolders.OwnFolder own, String suffix) {
        if (own.taken() != null) {
            appender.addWarn("The name " + own.taken() + suffix + ": lockfreelog never follows or uses it, and keeps this"
                    + " user's journals in " + own.folder() + " instead, which every start of this user finds again;"
                    + " remove it and find out who made it, or set the journal to a folder of this user's own");
        }
    }

    /**
     * Where a journal that was set explicitly goes: into its folder when that folder is this user's and closed to
     * others (or is not there yet: it is then created so), else into this user's own folder inside it
     * ({@link PrivateFolders#ownFolderIn}), as a Kubernetes {@code emptyDir} (mode 0777, owned by root) needs; that
     * is said once, at INFO.
     *
     * @return the journal file to use, or {@code null} when its folder was refused or cannot hold it (reported)
     */
    Path placeJournal(Path journalFile, String suffix) {
        Path dir = journalFile.getParent();
        try {
            if (!Files.isDirectory(dir) || PrivateFolders.isPrivate(dir)) {
                return journalFile;
            }
            Mounts.requireLocal(dir); // before anything is created there
            PrivateFolders.OwnFolder own = PrivateFolders.ownFolderIn(dir, JournalSlots.JOURNAL_FOLDER);
            appender.addInfo("The journal's folder " + dir + " is open to others or not this user's (mode "
                    + PrivateFolders.mode(dir) + ", owner " + Files.getOwner(dir).getName() + ")" + suffix
                    + ": the journal is kept in " + own.folder() + ", a folder of this user's own, closed to others");
            warnIfTaken(own, suffix);
            return own.folder().resolve(journalFile.getFileName());
        } catch (PrivateFolders.UnsafeFolderException e) {
            appender.addError("Refused " + e.getMessage() + suffix);
        } catch (IOException | RuntimeException e) {
            appender.addError(cannotCreate(dir, "journal", suffix, e));
        }
        return null;
    }

    /** Why a folder cannot be made, with what to do about it. */
    private static String cannotCreate(Path folder, String what, String suffix, Exception e) {
        String mode;
        try {
            Path found = folder;
            while (found != null && !Files.isDirectory(found)) {
                found = found.getParent();
            }
            mode = found == null ? "" : " (" + found + " is mode " + PrivateFolders.mode(found) + ", owner "
                    + Files.getOwner(found).getName() + ")";
        } catch (IOException | RuntimeException ignored) {
            mode = "";
        }
        return "Cannot create the directory " + folder + suffix + ": " + e + mode + ": the user running this process"
                + " may not write there (a read-only root file system, or a volume it may not write to): make the folder"
                + " writable for this user (a volume mounted there; in Kubernetes, fsGroup or runAsUser), or set the "
                + what + " to a folder it may write";
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

    /**
     * Says at start, once, what the file systems of the log file ({@code null}: none) and the journal mean here:
     * a log file on a file system that several hosts may mount is for the processes of one host; and a folder
     * without POSIX permissions or file keys (Windows, some FUSE mounts) is one where the owner-only rules or the
     * identity checks cannot apply, which are named.
     */
    void describeFileSystems(Path logFile, Path journalFile, String suffix) {
        List<Path> folders = new ArrayList<>();
        if (logFile != null) {
            Mounts.Mount log = Mounts.of(logFile.getParent());
            if (log.sharedAcrossHosts()) {
                appender.addInfo("The log file " + logFile + " is on a file system that several hosts may mount ("
                        + log.type() + ")" + suffix + ": processes of this host may share it, each with a journal of its"
                        + " own on a local disk; processes on other hosts must each write a file of their own, since appends"
                        + " from two hosts are not atomic there and their roll locks may not see each other");
            }
            folders.add(logFile.getParent());
        }
        if (!folders.contains(journalFile.getParent())) {
            folders.add(journalFile.getParent());
        }
        List<Mounts.Mount> noPermissions = new ArrayList<>();
        List<Mounts.Mount> noKeys = new ArrayList<>();
        for (Path folder : folders) {
            Mounts.Mount mount = Mounts.of(folder);
            if (!mount.posix()) {
                noPermissions.add(mount);
            }
            if (!mount.fileKeys()) {
                noKeys.add(mount);
            }
        }
        List<String> cannotApply = new ArrayList<>();
        if (!noPermissions.isEmpty()) {
            cannotApply.add("the owner-only rules, as " + names(noPermissions) + " no POSIX permissions (the journal's"
                    + " folder is not checked to be this user's and closed to others; files get the folder's defaults)");
        }
        if (!noKeys.isEmpty()) {
            cannotApply.add("the identity checks, as " + names(noKeys) + " no file keys (a file reached by a second"
                    + " path, or replaced under its name, is not recognised: keep one path to each log file and journal)");
        }
        if (!cannotApply.isEmpty()) {
            appender.addInfo("These checks cannot apply" + suffix + ": " + String.join("; ", cannotApply));
        }
    }

    private static String names(List<Mounts.Mount> mounts) {
        return mounts.stream().map(Mounts.Mount::toString).collect(Collectors.joining(" and ")) + (mounts.size() == 1
                ? " has" : " have");
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
                Mounts.requireLocal(dir); // before anything is created there
                PrivateFolders.ensure(dir); // the journal's folder: the process's user's, closed to others
            } else {
                Files.createDirectories(dir);
            }
        } catch (PrivateFolders.UnsafeFolderException e) {
            appender.addError("Refused " + e.getMessage() + suffix);
            return false;
        } catch (IOException | RuntimeException e) {
            appender.addError(cannotCreate(dir, ownerOnly ? "journal" : "log file", suffix, e));
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
