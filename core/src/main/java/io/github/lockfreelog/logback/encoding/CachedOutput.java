package io.github.lockfreelog.logback.encoding;

import ch.qos.logback.classic.spi.ILoggingEvent;

/**
 * Keeps, for one thread, a segment's output encoded as UTF-8 for one key: a level, a thread or
 * logger name, or (for {@code %date}) a millisecond.
 */
final class CachedOutput {

    boolean filled;
    Object key;
    long millis;
    byte[] bytes = new byte[64];
    int length;

    /** Whether this holds the output for {@code key} (never {@code null}). */
    boolean holds(Object key) {
        return filled && (key == this.key || key.equals(this.key));
    }

    /**
     * Encodes the segment's converter output for this event into this cache, kept under
     * {@code key} or {@code millis}; {@code false} (and empty) when it is longer than the fast path
     * takes.
     */
    boolean fill(Segment segment, ILoggingEvent event, PatternEncoding.Scratch s, Object key, long millis) {
        filled = false;
        StringBuilder text = s.text;
        text.setLength(0);
        segment.converter.write(text, event);
        final int at = s.length; // encoded after the event's bytes, copied here, then taken off again
        try {
            if (!s.putUtf8(text)) {
                return false;
            }
            int n = s.length - at;
            if (n > bytes.length) {
                bytes = new byte[Math.max(n, 2 * bytes.length)];
            }
            System.arraycopy(s.bytes, at, bytes, 0, n);
            length = n;
        } finally {
            s.length = at;
        }
        this.key = key;
        this.millis = millis;
        filled = true;
        return true;
    }
}
