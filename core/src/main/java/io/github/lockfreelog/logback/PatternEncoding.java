package io.github.lockfreelog.logback;

import ch.qos.logback.classic.PatternLayout;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.encoder.Encoder;
import ch.qos.logback.core.encoder.LayoutWrappingEncoder;
import ch.qos.logback.core.pattern.Converter;
import ch.qos.logback.core.pattern.PatternLayoutBase;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;

/**
 * Encodes an event of a plain {@link PatternLayoutEncoder} into a per-thread buffer: the same
 * bytes as {@code encoder.encode(event)}, without the {@code StringBuilder}, {@code String} and
 * {@code byte[]} that Logback allocates for each event. The layout's converters write into a
 * reused {@code StringBuilder}, and its characters are encoded to UTF-8 into a reused array.
 *
 * <p>Used only where the result is the same by construction: the encoder is exactly
 * {@code PatternLayoutEncoder} or {@code LayoutWrappingEncoder} (the Spring Boot starter's), its
 * layout exactly {@code PatternLayout} (its converters may be any), its charset UTF-8, and the
 * layout's converter chain is readable; anything else goes through {@code encoder.encode}.
 */
final class PatternEncoding {

    /** Events longer than this many characters are encoded the ordinary way (and the buffers stay small). */
    static final int MAX_CHARS = 16 * 1024;
    private static final VarHandle HEAD = headHandle();

    private final PatternLayout layout;

    private final ThreadLocal<Scratch> scratch = ThreadLocal.withInitial(Scratch::new);

    private PatternEncoding(PatternLayout layout) {
        this.layout = layout;
    }

    private static VarHandle headHandle() {
        try {
            return MethodHandles.privateLookupIn(PatternLayoutBase.class, MethodHandles.lookup())
                    .findVarHandle(PatternLayoutBase.class, "head", Converter.class);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null; // Logback on the module path, or another version: the ordinary path is used
        }
    }

    /**
     * Whether the layout's converter chain ({@code PatternLayoutBase.head}) can be read, which the
     * fast path needs. {@code false} where the Logback version renamed the field or a native image
     * lacks its reflection hint: every encoder then takes the ordinary path.
     */
    static boolean available() {
        return HEAD != null;
    }

    /** The fast path for this encoder, or {@code null} where it would not give the same bytes. */
    @SuppressWarnings("unchecked")
    static PatternEncoding of(Encoder<ILoggingEvent> encoder) {
        if (HEAD == null || encoder == null
                || (encoder.getClass() != PatternLayoutEncoder.class && encoder.getClass() != LayoutWrappingEncoder.class)) {
            return null; // a subclass may encode differently
        }
        LayoutWrappingEncoder<ILoggingEvent> wrapping = (LayoutWrappingEncoder<ILoggingEvent>) encoder;
        if (!(wrapping.getLayout() instanceof PatternLayout layout) || layout.getClass() != PatternLayout.class) {
            return null;
        }
        Charset charset = wrapping.getCharset() != null ? wrapping.getCharset() : Charset.defaultCharset();
        if (!StandardCharsets.UTF_8.equals(charset)) {
            return null;
        }
        return new PatternEncoding(layout);
    }

    /**
     * Encodes the event into this thread's buffer.
     *
     * @return the scratch holding the bytes in {@code bytes[0..length)}, or {@code null} when the
     *         event is too long for the fast path (the caller then uses the encoder)
     */
    @SuppressWarnings("unchecked")
    Scratch encode(ILoggingEvent event) {
        Scratch s = scratch.get();
        StringBuilder text = s.text;
        text.setLength(0);
        if (layout.isStarted()) {
            for (Converter<ILoggingEvent> c = (Converter<ILoggingEvent>) HEAD.get(layout); c != null; c = c.getNext()) {
                c.write(text, event);
            }
        }
        if (text.length() > MAX_CHARS) {
            s.text = new StringBuilder(256); // do not keep a huge builder per thread
            return null;
        }
        s.length = s.utf8(text);
        return s;
    }

    /** One thread's buffers; they grow to the longest event seen, at most {@link #MAX_CHARS} characters. */
    static final class Scratch {
        StringBuilder text = new StringBuilder(256);
        char[] chars = new char[256];
        byte[] bytes = new byte[3 * 256];
        int length;

        /** UTF-8, as {@code String.getBytes(UTF_8)} writes it: a lone surrogate becomes {@code '?'}. */
        int utf8(StringBuilder text) {
            int n = text.length();
            if (n > chars.length) {
                chars = new char[Math.min(MAX_CHARS, Math.max(n, 2 * chars.length))];
                bytes = new byte[3 * chars.length];
            }
            text.getChars(0, n, chars, 0);
            char[] chars = this.chars;
            byte[] out = bytes;
            int o = 0;
            for (int i = 0; i < n; i++) {
                char c = chars[i];
                if (c < 0x80) {
                    out[o++] = (byte) c;
                } else if (c < 0x800) {
                    out[o++] = (byte) (0xC0 | (c >> 6));
                    out[o++] = (byte) (0x80 | (c & 0x3F));
                } else if (Character.isSurrogate(c)) {
                    if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(chars[i + 1])) {
                        int cp = Character.toCodePoint(c, chars[++i]);
                        out[o++] = (byte) (0xF0 | (cp >> 18));
                        out[o++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
                        out[o++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
                        out[o++] = (byte) (0x80 | (cp & 0x3F));
                    } else {
                        out[o++] = '?';
                    }
                } else {
                    out[o++] = (byte) (0xE0 | (c >> 12));
                    out[o++] = (byte) (0x80 | ((c >> 6) & 0x3F));
                    out[o++] = (byte) (0x80 | (c & 0x3F));
                }
            }
            return o;
        }
    }
}
