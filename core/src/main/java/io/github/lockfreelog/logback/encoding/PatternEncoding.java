package io.github.lockfreelog.logback.encoding;

import ch.qos.logback.classic.PatternLayout;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.encoder.Encoder;
import ch.qos.logback.core.encoder.LayoutWrappingEncoder;
import ch.qos.logback.core.pattern.Converter;
import io.github.lockfreelog.engine.VirtualThreads;
import java.util.Arrays;
import java.util.List;

/**
 * Encodes an event of a plain {@link PatternLayoutEncoder} straight into a per-thread byte buffer
 * (a platform thread's own, or one a virtual thread borrows from a fixed pool):
 * the same bytes as {@code encoder.encode(event)}, without the {@code StringBuilder}, {@code String}
 * and {@code byte[]} that Logback allocates for each event, and without encoding again the parts of a
 * line that rarely change.
 *
 * <p>The layout's converter chain is read once into an {@link EncodingPlan} of {@link Segment}s. A
 * segment whose converter is one of Logback's own, of exactly its class, and whose whole output
 * (padding included) depends only on one property of the event is kept per thread as UTF-8 bytes
 * ({@link CachedOutput}) and encoded again only when that property changes:
 * <ul>
 * <li>literal text and {@code %n}: constant;</li>
 * <li>{@code %level}: the level; {@code %thread}: the thread's name; {@code %logger}: the logger's
 *     name (a few names per thread are kept); {@code %date}: the millisecond of the event.</li>
 * </ul>
 * {@code %msg} without padding is encoded from the message itself. Converters that a
 * {@link ConverterShapes} provider describes (the Spring Boot starter's, for Spring Boot's
 * {@code %clr}, {@code %esb} and {@code %correlationId}) are taken apart or kept by the values they
 * depend on. Every other converter (the user's, composite ones, {@code %ex} of an event with a
 * throwable, {@code %X}...) writes into a reused {@code StringBuilder} as in Logback, and its
 * characters are encoded from there ({@link SegmentKind} lists the kinds).
 *
 * <p>An encoder that an {@link EncoderTexts} provider knows (the Spring Boot starter's, for Spring
 * Boot's structured formats) is served too: its text for the event is encoded straight into the
 * thread's buffer, in place of the encoder's own {@code byte[]}.
 *
 * <p>Used only where the result is the same by construction: the encoder is exactly
 * {@code PatternLayoutEncoder} or {@code LayoutWrappingEncoder} (the Spring Boot starter's), its
 * layout exactly {@code PatternLayout} (its converters may be any), its charset UTF-8, and the
 * layout's converter chain is readable; anything else goes through {@code encoder.encode}.
 *
 * <p>Its parts: {@link LayoutAccess} (which encoders qualify, and their converter chain),
 * {@link EncodingProviders} (the shapes and texts found on the class path), {@link EncodingPlan} (the chain read
 * once) and {@link EncodingScratch} (a thread's working memory and the bytes of its event).
 */
public final class PatternEncoding {

    /** The pattern layout encoded here, or {@code null} where {@link #text} is. */
    private final PatternLayout layout;
    /** The text of an encoder a {@link EncoderTexts} provider knows, or {@code null} where {@link #layout} is. */
    private final EncoderTexts.EventText text;
    /** The plan of the layout's current converter chain; rebuilt if the layout is started again. */
    private volatile EncodingPlan plan;

    /** Platform threads keep a scratch each (bounded by the threads alive; freed with them). */
    private final ThreadLocal<EncodingScratch> scratch =
            ThreadLocal.withInitial(() -> new EncodingScratch(EncodingScratch.OWN));
    /** Virtual threads borrow one: see {@link ScratchPool}. */
    final ScratchPool pool = ScratchPool.forThisMachine();

    private PatternEncoding(PatternLayout layout, EncoderTexts.EventText text) {
        this.layout = layout;
        this.text = text;
        VirtualThreads.isCurrent(); // loaded now, not inside a virtual caller's first event (which would pin it)
    }

    /** The names of the {@link ConverterShapes} providers in use, for the appender's start-up report and for tests. */
    public static List<String> shapeProviders() {
        return EncodingProviders.names(EncodingProviders.SHAPES);
    }

    /**
     * Whether the layout's converter chain can be read, which the fast path needs ({@link LayoutAccess}).
     */
    static boolean available() {
        return LayoutAccess.available();
    }

    /** The running Logback's version, as its jar names it, or {@code "unknown"}. */
    public static String logbackVersion() {
        return LayoutAccess.logbackVersion();
    }

    /** The fast path for this encoder, or {@code null} where it would not give the same bytes. */
    public static PatternEncoding of(Encoder<ILoggingEvent> encoder) {
        PatternLayout layout = LayoutAccess.eligibleLayout(encoder);
        if (layout != null) {
            return LayoutAccess.available() ? new PatternEncoding(layout, null) : null;
        }
        EncoderTexts.EventText text = EncodingProviders.textOf(encoder);
        return text == null ? null : new PatternEncoding(null, text);
    }

