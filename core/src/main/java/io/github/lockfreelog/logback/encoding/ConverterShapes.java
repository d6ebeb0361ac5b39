package io.github.lockfreelog.logback.encoding;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.pattern.Converter;

/**
 * Tells the fast path what the output of a converter it does not know depends on, so that its
 * output is kept per thread or taken apart instead of being written into a builder for every event.
 * Providers are found with {@link java.util.ServiceLoader} on the class path of this library; the
 * Spring Boot starter has one for Spring Boot's conversion words ({@code %clr}, {@code %esb},
 * {@code %correlationId}). A provider answers only for converters of exactly the classes it knows,
 * and its answers must give, for every event, the bytes the converter itself gives: the pattern
 * tests compare the two.
 */
public interface ConverterShapes {

    /** What the output of {@code converter} depends on, or {@code null} when this provider does not know it. */
    Shape shapeOf(Converter<ILoggingEvent> converter);

    /**
     * What the shapes this provider gives depend on besides the event (a global setting, such as
     * whether ANSI colours are on): the fast path reads a layout's converters again when this
     * changes, compared by identity. {@code null} when nothing else counts.
     */
    default Object state() {
        return null;
    }

    /** What a converter's output depends on. */
    sealed interface Shape permits Wrapper, Keyed {
    }

    /**
     * A composite converter whose output is its children's output between a prefix and a suffix that
     * depend on the event's level alone (Spring Boot's {@code %clr}). The fast path writes the
     * children itself, so each of them is kept or encoded as it would be outside the composite.
     * Taken only for a composite without padding of its own.
     *
     * @param transform the composite's output for an event of {@code level} whose children wrote {@code inner}
     */
    record Wrapper(Transform transform) implements Shape {
    }

    /** {@link Wrapper}'s transformation: the composite's own, for an event of a level. */
    @FunctionalInterface
    interface Transform {
        String apply(Level level, String inner);
    }

    /**
     * A converter whose whole output (padding included) depends only on a few values read from the
     * event without allocating (an MDC entry, a property of the logger context): each thread keeps its
     * last output and the converter is called again only when one of the values changes (compared with
     * {@code equals}).
     *
     * @param count how many values: {@code reader} is called with the indexes {@code 0..count)}
     * @param reader reads one value of an event; it may return {@code null}
     */
    record Keyed(int count, KeyReader reader) implements Shape {
        public Keyed {
            if (count < 1 || count > 8) {
                throw new IllegalArgumentException("a keyed converter has 1 to 8 values, not " + count);
            }
        }
    }

    /** Reads the {@code index}th value a {@link Keyed} converter's output depends on. */
    @FunctionalInterface
    interface KeyReader {
        Object read(ILoggingEvent event, int index);
    }
}
