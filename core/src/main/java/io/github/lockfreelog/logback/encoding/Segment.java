package io.github.lockfreelog.logback.encoding;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.pattern.DateConverter;
import ch.qos.logback.classic.pattern.LevelConverter;
import ch.qos.logback.classic.pattern.LineSeparatorConverter;
import ch.qos.logback.classic.pattern.LoggerConverter;
import ch.qos.logback.classic.pattern.MessageConverter;
import ch.qos.logback.classic.pattern.ThreadConverter;
import ch.qos.logback.classic.pattern.ThrowableProxyConverter;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.pattern.Converter;
import ch.qos.logback.core.pattern.FormattingConverter;
import ch.qos.logback.core.pattern.LiteralConverter;
import java.nio.charset.StandardCharsets;

/**
 * Appends one converter's output for an event to a thread's scratch, from the thread's kept
 * output where its {@link SegmentKind} allows, else through the converter.
 */
final class Segment {

    /** Levels as {@link #levelIndex} numbers them: the levels an event can have. */
    static final Level[] LEVELS = {Level.TRACE, Level.DEBUG, Level.INFO, Level.WARN, Level.ERROR};

    final Converter<ILoggingEvent> converter;
    final SegmentKind kind;
    /** The output of a {@link SegmentKind#CONSTANT} segment. */
    final byte[] constant;
    /** The outputs of a {@link SegmentKind#BY_LEVEL} segment, by {@link #levelIndex}. */
    final byte[][] byLevel;
    /** What a {@link SegmentKind#KEYED} segment's output depends on. */
    final ConverterShapes.Keyed keyed;

    private Segment(Converter<ILoggingEvent> converter, SegmentKind kind, byte[] constant, byte[][] byLevel,
            ConverterShapes.Keyed keyed) {
        this.converter = converter;
        this.kind = kind;
        this.constant = constant;
        this.byLevel = byLevel;
        this.keyed = keyed;
    }

    private Segment(Converter<ILoggingEvent> converter, SegmentKind kind, byte[] constant) {
        this(converter, kind, constant, null, null);
    }

    /** A segment that writes {@code bytes} for every event. */
    static Segment constant(byte[] bytes) {
        return new Segment(null, SegmentKind.CONSTANT, bytes);
    }

    /** A segment that writes {@code outputs[levelIndex(level)]}: a constant where all are the same. */
    static Segment byLevel(byte[][] outputs) {
        for (byte[] output : outputs) {
            if (!java.util.Arrays.equals(output, outputs[0])) {
                return new Segment(null, SegmentKind.BY_LEVEL, null, outputs, null);
            }
        }
        return constant(outputs[0]);
    }

    /** The segment of a converter whose output depends only on the values {@code keyed} reads. */
    static Segment keyed(Converter<ILoggingEvent> c, ConverterShapes.Keyed keyed) {
        return new Segment(c, SegmentKind.KEYED, null, null, keyed);
    }

    /** The index of {@code level} in {@link #LEVELS}, or -1 for another level (or none). */
    static int levelIndex(Level level) {
        if (level == null) {
            return -1;
        }
        int index = level.toInt() / Level.DEBUG_INT;
        return index >= 0 && index < LEVELS.length && LEVELS[index] == level ? index : -1;
    }

    /** The segment of converter {@code c}: its kind is decided by its exact class. */
    static Segment of(Converter<ILoggingEvent> c) {
        Class<?> type = c.getClass();
        if (type == LiteralConverter.class || type == LineSeparatorConverter.class) {
            try {
                StringBuilder text = new StringBuilder();
                c.write(text, null); // neither reads the event
                return new Segment(c, SegmentKind.CONSTANT, text.toString().getBytes(StandardCharsets.UTF_8));
            } catch (RuntimeException e) {
                return new Segment(c, SegmentKind.OTHER, null);
            }
        }
        SegmentKind kind = type == LevelConverter.class ? SegmentKind.LEVEL
                : type == ThreadConverter.class ? SegmentKind.THREAD
                : type == LoggerConverter.class ? SegmentKind.LOGGER
                : type == DateConverter.class ? SegmentKind.DATE
                : type == MessageConverter.class && ((FormattingConverter<?>) c).getFormattingInfo() == null
                        ? SegmentKind.MESSAGE
                : isPlainThrowable(c) ? SegmentKind.THROWABLE
                : SegmentKind.OTHER;
        return new Segment(c, kind, null);
    }

