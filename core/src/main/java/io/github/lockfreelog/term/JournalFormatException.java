package io.github.lockfreelog.term;

import java.io.IOException;

/**
 * A journal file that is not a lockfreelog journal of this version, or is damaged; or one that a
 * start left {@link #halfMade() half-made}.
 */
public class JournalFormatException extends IOException {

    private static final long serialVersionUID = 1L;

    private final boolean halfMade;

    public JournalFormatException(String message) {
        this(message, false);
    }

    JournalFormatException(String message, boolean halfMade) {
        super(message);
        this.halfMade = halfMade;
    }

    /**
     * Whether the file is a journal whose creation was cut short (the process killed, or the disk
     * full): it never received its magic, which is written last, and holds no frame, so nothing in
     * it was ever acknowledged.
     */
    public boolean halfMade() {
        return halfMade;
    }
}
