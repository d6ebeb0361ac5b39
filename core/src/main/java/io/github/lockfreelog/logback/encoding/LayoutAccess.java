package io.github.lockfreelog.logback.encoding;

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
 * What the fast path reads of Logback: which encoders it may take (exactly Logback's pattern encoders, in UTF-8),
 * and their layout's converter chain, through a {@link VarHandle} on {@code PatternLayoutBase.head}, the one field
 * Logback does not expose. Where that field cannot be read (another Logback, the module path, a native image
 * without its reflection hint), {@link #available()} is {@code false} and every event takes the encoder's path.
 */
final class LayoutAccess {

    private static final VarHandle HEAD = headHandle();

    private LayoutAccess() {
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
     * Whether the layout's converter chain ({@code PatternLayoutBase.head}) can be read, which the fast path needs.
     * {@code false} where the Logback version renamed the field or a native image lacks its reflection hint.
     */
    static boolean available() {
        return HEAD != null;
    }

    /** The first converter of the layout's chain; only where {@link #available()}. */
    @SuppressWarnings("unchecked")
    static Converter<ILoggingEvent> head(PatternLayout layout) {
        return (Converter<ILoggingEvent>) HEAD.get(layout);
    }

    /** The running Logback's version, as its jar names it, or {@code "unknown"}. */
    static String logbackVersion() {
        String version = PatternLayoutBase.class.getPackage().getImplementationVersion();
        return version != null ? version : "unknown";
    }

    /** The layout of a plain pattern encoder in UTF-8, or {@code null} for any other encoder. */
    @SuppressWarnings("unchecked")
    static PatternLayout eligibleLayout(Encoder<ILoggingEvent> encoder) {
        if (encoder == null
                || (encoder.getClass() != PatternLayoutEncoder.class && encoder.getClass() != LayoutWrappingEncoder.class)) {
            return null; // a subclass may encode differently
        }
        LayoutWrappingEncoder<ILoggingEvent> wrapping = (LayoutWrappingEncoder<ILoggingEvent>) encoder;
        if (!(wrapping.getLayout() instanceof PatternLayout layout) || layout.getClass() != PatternLayout.class) {
            return null;
        }
        Charset charset = wrapping.getCharset() != null ? wrapping.getCharset() : Charset.defaultCharset();
        return StandardCharsets.UTF_8.equals(charset) ? layout : null;
    }
}
