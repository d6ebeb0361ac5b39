package io.github.lockfreelog.benchmarks.peers;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.UnsynchronizedAppenderBase;

/**
 * An appender whose {@code append} does nothing: what Logback's front end costs (the logger's level
 * check, the {@code LoggingEvent}, the appender loop) before any appender does any work. The cost
 * mode's floor under every Logback peer, below {@link EncodeOnlyAppender}.
 */
public final class NopAppender extends UnsynchronizedAppenderBase<ILoggingEvent> {

    @Override
    protected void append(ILoggingEvent event) {
        // nothing: the front end alone
    }
}
