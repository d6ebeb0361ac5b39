package io.github.lockfreelog.sink;

import java.io.IOException;

/**
 * A record sink's target refuses it, for a reason a setting or a grant must change (a topic that does not exist, a
 * principal without the right to write), not for an outage: reported as an ERROR that says what to change, where an
 * outage gets one WARN. The drainer tries again all the same, so that fixing it on the target's side is enough.
 */
public final class SinkRefusedException extends IOException {

    private static final long serialVersionUID = 1L;

    public SinkRefusedException(String message, Throwable cause) {
        super(message, cause);
    }
}
