package io.github.lockfreelog.logback;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.encoder.Encoder;
import io.github.lockfreelog.engine.JournalEngine;
import io.github.lockfreelog.logback.encoder.EncoderSafety;
import io.github.lockfreelog.logback.encoder.EncodingFailures;
import io.github.lockfreelog.records.FrameBuffer;
import io.github.lockfreelog.logback.encoding.EncodingScratch;
import io.github.lockfreelog.logback.encoding.PatternEncoding;

/**
 * Encodes each event and hands its bytes to the engine, marked as one the {@code DROP} policy may drop when its
 * level is below {@code dropBelowLevel}. A plain pattern encoder encodes without allocating; an encoder not known to
 * be thread-safe encodes one event at a time. Allocates nothing of its own and throws nothing into the caller.
 */
final class EventWriter {

    private final Encoder<ILoggingEvent> encoder;
    /** Set only for an encoder that may not be called by many threads at once. */
    private final Object encoderGuard;
    /** Allocation-free encoding for a plain pattern encoder, or {@code null}. */
    private final PatternEncoding patternEncoding;
    /** Events below this level may be dropped; {@link Integer#MAX_VALUE} (all) when {@code dropBelowLevel} is unset. */
    private final int dropBelow;

    private final EncodingFailures failures;
    /** Wraps each encoded event for a record sink; {@code null} for a log file or the console. */
    private final EventEnvelope envelope;

    private EventWriter(Encoder<ILoggingEvent> encoder, Object encoderGuard, int dropBelow, EncodingFailures failures,
            EventEnvelope envelope) {
        this.encoder = encoder;
        this.envelope = envelope;
        this.failures = failures;
        this.encoderGuard = encoderGuard;
        this.patternEncoding = encoderGuard == null ? PatternEncoding.of(encoder) : null;
        this.dropBelow = dropBelow;
    }

    /**
     * The writer for the appender's settings, which {@link LockFreeAppenderBase#checkSettings()} found usable; warns
     * in its status (naming it by {@code suffix}) when the encoder is to be called one event at a time.
     */
    static EventWriter of(LockFreeAppenderBase settings, String suffix) {
        String level = settings.getDropBelowLevel();
        int dropBelow = (level != null && !level.isBlank()) ? Level.toLevel(level.trim()).toInt() : Integer.MAX_VALUE;
        Encoder<ILoggingEvent> encoder = settings.getEncoder();
        Object guard = EncoderSafety.isThreadSafe(encoder, settings.getEncoderThreadSafe()) ? null : new Object();
        if (guard != null) {
            settings.addWarn("The encoder " + encoder.getClass().getName() + suffix + " is not known to be safe for"
                    + " concurrent use, so events are encoded one at a time; set <encoderThreadSafe>true</encoderThreadSafe>"
                    + " if it is");
        }
        if (guard == null && PatternEncoding.isEligibleButUnavailable(encoder)) {
            settings.addInfo("The allocation-free pattern path is not available with this Logback version ("
                    + PatternEncoding.logbackVersion() + ": its converter chain cannot be read)" + suffix
                    + ", so events are encoded by the encoder itself, which allocates per event");
        }
        EventWriter writer = new EventWriter(encoder, guard, dropBelow, new EncodingFailures(settings, suffix),
                settings.envelope());
        if (writer.patternEncoding != null) {
            java.util.List<String> offPath = writer.patternEncoding.convertersOffTheFastPath();
            if (!offPath.isEmpty()) {
                settings.addInfo("These converters of the pattern" + suffix + " write into a builder for every event, as in"
                        + " Logback's own path (the rest of each line is encoded without allocating): " + String.join(", ", offPath));
            }
        }
        return writer;
    }

    /**
     * Encodes {@code event} and appends it to {@code engine}; an event that encodes to nothing is not appended. An
     * encoder or converter that throws drops the event, counted under {@code encoding} ({@link EncodingFailures}):
     * the exception never reaches the caller. A {@link VirtualMachineError} other than a stack overflow (out of
     * memory, say) is counted too, then goes on to the caller, as Logback's own appenders let it.
     */
    void write(JournalEngine engine, ILoggingEvent event) {
        PatternEncoding fast = patternEncoding;
        if (fast != null) {
            EncodingScratch encoded;
            try {
                encoded = fast.encode(event); // gives a pooled scratch back itself when it throws
            } catch (RuntimeException | Error failure) {
                failed(engine, failure);
                return;
            }
            if (encoded != null) {
                try {
                    if (encoded.length > 0 && envelope != null) {
                        wrapAndAppend(engine, event, encoded.bytes, encoded.length, encoded.frame());
                    } else if (encoded.length > 0) {
                        appendSafely(engine, encoded.bytes, encoded.length, event.getLevel().toInt() < dropBelow);
                    }
                } finally {
                    fast.release(encoded);
                }
                return;
            }
        }
        byte[] bytes;
        try {
            bytes = encode(event);
        } catch (RuntimeException | Error failure) {
            failed(engine, failure);
            return;
        }
        if (bytes == null || bytes.length == 0) {
            return;
        }
        if (envelope != null) {
            // the encoder allocated for this event already: a frame buffer of its own, as long as it needs
            wrapAndAppend(engine, event, bytes, bytes.length, new FrameBuffer(bytes.length + 128));
            return;
        }
        appendSafely(engine, bytes, bytes.length, event.getLevel().toInt() < dropBelow);
    }

    /**
     * Appends the envelope of the event encoded as {@code encoded[0..length)}, written into {@code frame} (empty);
     * an envelope that throws drops the event.
     */
    private void wrapAndAppend(JournalEngine engine, ILoggingEvent event, byte[] encoded, int length,
            FrameBuffer frame) {
        try {
            try {
                envelope.wrap(event, encoded, length, frame);
            } catch (RuntimeException | Error failure) {
                failed(engine, failure);
                return;
            }
            appendSafely(engine, frame.bytes(), frame.length(), event.getLevel().toInt() < dropBelow);
        } finally {
            frame.trim();
        }
    }

    /** Encodes with the encoder itself: shared when it is known to be thread-safe, else one event at a time. */
    private byte[] encode(ILoggingEvent event) {
        Object guard = encoderGuard;
        if (guard == null) {
            return encoder.encode(event);
        }
        // Only for an encoder that is not known to be thread-safe (a status warning said so at
        // start, naming encoderThreadSafe): sharing it unguarded would corrupt lines. The lock
        // covers the encoding alone, never the reservation or copy, and the lock-free path
        // (known-safe encoders) never takes this branch.
        synchronized (guard) { // only an encoder not known to be thread-safe; see above
            return encoder.encode(event);
        }
    }

    private void failed(JournalEngine engine, Throwable failure) {
        failures.failed(engine, failure);
        if (failure instanceof VirtualMachineError fatal && !(failure instanceof StackOverflowError)) {
            throw fatal;
        }
    }

    /**
     * Hands the bytes to the engine, which counts every outcome and throws nothing; a fault in
     * mapped memory that the JVM delivers only as the engine returns (an {@code InternalError} at
     * the next safepoint) is kept from the application's thread too: the engine counted that event.
     */
    private static void appendSafely(JournalEngine engine, byte[] bytes, int length, boolean mayDrop) {
        try {
            engine.append(bytes, length, mayDrop);
        } catch (InternalError lateFault) {
            // counted by the engine as dropped (reason io)
        }
    }
}
