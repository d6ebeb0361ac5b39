/**
 * The file-system rules of lockfreelog, one home each: what a path names ({@link
 * io.github.lockfreelog.files.FileIdentity}: device and inode, never the string), the locks this
 * JVM holds, known by the file they lock ({@link io.github.lockfreelog.files.LockedFile},
 * {@link io.github.lockfreelog.files.SharedFileLock}), which appender of the JVM uses which file
 * ({@link io.github.lockfreelog.files.FileClaims}), folders owned by the process's user and not open
 * to others ({@link io.github.lockfreelog.files.PrivateFolders}), opening without following links
 * ({@link io.github.lockfreelog.files.SafeFiles}), the retry when an interrupt closed a channel
 * ({@link io.github.lockfreelog.files.Uninterruptible}), and what a folder's file system can be
 * trusted with: journals and locks only on a disk of this host, and which checks cannot apply
 * where it has no POSIX permissions or file keys ({@link io.github.lockfreelog.files.Mounts}).
 *
 * <p>Operators sweep old files, symlink folders, replace links and delete folders; every rule here
 * holds whatever they do to the names. Nothing in this package depends on the rest of lockfreelog.
 */
package io.github.lockfreelog.files;

