package io.github.lockfreelog.logback.encoding;

import io.github.lockfreelog.records.FrameBuffer;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Holds one thread's working memory for the fast path: the event's bytes, the builder and
 * characters that converters and the UTF-8 writer use, the outputs it keeps for the plan it
 * last encoded with, and the {@link #frame()} of a record sink's envelope. {@link PatternEncoding#encode}
 * returns it; a platform thread keeps its own, a virtual thread borrows one from a {@link ScratchPool}. The buffers grow to
 * the longest event seen, at most 3 bytes per character of {@link #MAX_BYTES} characters.
 */
public final class EncodingScratch {

    /** Events longer than this many bytes are encoded the ordinary way (and the buffers stay small). */
    static final int MAX_BYTES = 16 * 1024;
    private static final int INITIAL = 256;
    /** The {@link #home} of a platform thread's own scratch. */
    static final int OWN = -1;

    StringBuilder text = new StringBuilder(INITIAL);
    private char[] chars = new char[INITIAL];
    /** The encoded event, in {@code bytes[0..length)}. */
    public byte[] bytes = new byte[3 * INITIAL];
    public int length;
    /** The plan that {@link #caches} belong to. */
    EncodingPlan plan;
    /** Per segment of {@link #plan}, the outputs this thread keeps ({@code null} where its kind keeps none). */
    CachedOutput[][] caches;
    /** Per run of {@link #plan}, by its first segment, the output this thread keeps ({@code null} elsewhere). */
    SegmentRun.Kept[] runs;
    /** Where in its {@link ScratchPool} this scratch is kept, or {@link #OWN}. */
    final int home;
    /**
     * The UTF-8 encoder of {@link #putUtf8}, this scratch's alone; a lone surrogate becomes
     * {@code '?'}, as in {@code String.getBytes(UTF_8)}.
     */
    private final CharsetEncoder utf8 = StandardCharsets.UTF_8.newEncoder()
            .onMalformedInput(CodingErrorAction.REPLACE)
            .onUnmappableCharacter(CodingErrorAction.REPLACE)
            .replaceWith(new byte[] {'?'});
    private CharBuffer charView;
    private ByteBuffer byteView;
    /** Where an envelope writes the frame of the event encoded here; made at its first use. */
    private FrameBuffer frame;

    EncodingScratch(int home) {
        this.home = home;
    }

    /**
     * This scratch's frame buffer, empty: for an {@code EventEnvelope} to write the frame of the event encoded
     * here, lent and given back with the scratch (so a virtual thread's is pooled too).
     */
    public FrameBuffer frame() {
        FrameBuffer f = frame;
        if (f == null) {
            f = new FrameBuffer(bytes.length + 64);
            frame = f;
        }
        f.clear();
        return f;
    }

    /** Starts encoding with {@code p}: empty caches for its segments. */
    void use(EncodingPlan p) {
        CachedOutput[][] fresh = new CachedOutput[p.segments.length][];
        for (int i = 0; i < fresh.length; i++) {
            fresh[i] = p.segments[i].newCache();
        }
        SegmentRun.Kept[] kept = new SegmentRun.Kept[p.segments.length];
        for (int i = 0; i < kept.length; i++) {
            kept[i] = p.runs[i] == null ? null : new SegmentRun.Kept();
        }
        caches = fresh;
        runs = kept;
        plan = p;
    }

    /** After an event too long for the fast path: do not keep huge buffers per thread. */
    void tooLong() {
        length = 0;
        if (text.capacity() > 4 * INITIAL) {
            text = new StringBuilder(INITIAL);
        }
        if (chars.length > 4 * INITIAL) {
            chars = new char[INITIAL];
        }
        if (bytes.length > 12 * INITIAL) {
            bytes = new byte[3 * INITIAL];
        }
    }

    private char[] chars(int n) {
        if (n > chars.length) {
            chars = new char[Math.max(n, 2 * chars.length)];
        }
        return chars;
    }

    /** Room for {@code more} bytes after {@code length}; {@code false} past the fast path's limit. */
    private boolean room(int more) {
        int needed = length + more;
        if (needed > bytes.length) {
            if (needed > 3 * MAX_BYTES) {
                return false;
            }
            bytes = Arrays.copyOf(bytes, Math.max(needed, 2 * bytes.length));
        }
        return true;
    }

    /** Appends {@code from[0..n)}; {@code false} when the event is then longer than the fast path takes. */
    boolean put(byte[] from, int n) {
        if (!room(n)) {
            return false;
        }
        System.arraycopy(from, 0, bytes, length, n);
        length += n;
        return length <= MAX_BYTES;
    }

    /**
     * Appends a {@code String} or a {@code StringBuilder} as UTF-8; {@code false} as {@link #put}.
     * The JDK's UTF-8 encoder does it, over views of this scratch's arrays: its loop over ASCII
     * is the JIT's intrinsic (about 4 times as fast as a loop over the characters on a
     * 44-character message).
     */
    boolean putUtf8(CharSequence text) {
        if (!(text instanceof String) && !(text instanceof StringBuilder)) {
            text = text.toString();
        }
        int n = text.length();
        if (n == 0) {
            return length <= MAX_BYTES;
        }
        if (length + n > MAX_BYTES || !room(3 * n)) {
            return false;
        }
        char[] chars = charsOf(text, n);
        CharBuffer in = charView(chars).limit(n).position(0);
        ByteBuffer out = byteView().limit(bytes.length).position(length);
        CharsetEncoder utf8 = this.utf8.reset();
        if (!utf8.encode(in, out, true).isUnderflow() || !utf8.flush(out).isUnderflow() || in.hasRemaining()) {
            return false; // never seen (room was made for 3 bytes a character): the encoder encodes the event
        }
        length = out.position();
        return length <= MAX_BYTES;
    }

    /** The characters of {@code text[0..n)} in this scratch's array. */
    private char[] charsOf(CharSequence text, int n) {
        char[] chars = chars(n);
        if (text instanceof String string) {
            string.getChars(0, n, chars, 0);
        } else {
            ((StringBuilder) text).getChars(0, n, chars, 0);
        }
        return chars;
    }

    /** A view of {@code chars}, made again only when the array grew. */
    private CharBuffer charView(char[] chars) {
        if (charView == null || charView.array() != chars) {
            charView = CharBuffer.wrap(chars);
        }
        return charView;
    }

    /** A view of {@link #bytes}, made again only when the array was replaced. */
    private ByteBuffer byteView() {
        if (byteView == null || byteView.array() != bytes) {
            byteView = ByteBuffer.wrap(bytes);
        }
        return byteView;
    }
}
