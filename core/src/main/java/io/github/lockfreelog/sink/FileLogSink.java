package io.github.lockfreelog.sink;

import io.github.lockfreelog.diagnostics.StatusReporter;
import io.github.lockfreelog.files.FileIdentity;
import io.github.lockfreelog.files.SafeFiles;
import io.github.lockfreelog.files.Uninterruptible;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Objects;
import java.util.Set;

/**
 * The log file, opened for appending: every write lands at the file's current end, so when an
 * outside tool truncates the file (logrotate's {@code copytruncate}) writing goes on at the new
 * end with no gap of NUL bytes, and other processes may append to the same file between our writes.
 *
 * <p>The file is followed by name: before each write ({@link #follow}) the name is looked up, and
 * when it stands for another file than the one open (another instance rolled it, an operator moved
 * or deleted it, or deleted its folder), the name is opened again, its folder created again if it
 * is gone, so later writes go to the live file. It compares the open file's key (device and inode)
 * with the name's, which costs a {@code stat} per write (at most one write a millisecond). Where the
 * file system has no file keys the file is never reopened.
 *
 * <p><b>Links.</b> A log file that is a symbolic link at start stays one, as Logback allows: it is
 * written through, as long as it points where it pointed at start. A link found at the name later
 * (planted after the file was renamed away, or repointed) is never followed: it is moved aside as
 * {@code <name>.bad-<time>} (the link, never its target), an ERROR status names it and its target,
 * and a plain file takes the name.
 *
 * <p><b>Another user at the name.</b> A new file is created with {@code O_EXCL} and the mode of the file it replaces
 * from its first moment; a file found at the name is opened only when it is a regular file of this process's user or
 * of the user who owned the log at start. A FIFO, a device, a folder, or a file of another user is never opened: the
 * write fails with an error that names it, events wait in the journal (its backpressure applies once it is full), and
 * writing resumes once it is gone ({@link SafeFiles#openLiveFile}).
 *
 * <p>An interrupt of the writing thread makes the JDK close the channel for good
 * ({@link ClosedByInterruptException}), even when the write itself completed. This sink then
 * clears the interrupt, reopens the file in append mode and says so
 * ({@link InterruptedWriteException}); the drainer ({@code DrainLog}) finds out by content how much of the write
 * landed, so an interrupt never costs or repeats a byte.
 *
 * <p>Once closed, the sink stays closed: every later call that would write or reopen the file
 * fails with {@link LogClosedException} (a drainer that outlived a stop which timed out must not
 * write after {@code stop()} returned). A write under way when it is closed from another thread
 * ends first (the JDK waits for it), and counts what it wrote.
 */
public final class FileLogSink implements LogSink {

    private final Path file;
    private final StatusReporter status;
    /** Where the name pointed at start, if it was a link then; {@code null} if it was not. */
    private final Path linkAtStart;
    /** Taken by {@link #reopen} and {@link #close}, so that no file is opened after the sink is closed. */
    private final Object opening = new Object();
    private volatile boolean closed;
    private FileChannel channel;
    /** The same file, open for reading: appending and reading need two descriptors. */
    private FileChannel reader;
    private final ByteBuffer lastByte = ByteBuffer.allocate(1);
    /** Key of the open file, or {@code null} where the file system has none. */
    private Object key;
    /** The mode a new file at the name gets: that of the file last opened ({@code null}: the umask's default). */
    private Set<PosixFilePermission> mode;
    /** Who owned the log when this sink first opened it; a file of another user is never opened. {@code -1}: unknown. */
    private int ownerUid;

    /**
     * Opens {@code file} (a real path: see {@link FileIdentity#realFile}), creating it and its
     * folder if they are missing; reports refused links to {@code status}.
     */
    public FileLogSink(Path file, StatusReporter status) throws IOException {
        this(file, status, null, -1);
    }

    /**
     * As {@link #FileLogSink(Path, StatusReporter)}, for the file that follows one rolled away: a new file is created
     * with {@code mode} ({@code null}: the umask's default), and an existing one opened only when it is a regular file
     * of this process's user or of {@code ownerUid} ({@code -1}: any).
     */
    public FileLogSink(Path file, StatusReporter status, Set<PosixFilePermission> mode, int ownerUid) throws IOException {
        this.file = file;
        this.status = status;
        this.linkAtStart = Files.isSymbolicLink(file) ? Files.readSymbolicLink(file) : null;
        this.mode = mode;
        this.ownerUid = ownerUid;
        openByName();
    }

    /** Who owned the log when this sink first opened it (the owner a file at the name must have); {@code -1}: unknown. */
    public int ownerUid() {
        return ownerUid;
    }

    /**
     * Opens the file and learns its key. A file has no name of its own for Java to ask about, so
     * the name is looked up before and after opening it; when both name the same file, that is
     * the file opened (another instance may rename or create the file at the same moment).
     */
    private void openByName() throws IOException {
        Uninterruptible.call(() -> {
            for (int tries = 0;; tries++) {
                refuseNewLink();
                Object before = key();
                FileChannel opened = open();
                FileChannel reading;
                try {
                    reading = openForReading();
                } catch (NoSuchFileException e) {
                    opened.close();
                    if (tries == 3) {
                        throw e;
                    }
                    continue; // another instance rolled the name away between the two opens: open it again
                } catch (IOException | RuntimeException e) {
                    opened.close();
                    throw e;
                }
                Object after = key();
                if ((before != FileIdentity.ABSENT && Objects.equals(before, after)) || tries == 3) {
                    key = after;
                    channel = opened;
                    reader = reading;
                    learnOwnerAndMode();
                    return null;
                }
                opened.close();
                reading.close();
            }
        });
    }

