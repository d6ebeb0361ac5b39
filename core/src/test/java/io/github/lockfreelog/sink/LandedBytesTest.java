package io.github.lockfreelog.sink;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The search for a write by content ({@link LandedBytes}) holds only a part of the file at a time: it answers as a
 * search of the whole window at once does, for every part size, wherever the write falls across parts.
 */
class LandedBytesTest {

    @TempDir
    Path dir;

    @Test
    void aSearchAPartAtATimeAnswersAsTheWholeWindowDoes() throws IOException {
        Random random = new Random(38);
        for (int run = 0; run < 300; run++) {
            byte[] write = lines(random, 1 + random.nextInt(6));
            byte[] foreign = lines(random, random.nextInt(4));
            byte[] file;
            switch (run % 4) {
                case 0 -> file = concat(foreign, write, lines(random, random.nextInt(3))); // landed whole
                case 1 -> file = concat(foreign, Arrays.copyOf(write, random.nextInt(write.length + 1))); // cut
                case 2 -> file = concat(foreign, Arrays.copyOf(write, Math.max(0, write.length - 1)), "x\n".getBytes(
                        StandardCharsets.US_ASCII)); // cut, then others wrote: not found
                default -> file = foreign; // never landed
            }
            Path path = Files.write(dir.resolve("log" + run), file);
            int whole = reference(file, write);
            try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
                for (int chunk : new int[] {1, 2, 3, 7, 16, 61, LandedBytes.CHUNK}) {
                    assertThat(LandedBytes.find(channel, 0, Long.MAX_VALUE, ByteBuffer.wrap(write), chunk))
                            .as("run %d, parts of %d bytes", run, chunk).isEqualTo(whole);
                }
            }
            if (run % 4 == 0) {
                assertThat(whole).as("a write that landed whole is found whole").isEqualTo(write.length);
            }
        }
    }

    @Test
    void thePositionOfWhatIsSearchedForIsWhereItBeginsAndStaysWhereItWas() throws IOException {
        byte[] write = "one\ntwo\n".getBytes(StandardCharsets.US_ASCII);
        Path path = Files.write(dir.resolve("log"), "zero\ntwo\n".getBytes(StandardCharsets.US_ASCII));
        ByteBuffer expected = ByteBuffer.wrap(write).position(4);
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
            assertThat(LandedBytes.find(channel, 0, Long.MAX_VALUE, expected, 3)).isEqualTo(4);
        }
        assertThat(expected.position()).isEqualTo(4);
    }

    /** The search over the whole window in one array, as it was made before it went a part at a time. */
    private static int reference(byte[] file, byte[] expected) {
        int length = (int) Math.min(file.length, (long) expected.length + LandedBytes.WINDOW_SLACK);
        boolean reachesEnd = length == file.length;
        for (int p = 0; p < length; p++) {
            if (p > 0 && file[p - 1] != '\n') {
                continue;
            }
            int n = Math.min(expected.length, length - p);
            if (n < expected.length && !reachesEnd) {
                return 0;
            }
            if (Arrays.equals(file, p, p + n, expected, 0, n)) {
                return n;
            }
        }
        return 0;
    }

    private static byte[] lines(Random random, int count) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < count; i++) {
            text.append("line ").append(random.nextInt(3)).append('\n'); // alike lines: a search must not stop early
        }
        return text.toString().getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] concat(byte[]... parts) {
        int length = 0;
        for (byte[] part : parts) {
            length += part.length;
        }
        byte[] all = new byte[length];
        int at = 0;
        for (byte[] part : parts) {
            System.arraycopy(part, 0, all, at, part.length);
            at += part.length;
        }
        return all;
    }
}