    /** The names of the {@link EncoderTexts} providers in use, for tests. */
    public static List<String> textProviders() {
        return EncodingProviders.names(EncodingProviders.TEXTS);
    }

    /**
     * Whether {@code encoder} is one the fast path would take but cannot, because this Logback's
     * converter chain cannot be read ({@link #available()} is {@code false}): its events are then
     * encoded the ordinary way, allocating per event, and the appender says so.
     */
    public static boolean isEligibleButUnavailable(Encoder<ILoggingEvent> encoder) {
        return !LayoutAccess.available() && LayoutAccess.eligibleLayout(encoder) != null;
    }

    /**
     * The classes of the layout's converters that write into a builder for every event, which then is
     * encoded (the allocating part of Logback's own path), in pattern order: empty when every converter
     * is kept, taken apart or written straight (a throwable converter counts only for events with a
     * throwable, and is not listed). For the appender's start-up report and for tests.
     */
    @SuppressWarnings("unchecked")
    public List<String> convertersOffTheFastPath() {
        if (layout == null || !layout.isStarted()) {
            return List.of();
        }
        EncodingPlan p = new EncodingPlan(LayoutAccess.head(layout), EncodingProviders.SHAPES);
        return Arrays.stream(p.segments).filter(segment -> segment.kind == SegmentKind.OTHER)
                .map(segment -> segment.converter.getClass().getName()).toList();
    }

    /**
     * Encodes the event into this thread's buffer (a virtual thread's is lent from a pool: the caller gives it back
     * with {@link #release} once it has used the bytes; when a converter throws, it goes back before the throw).
     *
     * @return the scratch holding the bytes in {@code bytes[0..length)} (none while the layout is
     *         stopped), or {@code null} when the event is too long for the fast path, or a virtual
     *         thread finds every pooled scratch lent (the caller then uses the encoder)
     */
    @SuppressWarnings("unchecked")
    public EncodingScratch encode(ILoggingEvent event) {
        EncodingScratch s = VirtualThreads.isCurrent() ? pool.take() : scratch.get();
        if (s == null) {
            return null;
        }
        s.length = 0;
        if (text != null) {
            return encodeText(s, event);
        }
        if (!layout.isStarted()) {
            return s;
        }
        Converter<ILoggingEvent> head = LayoutAccess.head(layout);
        EncodingPlan p = plan;
        if (p == null || p.head != head || !p.isCurrent()) {
            p = new EncodingPlan(head, EncodingProviders.SHAPES);
            plan = p;
        }
        if (s.plan != p) {
            s.use(p);
        }
        try {
            return encodeInto(s, p, event);
        } catch (RuntimeException | Error failure) {
            release(s);
            throw failure;
        }
    }

    /** Writes the encoder's text for the event into {@code s}; {@code null} when it is too long for the fast path. */
    private EncodingScratch encodeText(EncodingScratch s, ILoggingEvent event) {
        try {
            CharSequence written = text.of(event);
            return written != null && s.putUtf8(written) ? s : tooLong(s); // no text, or too long: the encoder's way
        } catch (RuntimeException | Error failure) {
            release(s);
            throw failure;
        }
    }

    /** Writes the event's segments into {@code s}; {@code null} when it is too long for the fast path. */
    private EncodingScratch encodeInto(EncodingScratch s, EncodingPlan p, ILoggingEvent event) {
        final Segment[] segments = p.segments;
        final SegmentRun[] runs = p.runs;
        for (int i = 0; i < segments.length;) {
            final SegmentRun run = runs[i];
            if (run == null) {
                if (!segments[i].write(event, s, s.caches[i])) {
                    return tooLong(s);
                }
                i++;
                continue;
            }
            final SegmentRun.Kept kept = s.runs[i];
            if (kept.holds(run, event)) {
                if (!s.put(kept.bytes, kept.length)) {
                    return tooLong(s);
                }
            } else {
                final int from = s.length;
                for (int j = i; j < run.end; j++) {
                    if (!segments[j].write(event, s, s.caches[j])) {
                        return tooLong(s);
                    }
                }
                kept.keep(run, event, s.bytes, from, s.length - from);
            }
            i = run.end;
        }
        return s;
    }

    /** Gives up on an event too long for the fast path: the caller uses the encoder. */
    private EncodingScratch tooLong(EncodingScratch s) {
        s.tooLong();
        release(s);
        return null;
    }

    /** Gives back a scratch that {@link #encode} returned, once its bytes are used; a no-op for a thread's own. */
    public void release(EncodingScratch s) {
        if (s.home != EncodingScratch.OWN) {
            pool.give(s);
        }
    }
}
