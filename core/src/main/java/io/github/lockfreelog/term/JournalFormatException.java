package io.github.lockfreelog.term;

import java.io.IOException;

/** A journal file that is not a lockfreelog journal of this version, or is damaged. */
public class JournalFormatException extends IOException {

    private static final long serialVersionUID = 1L;

    public JournalFormatException(String message) {
        super(message);
    }
}
