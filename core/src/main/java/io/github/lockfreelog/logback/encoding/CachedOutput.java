package io.github.lockfreelog.logback.encoding;

import ch.qos.logback.classic.spi.ILoggingEvent;

/**
 * Keeps, for one thread, a segment's output encoded as UTF-8 for one key: a level, a thread or
 * logger name, (for {@code %date}) a millisecond, or (for a {@link SegmentKind#KEYED} segment) the
 * values its converter's output depends on.
 */
final class CachedOutput {

    boolean filled;
    Object key;
    long millis;
    byte[] bytes = new byte[64];
    int length;
    /** The values a {@link SegmentKind#KEYED} segment's kept output was written for. */
    private Object[] values;

    /** Whether this holds the output for {@code key} (never {@code null}). */
    boolean holds(Object key) {
        return filled && (key == this.key || key.equals(this.key));
    }

    /** Whether this holds the output of a {@link SegmentKind#KEYED} segment for the values {@code keyed} reads of the event. */
    boolean holds(ConverterShapes.Keyed keyed, ILoggingEvent event) {
        if (!filled) {
            return false;
        }
        for (int i = 0; i < values.length; i++) {
            if (!java.util.Objects.equals(values[i], keyed.reader().read(event, i))) {
                return false;
            }
        }
        return true;
    }

    /** As {@link #fill(Segment, ILoggingEvent, EncodingScratch, Object, long)}, kept under the values {@code keyed} reads. */
    boolean fill(Segment segment, ILoggingEvent event, EncodingScratch s, ConverterShapes.Keyed keyed) {
        filled = false;
        if (values == null) {
            values = new Object[keyed.count()];
        }
        for (int i = 0; i < values.length; i++) {
            values[i] = keyed.reader().read(event, i);
        }
        return fill(segment, event, s, null, 0);
    }

    /**
     * Encodes the segment's converter output for this event into this cache, kept under
     * {@code key} or {@code millis}; {@code false} (and empty) when it is longer than the fast path
     * takes.
     */
    boolean fill(Segment segment, ILoggingEvent event, EncodingScratch s, Object key, long millis) {
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
