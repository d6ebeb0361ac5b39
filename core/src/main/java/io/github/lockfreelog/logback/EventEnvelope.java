package io.github.lockfreelog.logback;

import ch.qos.logback.classic.spi.ILoggingEvent;
import io.github.lockfreelog.records.FrameBuffer;

/**
 * What one journal frame holds for an appender whose sink needs more than the encoded event (a record's key
 * and headers, say): called on the caller's thread, after the encoder, with the encoded bytes; what it writes
 * into the frame buffer it is given is appended as the frame's payload. The buffer is the caller's thread's own
 * (a virtual thread's is lent from a pool) and reused from event to event: an envelope that writes its parts
 * straight into it (strings with {@link FrameBuffer#putUtf8}) allocates nothing. It must be safe for many threads
 * at once and must not log. What it throws drops the event, counted under {@code encoding}, as an encoder's
 * failure does.
 */
@FunctionalInterface
public interface EventEnvelope {

    /**
     * Writes the frame's payload for {@code event}, encoded as {@code encoded[0..length)}, into {@code frame}
     * (empty when given); the bytes it holds then, {@code frame.bytes()[0..frame.length())}, are appended.
     */
    void wrap(ILoggingEvent event, byte[] encoded, int length, FrameBuffer frame);
}
