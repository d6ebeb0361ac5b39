package io.github.lockfreelog.sink;

import java.io.IOException;

/**
 * A write that an interrupt cut off: the JDK closed the channel, which may or may not have taken
 * the bytes first. The sink has reopened its file; the drainer ({@code DrainLog}) finds out by content how much
 * landed.
 */
public final class InterruptedWriteException extends IOException {

    private static final long serialVersionUID = 1L;

    public InterruptedWriteException(Throwable cause) {
        super("a write to the log file was interrupted", cause);
    }
}
