package io.github.lockfreelog.benchmarks.peers;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.UnsynchronizedAppenderBase;
import ch.qos.logback.core.encoder.Encoder;

/**
 * Runs the encoder and throws the bytes away: what an appender costs when writing is free.
 * No lock and no shared writes, so it is the ceiling every real appender is compared with.
 */
public final class EncodeOnlyAppender extends UnsynchronizedAppenderBase<ILoggingEvent> {

    private Encoder<ILoggingEvent> encoder;

    /** Written only when an encoder returns nothing, which never happens; keeps the result observably used. */
    private volatile long emptyEvents;

    public void setEncoder(Encoder<ILoggingEvent> encoder) {
        this.encoder = encoder;
    }

    @Override
    public void start() {
        if (encoder == null) {
            addError("No encoder set for the appender named \"" + name + "\".");
            return;
        }
        super.start();
    }

    @Override
    protected void append(ILoggingEvent event) {
        byte[] bytes = encoder.encode(event);
        if (bytes == null || bytes.length == 0) {
            emptyEvents++; // never in this workload; a benign race if it were
        }
    }
}