    private FileChannel openForReading() throws IOException {
        return SafeFiles.openLiveFile(file, linkAtStart != null, ownerUid, StandardOpenOption.READ);
    }

    /** After an open: the owner a later file at the name must have (the first file's), and the mode a new one gets. */
    private void learnOwnerAndMode() {
        LinkOption[] how = linkAtStart != null ? new LinkOption[0] : new LinkOption[] {LinkOption.NOFOLLOW_LINKS};
        try {
            if (ownerUid < 0) {
                ownerUid = SafeFiles.uid(file, how);
            }
            if (FileIdentity.of(file) != null) { // a file system with POSIX permissions and file keys
                mode = Files.getPosixFilePermissions(file, how);
            }
        } catch (IOException | RuntimeException e) {
            // renamed away this very moment: the next open learns them
        }
    }

    /** Moves a link aside that was not at the name at start (or points elsewhere now); see the class comment. */
    private void refuseNewLink() throws IOException {
        if (!Files.isSymbolicLink(file)) {
            return;
        }
        Path target = Files.readSymbolicLink(file);
        if (target.equals(linkAtStart)) {
            return;
        }
        Path aside = SafeFiles.moveAside(file);
        status.error("the log file " + file + " was replaced by a symbolic link to " + target + ", which was not there"
                + " when the appender started: lockfreelog never writes through it; moved the link to " + aside
                + " and went on in a new plain file " + file, null);
    }

    private FileChannel open() throws IOException {
        try {
            return openOrCreate();
        } catch (NoSuchFileException e) {
            Path folder = file.getParent();
            if (folder == null || Files.isDirectory(folder)) {
                throw e;
            }
            Files.createDirectories(folder); // deleted while we ran: the log comes back where it was
            return openOrCreate();
        }
    }

    /**
     * A new file at the name, created with the log's mode at once; else the file there, opened only when it is a
     * regular file of this user or of the log's first owner, never a FIFO ({@link SafeFiles#openLiveFile}).
     */
    private FileChannel openOrCreate() throws IOException {
        for (int tries = 0;; tries++) {
            if (linkAtStart == null) {
                try {
                    return SafeFiles.createLiveFile(file, mode);
                } catch (FileAlreadyExistsException e) {
                    // there already (another instance made it, or someone else did): checked before it is opened
                }
            } else if (!Files.exists(file)) { // the link kept from start points nowhere: made anew, as Logback would
                return FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
            }
            try {
                return SafeFiles.openLiveFile(file, linkAtStart != null, ownerUid, StandardOpenOption.WRITE,
                        StandardOpenOption.APPEND);
            } catch (NoSuchFileException e) {
                if (tries == 3 || (file.getParent() != null && !Files.isDirectory(file.getParent()))) {
                    throw e;
                }
                // another instance rolled the name away between the two looks: create it, or open its newer file
            }
        }
    }

    /** The key of what the name stands for: of the link's target for a link kept from start, else of the name itself. */
    private Object key() {
        return linkAtStart != null ? FileIdentity.ofTarget(file) : FileIdentity.of(file);
    }

    /**
     * Whether the name still stands for the open file (also when that cannot be told). Costs a
     * {@code stat}.
     */
    public boolean isLive() {
        if (key == null) {
            return true;
        }
        Object current = FileIdentity.observe(file, linkAtStart != null, attributes -> {
            if (attributes.fileKey() != null && attributes.fileKey().equals(key)) {
                mode = attributes.permissions(); // the mode the live file has now: a file that replaces it gets it
            }
        });
        return current == null || (current != FileIdentity.ABSENT && current.equals(key));
    }

    /** Closes the open file and opens the name again; see {@link #follow}. */
    public void reopen() throws IOException {
        synchronized (opening) { // the drainer and stop() only (reopen or close the file); never on an append
            if (closed) {
                throw new LogClosedException(file.toString());
            }
            FileChannel old = channel;
            FileChannel oldReader = reader;
            openByName();
            old.close();
            oldReader.close();
        }
    }

    @Override
    public boolean follow() throws IOException {
        if (key == null || isLive()) {
            return false;
        }
        reopen();
        return true;
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
        if (closed) {
            throw new LogClosedException(file.toString());
        }
        if (!channel.isOpen()) {
            reopen();
        }
        try {
            return channel.write(src);
        } catch (ClosedByInterruptException e) {
            Thread.interrupted();
            reopen();
            throw new InterruptedWriteException(e);
        } catch (ClosedChannelException e) {
            if (closed) {
                throw new LogClosedException(file.toString(), e); // closed from another thread meanwhile
            }
            throw e;
        }
    }

    @Override
    public boolean endsMidLine() throws IOException {
        return Uninterruptible.call(() -> {
            if (!reader.isOpen()) {
                reopen();
            }
            long size = reader.size();
            if (size == 0) {
                return false;
            }
            lastByte.clear();
            return reader.read(lastByte, size - 1) == 1 && lastByte.get(0) != '\n';
        });
    }

    @Override
    public int landed(long from, long until, ByteBuffer expected) throws IOException {
        try (FileChannel reading = openForReading()) {
            return LandedBytes.find(reading, from, until, expected);
        }
    }

    @Override
    public long size() throws IOException {
        return Uninterruptible.call(() -> {
            if (!channel.isOpen()) {
                reopen();
            }
            return channel.size();
        });
    }

    @Override
    public void close() throws IOException {
        synchronized (opening) { // the drainer and stop() only (reopen or close the file); never on an append
            closed = true;
            try {
                channel.close();
            } finally {
                reader.close();
            }
        }
    }
}
