package io.github.lockfreelog.logback.encoding;

/**
 * What the whole output of one converter of a pattern (padding included) depends on, and so how
 * many of its encoded outputs each thread keeps. Only Logback's own converters, of exactly their
 * class, and those a {@link ConverterShapes} provider describes get a kind other than {@link #OTHER}
 * (see {@link Segment#of} and {@link EncodingPlan}).
 */
enum SegmentKind {
    /** Literal text and {@code %n}: the same bytes for every event, encoded once per plan. */
    CONSTANT(0),
    /** {@code %level}: one kept output per level. */
    LEVEL(8),
    /** {@code %thread}: the output for the thread's name. */
    THREAD(1),
    /** {@code %logger}: the outputs for a few logger names (a power of two; the name's hash picks one). */
    LOGGER(32),
    /** {@code %date}: the output for the millisecond of the last event. */
    DATE(1),
    /**
     * The prefix or the suffix that a {@link ConverterShapes.Wrapper} composite writes around its
     * children ({@code %clr}'s colour codes): one output per level, encoded once per plan.
     */
    BY_LEVEL(0),
    /** A {@link ConverterShapes.Keyed} converter: the output for the last values it depends on. */
    KEYED(1),
    /** {@code %msg} without padding: the message is encoded itself, nothing is kept. */
    MESSAGE(0),
    /**
     * {@code %ex} and {@code %xEx} without padding, and their subclasses that change only how a
     * throwable is printed (Spring Boot's {@code %wEx}): nothing for an event without a throwable, as
     * Logback's {@code ThrowableProxyConverter.convert} gives; an event with one goes through the converter.
     */
    THROWABLE(0),
    /** Any other converter: it writes into the thread's builder, whose characters are encoded; nothing is kept. */
    OTHER(0);

    /** How many outputs of a segment of this kind one thread keeps (0: none). */
    final int keptOutputs;

    SegmentKind(int keptOutputs) {
        this.keptOutputs = keptOutputs;
    }

    /**
     * Whether a segment of this kind may be part of a {@link SegmentRun}: its output depends on
     * nothing, or only on the event's millisecond, level, thread name or logger name.
     */
    boolean joinsRuns() {
        return this == CONSTANT || this == BY_LEVEL || this == LEVEL || this == THREAD || this == LOGGER || this == DATE;
    }
}
