package io.github.lockfreelog.sink;

import java.io.IOException;

/**
 * A call on a sink after it was closed. A closed sink stays closed: it never reopens its file or
 * writes again. Only a drainer that outlived a stop which timed out meets this; it then ends, and
 * what it had not written stays in the journal, for the next start to write.
 */
public final class LogClosedException extends IOException {

    private static final long serialVersionUID = 1L;

    public LogClosedException(String log) {
        this(log, null);
    }

    public LogClosedException(String log, Throwable cause) {
        super("the log " + log + " is closed (the appender stopped, and its stop timed out before this write):"
                + " nothing more is written to it; what was not written stays in the journal, and the next start"
                + " writes it", cause);
    }
}
