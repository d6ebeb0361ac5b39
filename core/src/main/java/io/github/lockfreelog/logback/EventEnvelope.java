package io.github.lockfreelog.logback;

import ch.qos.logback.classic.spi.ILoggingEvent;

/**
 * What one journal frame holds for an appender whose sink needs more than the encoded event (a record's key
 * and headers, say): called on the caller's thread, after the encoder, with the encoded bytes; what it returns
 * is appended as the frame's payload. It must be safe for many threads at once and must not log. What it
 * throws drops the event, counted under {@code encoding}, as an encoder's failure does.
 */
@FunctionalInterface
public interface EventEnvelope {

    /** The frame's payload for {@code event}, encoded as {@code encoded[0..length)}. */
    byte[] wrap(ILoggingEvent event, byte[] encoded, int length);
}
