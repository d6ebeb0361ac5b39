package io.github.lockfreelog.logback.encoding;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.LoggingEvent;

import ch.qos.logback.core.pattern.CompositeConverter;
import ch.qos.logback.core.pattern.Converter;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;

/**
 * Reads the converter chain of one start of a layout into its segments, in the order they write;
 * a layout started again has a new chain and gets a new plan.
 *
 * <p>A composite that a {@link ConverterShapes} provider describes as a {@link ConverterShapes.Wrapper}
 * is taken apart: its prefix by level, the segments of its children, its suffix by level (once the
 * composite itself is seen to write exactly that, for an event of each level). A converter
 * described as {@link ConverterShapes.Keyed} becomes a {@link SegmentKind#KEYED} segment. Neighbouring
 * constants are joined and empty ones left out, so Spring Boot's console pattern without ANSI colours
 * has the same segments as its file pattern.
 */
final class EncodingPlan {

    /** Marks where a wrapper's children go in its transformation's output. */
    private static final String INNER = "\u0000";

    /** The first converter of the chain this plan was read from. */
    final Converter<ILoggingEvent> head;
    final Segment[] segments;
    /** The runs of {@link #segments} written whole from a thread's kept output, by first segment ({@code null} elsewhere). */
    final SegmentRun[] runs;
    /** The providers whose shapes this plan used, and their {@link ConverterShapes#state()} when it was read. */
    private final ConverterShapes[] used;
    private final Object[] states;

    EncodingPlan(Converter<ILoggingEvent> head, List<ConverterShapes> providers) {
        this.head = head;
        List<ConverterShapes> usedProviders = new ArrayList<>();
        List<Object> usedStates = new ArrayList<>();
        List<Segment> list = new ArrayList<>();
        add(head, providers, list, usedProviders, usedStates);
        this.segments = joinConstants(list);
        this.runs = SegmentRun.of(segments);
        this.used = usedProviders.toArray(new ConverterShapes[0]);
        this.states = usedStates.toArray();
    }

    /** Whether every provider this plan used still is in the state it was read in. */
    boolean isCurrent() {
        for (int i = 0; i < used.length; i++) {
            if (used[i].state() != states[i]) {
                return false;
            }
        }
        return true;
    }

    private static void add(Converter<ILoggingEvent> chain, List<ConverterShapes> providers, List<Segment> list,
            List<ConverterShapes> usedProviders, List<Object> usedStates) {
        for (Converter<ILoggingEvent> c = chain; c != null; c = c.getNext()) {
            ConverterShapes provider = null;
            ConverterShapes.Shape shape = null;
            Object state = null;
            for (ConverterShapes candidate : providers) {
                try {
                    state = candidate.state();
                    shape = candidate.shapeOf(c);
                } catch (RuntimeException | LinkageError e) {
                    shape = null; // a provider that cannot answer: the converter is written as any other
                }
                if (shape != null) {
                    provider = candidate;
                    break;
                }
            }
            byte[][][] wrap = shape instanceof ConverterShapes.Wrapper wrapper ? prefixesAndSuffixes(c, wrapper) : null;
            if (wrap != null) {
                list.add(Segment.byLevel(wrap[0]));
                add(((CompositeConverter<ILoggingEvent>) c).getChildConverter(), providers, list, usedProviders, usedStates);
                list.add(Segment.byLevel(wrap[1]));
            } else if (shape instanceof ConverterShapes.Keyed keyed) {
                list.add(Segment.keyed(c, keyed));
            } else {
                list.add(Segment.of(c));
                continue;
            }
            if (!usedProviders.contains(provider)) {
                usedProviders.add(provider);
                usedStates.add(state);
            }
        }
    }

    /**
     * A wrapper's prefixes and suffixes by level ({@code [0]} and {@code [1]}), or {@code null} where it
     * cannot be taken apart: padding of its own, or a transformation that does not write its children's
     * output once, unchanged.
     */
    private static byte[][][] prefixesAndSuffixes(Converter<ILoggingEvent> c, ConverterShapes.Wrapper wrapper) {
        if (!(c instanceof CompositeConverter<ILoggingEvent> composite) || composite.getFormattingInfo() != null) {
            return null;
        }
        byte[][][] wrap = new byte[2][Segment.LEVELS.length][];
        for (int i = 0; i < Segment.LEVELS.length; i++) {
            String out;
            try {
                out = wrapper.transform().apply(Segment.LEVELS[i], INNER);
            } catch (RuntimeException | LinkageError e) {
                return null;
            }
            int at = out == null ? -1 : out.indexOf(INNER);
            if (at < 0 || out.indexOf(INNER, at + 1) >= 0) {
                return null;
            }
            String prefix = out.substring(0, at);
            String suffix = out.substring(at + 1);
            if (!agrees(composite, Segment.LEVELS[i], prefix, suffix)) {
                return null;
            }
            wrap[0][i] = prefix.getBytes(StandardCharsets.UTF_8);
            wrap[1][i] = suffix.getBytes(StandardCharsets.UTF_8);
        }
        return wrap;
    }

    /**
     * Whether the composite itself writes {@code prefix}, its children's output and {@code suffix} for an
     * event of {@code level} (logged here to the root logger of its context): a check of the provider's
     * description against the converter, once per plan.
     */
    private static boolean agrees(CompositeConverter<ILoggingEvent> composite, Level level, String prefix, String suffix) {
        if (!(composite.getContext() instanceof LoggerContext context)) {
            return false;
        }
        try {
            LoggingEvent event = new LoggingEvent(EncodingPlan.class.getName(), context.getLogger(Logger.ROOT_LOGGER_NAME), level,
                    "lockfreelog checks a converter's description", null, null);
            StringBuilder children = new StringBuilder(prefix);
            for (Converter<ILoggingEvent> c = composite.getChildConverter(); c != null; c = c.getNext()) {
                c.write(children, event);
            }
            return composite.convert(event).equals(children.append(suffix).toString());
        } catch (RuntimeException | LinkageError e) {
            return false;
        }
    }

    /** {@code list} with each stretch of constants joined into one, and empty constants left out. */
    private static Segment[] joinConstants(List<Segment> list) {
        List<Segment> joined = new ArrayList<>();
        ByteArrayOutputStream constant = new ByteArrayOutputStream();
        for (Segment segment : list) {
            if (segment.kind == SegmentKind.CONSTANT) {
                constant.writeBytes(segment.constant);
                continue;
            }
            if (constant.size() > 0) {
                joined.add(Segment.constant(constant.toByteArray()));
                constant.reset();
            }
            joined.add(segment);
        }
        if (constant.size() > 0) {
            joined.add(Segment.constant(constant.toByteArray()));
        }
        return joined.toArray(new Segment[0]);
    }
}
