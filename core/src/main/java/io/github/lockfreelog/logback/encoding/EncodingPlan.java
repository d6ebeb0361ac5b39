package io.github.lockfreelog.logback.encoding;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.pattern.Converter;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the converter chain of one start of a layout into its segments, in the order they write;
 * a layout started again has a new chain and gets a new plan.
 */
final class EncodingPlan {

    /** The first converter of the chain this plan was read from. */
    final Converter<ILoggingEvent> head;
    final Segment[] segments;
    /** The runs of {@link #segments} written whole from a thread's kept output, by first segment ({@code null} elsewhere). */
    final SegmentRun[] runs;

    EncodingPlan(Converter<ILoggingEvent> head) {
        this.head = head;
        List<Segment> list = new ArrayList<>();
        for (Converter<ILoggingEvent> c = head; c != null; c = c.getNext()) {
            list.add(Segment.of(c));
        }
        this.segments = list.toArray(new Segment[0]);
        this.runs = SegmentRun.of(segments);
    }
}
