package io.github.lockfreelog.records;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** A frame buffer writes strings exactly as {@code String.getBytes(UTF_8)} does, and grows only when it must. */
class FrameBufferTest {

    @Test
    void utf8OfEveryKindOfCharacterIsStringGetBytes() {
        String[] texts = {"", "main", "caller-7", "Zürich", "\u00e9\u0800\uFFFF", "\uD83D\uDE00 smile",
            "lone high \uD83D", "lone low \uDE00 here", "\uDE00\uD83D reversed", "\uD83D", "ends high \uD83D",
            "pair at the end \uD83D\uDE00", "\u07FF\u0080\u007F\u0000"};
        for (String text : texts) {
            assertThat(utf8(text)).as("UTF-8 of \"%s\"", text).isEqualTo(text.getBytes(StandardCharsets.UTF_8));
        }
    }

    @Test
    void utf8OfRandomCharactersSurrogatesIncludedIsStringGetBytes() {
        Random random = new Random(4711);
        for (int round = 0; round < 2_000; round++) {
            char[] chars = new char[random.nextInt(40)];
            for (int i = 0; i < chars.length; i++) {
                switch (random.nextInt(5)) {
                    case 0 -> chars[i] = (char) random.nextInt(0x80);
                    case 1 -> chars[i] = (char) (0x80 + random.nextInt(0x800 - 0x80));
                    case 2 -> chars[i] = (char) (0xD800 + random.nextInt(0x800)); // a surrogate, paired or not
                    default -> chars[i] = (char) random.nextInt(0x10000);
                }
            }
            String text = new String(chars);
            StringBuilder builder = new StringBuilder(text);
            assertThat(utf8(text)).as("round %d", round).isEqualTo(text.getBytes(StandardCharsets.UTF_8));
            assertThat(utf8(builder)).as("round %d, a builder", round).isEqualTo(text.getBytes(StandardCharsets.UTF_8));
        }
    }

    @Test
    void intsAreBigEndianAndALengthCanBeWrittenAfterWhatItMeasures() {
        FrameBuffer frame = new FrameBuffer(16);
        frame.put((byte) 1);
        int at = frame.length();
        frame.putInt(0);
        int n = frame.putUtf8("h\u00e9llo");
        frame.putIntAt(at, n).putInt(-1).put(new byte[] {7, 8, 9}, 1, 2);

        ByteBuffer read = ByteBuffer.wrap(frame.bytes(), 0, frame.length());
        assertThat(read.get()).isEqualTo((byte) 1);
        assertThat(read.getInt()).isEqualTo(6);
        byte[] text = new byte[6];
        read.get(text);
        assertThat(new String(text, StandardCharsets.UTF_8)).isEqualTo("h\u00e9llo");
        assertThat(read.getInt()).isEqualTo(-1);
        assertThat(read.get()).isEqualTo((byte) 8);
        assertThat(read.get()).isEqualTo((byte) 9);
        assertThat(read.hasRemaining()).isFalse();
        assertThatThrownBy(() -> frame.putIntAt(frame.length() - 3, 0)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void theArrayIsReusedUntilAFrameNeedsMoreAndAGrownOneIsLetGoAfterItsFrame() {
        FrameBuffer frame = new FrameBuffer(64);
        byte[] first = frame.bytes();
        frame.put(new byte[40]);
        frame.clear();
        frame.put(new byte[60]);
        assertThat(frame.bytes()).as("room enough: the same array").isSameAs(first);
        frame.put(new byte[10]);
        assertThat(frame.bytes()).as("grown").isNotSameAs(first).hasSizeGreaterThanOrEqualTo(70);
        byte[] grown = frame.bytes();
        frame.trim();
        assertThat(frame.length()).isZero();
        assertThat(frame.bytes()).as("a few KiB are kept").isSameAs(grown);

        byte[] huge = new byte[200 * 1024];
        Arrays.fill(huge, (byte) 'x');
        frame.put(huge);
        assertThat(frame.length()).isEqualTo(huge.length);
        assertThat(Arrays.copyOf(frame.bytes(), frame.length())).isEqualTo(huge);
        frame.trim();
        assertThat(frame.bytes().length).as("a huge one is let go").isLessThan(huge.length);
    }

    private static byte[] utf8(CharSequence text) {
        FrameBuffer frame = new FrameBuffer(1);
        frame.put((byte) '>');
        int n = frame.putUtf8(text);
        assertThat(n).isEqualTo(frame.length() - 1);
        return Arrays.copyOfRange(frame.bytes(), 1, frame.length());
    }
}
