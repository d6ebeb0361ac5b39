package io.github.lockfreelog.logback.rolling;

import ch.qos.logback.core.Context;
import ch.qos.logback.core.rolling.helper.FileNamePattern;
import io.github.lockfreelog.diagnostics.StatusReporter;
import io.github.lockfreelog.files.SafeFiles;
import io.github.lockfreelog.logback.rolling.RolledFileCompressor.Leftover;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import java.util.stream.Stream;

/**
 * Finds, at start, what crashes left of the compressions of archives named after a file name
 * pattern: every source and partial file (and the {@code <name><digits>.tmp} sources of Logback's
 * {@code RollingFileAppender}, whose archive may be truncated, for an application that moves to this appender),
 * each with the archive it belongs to.
 * {@link RolledFileCompressor#finish} completes them. A file of another user is left alone, with a WARN: in a folder
 * that others may write to, it may have been planted there to be made into an archive that looks like ours.
 */
final class LeftoverFinder {

    /** Sources: ours ({@code .tmp}) and Logback's ({@code <nanos>.tmp}). */
    private static final String SOURCE_SUFFIX_REGEX = "(\\d+)?\\.tmp";

    private LeftoverFinder() {
    }

    /**
     * The leftovers for {@code fileNamePattern}, partial outputs first (a source's new compression
     * replaces them anyway); none, after a warning, when looking for them fails.
     */
    static List<Leftover> find(String fileNamePattern, ArchiveFiles files, Context context, StatusReporter status) {
        try {
            List<Leftover> found = search(fileNamePattern, files, context, status);
            found.sort(Comparator.comparing(l -> !l.partial()));
            return found;
        } catch (IOException | RuntimeException e) {
            status.warn("looking for compressions that a crash interrupted failed", e);
            return List.of();
        }
    }

    /**
     * Looks in the pattern's fixed folder and the folders its date may name. (Logback's own
     * regular expression of a pattern, as its history clean-up uses, is matched against the part of
     * each path below the fixed folder.)
     */
    private static List<Leftover> search(String fileNamePattern, ArchiveFiles files, Context context,
            StatusReporter status) throws IOException {
        String slashed = fileNamePattern.replace('\\', '/');
        int slash = slashed.lastIndexOf('/', Math.max(0, slashed.indexOf('%')));
        String below = slashed.substring(slash + 1);
        Path folder = Paths.get(slash < 0 ? "." : slashed.substring(0, slash + 1));
        List<Leftover> found = new ArrayList<>();
        if (!Files.isDirectory(folder)) {
            return found;
        }
        Pattern source;
        Pattern partial;
        try {
            source = Pattern.compile("(?<stem>" + new FileNamePattern(files.uncompressedName(below), context).toRegex() + ")"
                    + SOURCE_SUFFIX_REGEX);
            partial = Pattern.compile(new FileNamePattern(below, context).toRegex()
                    + Pattern.quote(RolledFileCompressor.PARTIAL_SUFFIX));
        } catch (PatternSyntaxException e) {
            status.warn("cannot look for interrupted compressions of " + fileNamePattern + ": " + e.getMessage(), null);
            return found;
        }
        int depth = (int) below.chars().filter(c -> c == '/').count() + 1;
        try (Stream<Path> paths = Files.find(folder, depth, (p, attributes) -> attributes.isRegularFile())) {
            for (Path file : (Iterable<Path>) paths::iterator) {
                String name = folder.relativize(file).toString().replace(file.getFileSystem().getSeparator(), "/");
                if ((source.matcher(name).matches() || partial.matcher(name).matches()) && SafeFiles.isOtherUsers(file)) {
                    // planted where others may write: compressing it would make an archive of their text, ours by name
                    status.warn("the file " + file + " looks like a compression that a crash interrupted, but it belongs"
                            + " to another user (uid " + SafeFiles.uid(file) + "): left alone, never made into an archive;"
                            + " remove it and find out who made it", null);
                    continue;
                }
                Matcher m = source.matcher(name);
                if (m.matches()) {
                    found.add(new Leftover(file, folder.resolve(m.group("stem") + files.suffix()), false));
                } else if (files.compressed() && partial.matcher(name).matches()) {
                    found.add(new Leftover(file, folder.resolve(
                            name.substring(0, name.length() - RolledFileCompressor.PARTIAL_SUFFIX.length())), true));
                }
            }
        }
        return found;
    }
}
