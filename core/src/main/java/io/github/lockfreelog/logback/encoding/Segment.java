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

    final Converter<ILoggingEvent> converter;
    final SegmentKind kind;
    /** The output of a {@link SegmentKind#CONSTANT} segment. */
    final byte[] constant;

    private Segment(Converter<ILoggingEvent> converter, SegmentKind kind, byte[] constant) {
        this.converter = converter;
        this.kind = kind;
        this.constant = constant;
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
    boolean write(ILoggingEvent event, PatternEncoding.Scratch s, CachedOutput[] cache) {
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
            case THROWABLE -> event.getThrowableProxy() == null || writeOther(event, s);
            case OTHER -> writeOther(event, s);
        };
    }

    /** The way for any converter: it writes into the reused builder, whose characters are then encoded. */
    private boolean writeOther(ILoggingEvent event, PatternEncoding.Scratch s) {
        StringBuilder text = s.text;
        text.setLength(0);
        converter.write(text, event);
        return s.putUtf8(text);
    }
}
