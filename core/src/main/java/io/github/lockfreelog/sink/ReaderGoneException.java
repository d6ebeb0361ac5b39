package io.github.lockfreelog.sink;

import java.io.IOException;

/**
 * The reader of the console went away ({@code EPIPE}: the pipe's read end is closed): no later write can succeed
 * until a new process reads the stream, so it is reported once, not at every retry.
 */
public final class ReaderGoneException extends IOException {

    private static final long serialVersionUID = 1L;

    public ReaderGoneException(String stream, IOException cause) {
        super("the reader of " + stream + " went away (" + cause.getMessage() + "): lines stay in the journal, callers"
                + " drop by the backpressure policy (counted as io), and the next start writes what the journal holds",
                cause);
    }
}
