package io.github.lockfreelog.benchmarks.peers;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** Counts the lines of a log file, and the NUL bytes a pre-extended file may leave behind. */
public final class LineCounter {

    /** What a log file holds: complete lines ({@code '\n'}), all bytes, and NUL bytes among them. */
    public record Count(long lines, long bytes, long nulBytes) {
    }

    private LineCounter() {
    }

    /** Counts {@code file}; a missing file counts as empty. */
    public static Count count(Path file) throws IOException {
        if (file == null || !Files.exists(file)) {
            return new Count(0, 0, 0);
        }
        long lines = 0;
        long bytes = 0;
        long nuls = 0;
        ByteBuffer buffer = ByteBuffer.allocateDirect(1 << 20);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            while (channel.read(buffer) >= 0) {
                buffer.flip();
                int limit = buffer.limit();
                for (int i = 0; i < limit; i++) {
                    byte b = buffer.get(i);
                    if (b == '\n') {
                        lines++;
                    } else if (b == 0) {
                        nuls++;
                    }
                }
                bytes += limit;
                buffer.clear();
            }
        }
        return new Count(lines, bytes, nuls);
    }
}