    /**
     * Whether {@code c} is a {@link ThrowableProxyConverter} without padding whose {@code convert}
     * and {@code write} are Logback's own: its output for an event without a throwable is then empty.
     */
    private static boolean isPlainThrowable(Converter<ILoggingEvent> c) {
        if (!(c instanceof ThrowableProxyConverter throwable) || throwable.getFormattingInfo() != null) {
            return false;
        }
        try {
            return c.getClass().getMethod("convert", ILoggingEvent.class).getDeclaringClass() == ThrowableProxyConverter.class
                    && c.getClass().getMethod("write", StringBuilder.class, Object.class).getDeclaringClass()
                            == FormattingConverter.class;
        } catch (NoSuchMethodException | RuntimeException e) {
            return false;
        }
    }

    /** A thread's new, unfilled cache of this segment's outputs, or {@code null} where its kind keeps none. */
    CachedOutput[] newCache() {
        int count = kind.keptOutputs;
        if (count == 0) {
            return null;
        }
        CachedOutput[] cache = new CachedOutput[count];
        for (int i = 0; i < count; i++) {
            cache[i] = new CachedOutput();
        }
        return cache;
    }

    /**
     * Appends this segment's bytes for the event, using and refreshing the thread's {@code cache};
     * {@code false} if the event is too long for the fast path.
     */
    boolean write(ILoggingEvent event, EncodingScratch s, CachedOutput[] cache) {
        return switch (kind) {
            case CONSTANT -> s.put(constant, constant.length);
            case MESSAGE -> {
                String message = event.getFormattedMessage();
                yield s.putUtf8(message == null ? "null" : message);
            }
            case DATE -> {
                long millis = event.getTimeStamp();
                CachedOutput kept = cache[0];
                yield (kept.filled && kept.millis == millis || kept.fill(this, event, s, null, millis))
                        && s.put(kept.bytes, kept.length);
            }
            case LEVEL, THREAD, LOGGER -> {
                Object key = kind == SegmentKind.LEVEL ? event.getLevel()
                        : kind == SegmentKind.THREAD ? event.getThreadName() : event.getLoggerName();
                if (key == null) {
                    yield writeOther(event, s);
                }
                int index = kind == SegmentKind.LEVEL ? ((Level) key).toInt() / Level.DEBUG_INT : key.hashCode();
                CachedOutput kept = cache[index & (cache.length - 1)];
                yield (kept.holds(key) || kept.fill(this, event, s, key, 0)) && s.put(kept.bytes, kept.length);
            }
            case BY_LEVEL -> {
                int index = levelIndex(event.getLevel());
                yield index >= 0 && s.put(byLevel[index], byLevel[index].length); // another level: the encoder's way
            }
            case KEYED -> {
                CachedOutput kept = cache[0];
                yield (kept.holds(keyed, event) || kept.fill(this, event, s, keyed)) && s.put(kept.bytes, kept.length);
            }
            case THROWABLE -> event.getThrowableProxy() == null || writeOther(event, s);
            case OTHER -> writeOther(event, s);
        };
    }

    /** The way for any converter: it writes into the reused builder, whose characters are then encoded. */
    private boolean writeOther(ILoggingEvent event, EncodingScratch s) {
        StringBuilder text = s.text;
        text.setLength(0);
        converter.write(text, event);
        return s.putUtf8(text);
    }
}
