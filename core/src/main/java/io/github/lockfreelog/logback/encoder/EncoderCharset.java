package io.github.lockfreelog.logback.encoder;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.encoder.Encoder;
import ch.qos.logback.core.encoder.LayoutWrappingEncoder;
import io.github.lockfreelog.engine.SettingProblem;
import java.lang.reflect.Method;
import java.nio.charset.Charset;
import java.util.Arrays;

/**
 * The engine works on lines as bytes: a line ends at the byte {@code 0x0A} (the console's pieces, truncation,
 * recovery's search for where a line starts). That holds for UTF-8, ISO-8859-x, US-ASCII and the other charsets in
 * which a newline is that one byte, and fails for UTF-16 and UTF-32 (a newline is two or four bytes, and {@code 0x0A}
 * occurs inside other characters) and EBCDIC (a newline is {@code 0x15} or {@code 0x25}). Such charsets are refused
 * at start rather than supported halfway.
 */
public final class EncoderCharset {

    private static final byte[] NEWLINE = {0x0A};

    private EncoderCharset() {
    }

    /** The problem with the encoder's charset, or {@code null} when its lines end with the byte {@code 0x0A} (or its charset cannot be told). */
    public static SettingProblem problemOf(Encoder<ILoggingEvent> encoder) {
        Charset charset = charsetOf(encoder);
        if (charset == null || endsLinesWithOneByte(charset)) {
            return null;
        }
        return new SettingProblem("charset", charset.name(), "a charset in which a newline is the one byte 0x0A, such as"
                + " UTF-8, as the encoder's charset (<encoder><charset>UTF-8</charset></encoder>): UTF-16, UTF-32 and"
                + " EBCDIC charsets are not supported");
    }

    static boolean endsLinesWithOneByte(Charset charset) {
        return charset.canEncode() && Arrays.equals("\n".getBytes(charset), NEWLINE)
                && Arrays.equals("A\n".getBytes(charset), new byte[] {'A', 0x0A});
    }

    /**
     * The charset a {@link LayoutWrappingEncoder} (the pattern encoder) writes in, the platform's default when it
     * has none; for another encoder, what a public {@code getCharset()} returns (Spring Boot's structured encoder has
     * one), or {@code null}.
     */
    private static Charset charsetOf(Encoder<ILoggingEvent> encoder) {
        if (encoder instanceof LayoutWrappingEncoder<?> wrapping) {
            return wrapping.getCharset() != null ? wrapping.getCharset() : Charset.defaultCharset();
        }
        try {
            Method getter = encoder.getClass().getMethod("getCharset");
            return getter.getReturnType() == Charset.class ? (Charset) getter.invoke(encoder) : null;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null; // an encoder that does not say: its lines are taken as they come
        }
    }
}
