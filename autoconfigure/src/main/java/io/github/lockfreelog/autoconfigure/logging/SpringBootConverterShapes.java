package io.github.lockfreelog.autoconfigure.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.pattern.CompositeConverter;
import ch.qos.logback.core.pattern.Converter;
import ch.qos.logback.core.pattern.DynamicConverter;
import io.github.lockfreelog.logback.encoding.ConverterShapes;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.boot.ansi.AnsiColor;
import org.springframework.boot.ansi.AnsiElement;
import org.springframework.boot.ansi.AnsiOutput;
import org.springframework.boot.ansi.AnsiStyle;
import org.springframework.boot.logging.logback.ColorConverter;
import org.springframework.boot.logging.logback.CorrelationIdConverter;
import org.springframework.boot.logging.logback.EnclosedInSquareBracketsConverter;

/**
 * Describes Spring Boot's conversion words to the appender's pattern fast path (registered in
 * {@code META-INF/services}), so that Spring Boot's default patterns are encoded without allocating:
 * <ul>
 * <li>{@code %clr(...)}: its children between ANSI codes that depend on its colour option or on the
 *     level (nothing while ANSI output is off); the fast path reads the pattern again when
 *     {@code spring.output.ansi.enabled} ({@link AnsiOutput#getEnabled()}) changes;</li>
 * <li>{@code %esb(){NAME}} ({@code APPLICATION_NAME}, {@code APPLICATION_GROUP}) and Spring Boot 3.5's
 *     {@code %applicationName}: the output for the property's value, read from the logger context or the
 *     system properties as the converter reads it;</li>
 * <li>{@code %correlationId}: the output for the MDC values it names ({@code traceId} and {@code spanId}
 *     by default), so the converter runs once per span, not once per event.</li>
 * </ul>
 * Spring Boot's {@code %wEx} and {@code %xwEx} need nothing here: for an event without a throwable
 * they write nothing, which the fast path knows of every plain throwable converter. Only these exact
 * classes are described; a subclass is written as Logback writes it. The pattern tests compare the
 * bytes with Spring Boot's own encoder on each supported Spring Boot line.
 */
public final class SpringBootConverterShapes implements ConverterShapes {

    /** Spring Boot 3.5's {@code %applicationName} (removed in 4.0): matched by name. */
    static final String APPLICATION_NAME_CONVERTER = "org.springframework.boot.logging.logback.ApplicationNameConverter";

    /** The logger-context property {@code %applicationName} reads (Spring Boot's {@code LoggingSystemProperty.APPLICATION_NAME}). */
    static final String LOGGED_APPLICATION_NAME = "LOGGED_APPLICATION_NAME";

    /** The names of the values {@code %correlationId} writes when given no option. */
    private static final List<String> DEFAULT_CORRELATION = List.of("traceId", "spanId");

    /** One part of {@code %correlationId}'s option, {@code name(length)}, as Spring Boot parses it. */
    private static final Pattern CORRELATION_PART = Pattern.compile("^(.+?)\\((\\d+)\\)$");

    /** The options of a converter: {@code DynamicConverter.getOptionList()} is protected. */
    private static final VarHandle OPTIONS = optionsHandle();

    private static VarHandle optionsHandle() {
        try {
            return MethodHandles.privateLookupIn(DynamicConverter.class, MethodHandles.lookup())
                    .findVarHandle(DynamicConverter.class, "optionList", List.class);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null; // %correlationId is then written as Logback writes it
        }
    }

    @Override
    public Object state() {
        return AnsiOutput.getEnabled();
    }

    @Override
    public Shape shapeOf(Converter<ILoggingEvent> converter) {
        Class<?> type = converter.getClass();
        if (type == ColorConverter.class) {
            String option = ((ColorConverter) converter).getFirstOption();
            return new Wrapper((level, inner) -> AnsiOutput.toString(colour(option, level), inner));
        }
        if (type == EnclosedInSquareBracketsConverter.class
                && ((CompositeConverter<ILoggingEvent>) converter).getChildConverter() == null) {
            String name = ((EnclosedInSquareBracketsConverter) converter).getFirstOption();
            return new Keyed(1, (event, index) -> property(event, name));
        }
        if (type.getName().equals(APPLICATION_NAME_CONVERTER)) {
            return new Keyed(1, (event, index) -> property(event, LOGGED_APPLICATION_NAME));
        }
        if (type == CorrelationIdConverter.class) {
            List<String> names = correlationNames((CorrelationIdConverter) converter);
            return names == null || names.size() > 8 ? null
                    : new Keyed(names.size(), (event, index) -> event.getMDCPropertyMap().get(names.get(index)));
        }
        return null;
    }

    /** The element {@code %clr} colours with: its option's colour, else by level (red, yellow, else green). */
    static AnsiElement colour(String option, Level level) {
        if ("faint".equals(option)) {
            return AnsiStyle.FAINT;
        }
        for (AnsiColor colour : AnsiColor.values()) {
            if (colour != AnsiColor.DEFAULT && colour.name().toLowerCase(Locale.ROOT).equals(option)) {
                return colour;
            }
        }
        return level == Level.ERROR ? AnsiColor.RED : level == Level.WARN ? AnsiColor.YELLOW : AnsiColor.GREEN;
    }

    /** A property as {@code %esb} reads it: the logger context's, else the system property; {@code null} without a name. */
    private static Object property(ILoggingEvent event, String name) {
        if (name == null) {
            return null;
        }
        String value = event.getLoggerContextVO().getPropertyMap().get(name);
        return value != null ? value : System.getProperty(name);
    }

    /** The MDC names {@code %correlationId} writes, or {@code null} where its options cannot be read or parsed. */
    @SuppressWarnings("unchecked")
    private static List<String> correlationNames(CorrelationIdConverter converter) {
        if (OPTIONS == null) {
            return null;
        }
        List<String> options = (List<String>) OPTIONS.get(converter);
        if (options == null || options.isEmpty()) {
            return DEFAULT_CORRELATION;
        }
        String[] names = new String[options.size()];
        for (int i = 0; i < names.length; i++) {
            Matcher part = CORRELATION_PART.matcher(options.get(i).trim());
            if (!part.matches()) {
                return null;
            }
            names[i] = part.group(1);
        }
        return List.of(names);
    }
}
