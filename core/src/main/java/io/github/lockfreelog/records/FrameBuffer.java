package io.github.lockfreelog.records;

import java.util.Arrays;

/**
 * The bytes of one journal frame for a record sink, as an appender's {@code EventEnvelope} writes them on the
 * caller's thread, in {@code bytes()[0..length())}: a growable array that a thread reuses from event to event (it
 * comes with the thread's pattern scratch; a virtual thread's is pooled), so that writing a frame allocates nothing
 * once it has grown to the longest frame seen. Big-endian; strings are written as UTF-8 straight from their
 * characters. One thread at a time.
 */
public final class FrameBuffer {

    private static final int INITIAL = 512;
    /** A buffer grown past this is let go after its frame ({@link #trim}): one huge event does not stay per thread. */
    private static final int KEEP = 64 * 1024;

    private byte[] bytes;
    private int length;

    /** An empty buffer of the usual initial size. */
    public FrameBuffer() {
        this(INITIAL);
    }

    /** An empty buffer of {@code capacity} bytes to begin with. */
    public FrameBuffer(int capacity) {
        bytes = new byte[Math.max(16, capacity)];
    }

    /** The frame, in {@code bytes()[0..length())}; the array may be replaced as the frame grows. */
    public byte[] bytes() {
        return bytes;
    }

    /** How many bytes the frame holds. */
    public int length() {
        return length;
    }

    /** Empties the buffer, for the next frame. */
    public void clear() {
        length = 0;
    }

    /** Empties the buffer once its frame is used, and lets a grown array go: an event far longer than usual is not kept. */
    public void trim() {
        length = 0;
        if (bytes.length > KEEP) {
            bytes = new byte[INITIAL];
        }
    }

    public FrameBuffer put(byte b) {
        room(1);
        bytes[length++] = b;
        return this;
    }

    public FrameBuffer putInt(int value) {
        room(4);
        writeInt(length, value);
        length += 4;
        return this;
    }

    /** Writes {@code value} over the four bytes at {@code at}, written before (a length known only after what follows). */
    public FrameBuffer putIntAt(int at, int value) {
        if (at < 0 || at > length - 4) {
            throw new IndexOutOfBoundsException("int at " + at + " of a frame of " + length + " bytes");
        }
        writeInt(at, value);
        return this;
    }

    private void writeInt(int at, int value) {
        bytes[at] = (byte) (value >>> 24);
        bytes[at + 1] = (byte) (value >>> 16);
        bytes[at + 2] = (byte) (value >>> 8);
        bytes[at + 3] = (byte) value;
    }

    public FrameBuffer put(byte[] from) {
        return put(from, 0, from.length);
    }

    /** Appends {@code from[offset..offset + n)}. */
    public FrameBuffer put(byte[] from, int offset, int n) {
        room(n);
        System.arraycopy(from, offset, bytes, length, n);
        length += n;
        return this;
    }

    /**
     * Appends {@code text} as UTF-8, as {@code String.getBytes(UTF_8)} encodes it (a surrogate that is not half of a
     * pair becomes {@code '?'}), without making a {@code String} or an array of it.
     *
     * @return how many bytes it took
     */
    public int putUtf8(CharSequence text) {
        final int n = text.length();
        room((long) 3 * n); // at most 3 bytes a character; a pair of surrogates takes 4 for its 2
        final byte[] out = bytes;
        final int start = length;
        int at = start;
        for (int i = 0; i < n; i++) {
            char c = text.charAt(i);
            if (c < 0x80) {
                out[at++] = (byte) c;
            } else if (c < 0x800) {
                out[at++] = (byte) (0xC0 | (c >> 6));
                out[at++] = (byte) (0x80 | (c & 0x3F));
            } else if (!Character.isSurrogate(c)) {
                out[at++] = (byte) (0xE0 | (c >> 12));
                out[at++] = (byte) (0x80 | ((c >> 6) & 0x3F));
                out[at++] = (byte) (0x80 | (c & 0x3F));
            } else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(text.charAt(i + 1))) {
                int codePoint = Character.toCodePoint(c, text.charAt(++i));
                out[at++] = (byte) (0xF0 | (codePoint >> 18));
                out[at++] = (byte) (0x80 | ((codePoint >> 12) & 0x3F));
                out[at++] = (byte) (0x80 | ((codePoint >> 6) & 0x3F));
                out[at++] = (byte) (0x80 | (codePoint & 0x3F));
            } else {
                out[at++] = '?'; // a lone surrogate
            }
        }
        length = at;
        return at - start;
    }

    /** Room for {@code more} bytes after {@link #length}: the array grows (doubling) only when it is too small. */
    private void room(long more) {
        long needed = length + more;
        if (needed > bytes.length) {
            if (needed > Integer.MAX_VALUE - 16) {
                throw new IllegalArgumentException("a frame of more than 2 GiB (" + needed + " bytes)");
            }
            bytes = Arrays.copyOf(bytes, (int) Math.min(Integer.MAX_VALUE - 16, Math.max(needed, 2L * bytes.length)));
        }
    }
}
