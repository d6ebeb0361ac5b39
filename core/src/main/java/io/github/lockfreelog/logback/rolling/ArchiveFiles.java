package io.github.lockfreelog.logback.rolling;

import ch.qos.logback.core.rolling.helper.CompressionMode;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * Names, for one compression mode, the files a rolled file passes through on its way to its
 * archive {@code T}: the source the live file is renamed to ({@code T} less {@code .gz} or
 * {@code .zip}, plus {@value #SOURCE_SUFFIX}) and {@code T} without its compression suffix. (The
 * compressor's partial output is {@link RolledFileCompressor#partialFor}.)
 */
final class ArchiveFiles {

    static final String SOURCE_SUFFIX = ".tmp";

    private final CompressionMode mode;

    ArchiveFiles(CompressionMode mode) {
        this.mode = mode;
    }

    /** The compression that a file name pattern asks for by its ending, as in Logback. */
    static CompressionMode compressionOf(String fileNamePattern) {
        if (fileNamePattern.endsWith(".gz")) {
            return CompressionMode.GZ;
        }
        if (fileNamePattern.endsWith(".zip")) {
            return CompressionMode.ZIP;
        }
        return CompressionMode.NONE;
    }

    CompressionMode mode() {
        return mode;
    }

    /** Whether archives are compressed: otherwise the source is only renamed to its archive. */
    boolean compressed() {
        return mode != CompressionMode.NONE;
    }

    /** The compression suffix of an archive ({@code ""} without compression). */
    String suffix() {
        return switch (mode) {
            case GZ -> ".gz";
            case ZIP -> ".zip";
            default -> "";
        };
    }

    /** {@code target} without the compression suffix. */
    String uncompressedName(String target) {
        String suffix = suffix();
        return target.endsWith(suffix) ? target.substring(0, target.length() - suffix.length()) : target;
    }

    /** The name the live file is renamed to at a roll, until its archive {@code target} is complete. */
    Path sourceFor(Path target) {
        return Paths.get(uncompressedName(target.toString()) + SOURCE_SUFFIX);
    }
}
