package io.github.lockfreelog.logback.encoding;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.pattern.ClassicConverter;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.pattern.CompositeConverter;
import ch.qos.logback.core.pattern.Converter;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A {@link ConverterShapes} provider for this module's tests (registered in the test resources'
 * {@code META-INF/services}), with the converters it describes: a composite that wraps its children by
 * level ({@link Bracket}, as Spring Boot's {@code %clr}), one whose output depends on two MDC values
 * ({@link Tenant}), and two that its description would get wrong if the fast path trusted it blindly.
 */
public final class TestShapes implements ConverterShapes {

    /** A global setting the wrappers depend on, as ANSI colours are for {@code %clr}. */
    static volatile Boolean loud = Boolean.FALSE;

    @Override
    public Object state() {
        return loud;
    }

    @Override
    public Shape shapeOf(Converter<ILoggingEvent> converter) {
        Class<?> type = converter.getClass();
        if (type == Plain.class) {
            return new Wrapper((level, in) -> in); // as Spring Boot's %clr with ANSI colours off
        }
        if (type == Bracket.class || type == Liar.class) {
            return new Wrapper(Bracket::wrap); // wrong for Liar, whose output has its children's twice
        }
        if (type == Tenant.class) {
            return new Keyed(2, (event, index) -> event.getMDCPropertyMap().get(index == 0 ? "tenant" : "zone"));
        }
        if (type == Unanswerable.class) {
            throw new IllegalStateException("this provider fails for Unanswerable");
        }
        return null;
    }

    /** {@code <W:children>}: the level's first letter, in double brackets while {@link #loud}. */
    public static final class Bracket extends CompositeConverter<ILoggingEvent> {
        static String wrap(Level level, String in) {
            boolean isLoud = loud;
            return (isLoud ? "<<" : "<") + level.levelStr.charAt(0) + ":" + in + (isLoud ? ">>" : ">");
        }

        @Override
        protected String transform(ILoggingEvent event, String in) {
            return wrap(event.getLevel(), in);
        }
    }

    /** Writes its children as they are, as {@code %clr} does while ANSI colours are off. */
    public static final class Plain extends CompositeConverter<ILoggingEvent> {
        @Override
        protected String transform(ILoggingEvent event, String in) {
            return in;
        }
    }

    /** Writes its children twice: not a wrapper, though the provider says it is. */
    public static final class Liar extends CompositeConverter<ILoggingEvent> {
        @Override
        protected String transform(ILoggingEvent event, String in) {
            return in + in;
        }
    }

    /** {@code [tenant/zone]} from the MDC; counts its calls. */
    public static final class Tenant extends ClassicConverter {
        static final AtomicInteger CALLS = new AtomicInteger();

        @Override
        public String convert(ILoggingEvent event) {
            CALLS.incrementAndGet();
            return "[" + event.getMDCPropertyMap().get("tenant") + "/" + event.getMDCPropertyMap().get("zone") + "]";
        }
    }

    /** A converter the provider throws for. */
    public static final class Unanswerable extends ClassicConverter {
        @Override
        public String convert(ILoggingEvent event) {
            return "(" + event.getLevel() + ")";
        }
    }
}
