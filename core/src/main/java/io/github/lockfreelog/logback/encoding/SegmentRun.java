package io.github.lockfreelog.logback.encoding;

import ch.qos.logback.classic.spi.ILoggingEvent;

/**
 * Consecutive segments of a plan whose outputs a thread keeps ({@link SegmentKind#keptOutputs} or
 * constant, or a prefix or suffix by level): together their output depends only
 * on the event's millisecond, level, thread name and logger name (those the run has segments for),
 * so a thread keeps it whole ({@link Kept}) and writes it with one copy while those stay the same, as
 * they do for a busy thread's lines of one millisecond. Spring Boot's file pattern has two such runs:
 * from {@code %d} to {@code "--- "}, and from {@code "["} before the thread to the {@code " : "} before
 * the message (its {@code %esb} converters between them are {@link SegmentKind#KEYED}).
 */
final class SegmentRun {

    /** The run's first segment and the one after its last. */
    final int first;
    final int end;
    private final boolean date;
    private final boolean level;
    private final boolean thread;
    private final boolean logger;

    /** The run of segments {@code [first, end)}, whose kinds that depend on the event are the bits {@code kinds}. */
    private SegmentRun(int first, int end, int kinds) {
        this.first = first;
        this.end = end;
        this.date = has(kinds, SegmentKind.DATE);
        this.level = has(kinds, SegmentKind.LEVEL);
        this.thread = has(kinds, SegmentKind.THREAD);
        this.logger = has(kinds, SegmentKind.LOGGER);
    }

    private static int bit(SegmentKind kind) {
        return 1 << kind.ordinal();
    }

    private static boolean has(int kinds, SegmentKind kind) {
        return (kinds & bit(kind)) != 0;
    }

    /**
     * The runs of {@code segments}, indexed by their first segment ({@code null} elsewhere): every
     * longest stretch of two or more segments whose kinds {@link SegmentKind#joinsRuns() join runs}.
     */
    static SegmentRun[] of(Segment[] segments) {
        SegmentRun[] runs = new SegmentRun[segments.length];
        int first = 0;
        while (first < segments.length) {
            int end = first;
            int kinds = 0; // the kinds that depend on the event, seen in this run, as bits
            while (end < segments.length && segments[end].kind.joinsRuns()) {
                SegmentKind kind = segments[end].kind;
                if (kind != SegmentKind.CONSTANT) {
                    // a prefix or suffix by level depends on what %level does; two segments of one kind on the same key
                    kinds |= bit(kind == SegmentKind.BY_LEVEL ? SegmentKind.LEVEL : kind);
                }
                end++;
            }
            if (end - first >= 2) {
                runs[first] = new SegmentRun(first, end, kinds);
                first = end;
            } else {
                first = Math.max(end, first + 1);
            }
        }
        return runs;
    }

    /** A thread's kept output of one run, for the keys it was written for. */
    static final class Kept {
        private boolean filled;
        private long millis;
        private Object level;
        private String thread;
        private String logger;
        byte[] bytes = new byte[128];
        int length;

        /** Whether this holds the run's output for {@code event}. */
        boolean holds(SegmentRun run, ILoggingEvent event) {
            return filled
                    && (!run.date || millis == event.getTimeStamp())
                    && (!run.level || level == event.getLevel())
                    && (!run.thread || same(thread, event.getThreadName()))
                    && (!run.logger || same(logger, event.getLoggerName()));
        }

        /** Keeps {@code from[at..at+n)}, the run's output just written for {@code event}. */
        void keep(SegmentRun run, ILoggingEvent event, byte[] from, int at, int n) {
            if (n > bytes.length) {
                bytes = new byte[Math.max(n, 2 * bytes.length)];
            }
            System.arraycopy(from, at, bytes, 0, n);
            length = n;
            millis = run.date ? event.getTimeStamp() : 0;
            level = run.level ? event.getLevel() : null;
            thread = run.thread ? event.getThreadName() : null;
            logger = run.logger ? event.getLoggerName() : null;
            filled = true;
        }

        private static boolean same(String kept, String now) {
            return kept == now || (kept != null && kept.equals(now));
        }
    }
}
