package io.github.lockfreelog.logback.encoding;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.encoder.Encoder;

/**
 * Gives the fast path the text of an encoder that writes text (one JSON document per event, say) whose
 * {@code encode} allocates more than the text itself: the fast path encodes the text as UTF-8 straight
 * into the thread's buffer, in place of the encoder's {@code byte[]} (and whatever the encoder allocates
 * to make it). Providers are found with {@link java.util.ServiceLoader} on the class path of this
 * library; the Spring Boot starter has one for Spring Boot's {@code StructuredLogEncoder}. A provider
 * answers only for encoders of exactly the classes it knows, in UTF-8.
 */
public interface EncoderTexts {

    /**
     * For an encoder this provider knows: the text whose UTF-8 bytes are exactly {@code encoder.encode(event)},
     * for every event; {@code null} for any other encoder.
     */
    EventText textOf(Encoder<ILoggingEvent> encoder);

    /** The text an encoder writes for one event. */
    @FunctionalInterface
    interface EventText {
        CharSequence of(ILoggingEvent event);
    }
}
