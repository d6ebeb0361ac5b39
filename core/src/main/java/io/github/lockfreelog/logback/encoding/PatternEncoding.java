package io.github.lockfreelog.logback.encoding;

import ch.qos.logback.classic.PatternLayout;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.encoder.Encoder;
import ch.qos.logback.core.encoder.LayoutWrappingEncoder;
import ch.qos.logback.core.pattern.Converter;
import ch.qos.logback.core.pattern.PatternLayoutBase;
import io.github.lockfreelog.engine.VirtualThreads;
import io.github.lockfreelog.records.FrameBuffer;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.Charset;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;

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
 */
public final class PatternEncoding {

    /** Events longer than this many bytes are encoded the ordinary way (and the buffers stay small). */
    static final int MAX_BYTES = 16 * 1024;
    private static final VarHandle HEAD = headHandle();
    /** The {@link ConverterShapes} providers on this library's class path, found once. */
    private static final List<ConverterShapes> SHAPES = load(ConverterShapes.class);
    /** The {@link EncoderTexts} providers on this library's class path, found once. */
    private static final List<EncoderTexts> TEXTS = load(EncoderTexts.class);

    /** The pattern layout encoded here, or {@code null} where {@link #text} is. */
    private final PatternLayout layout;
    /** The text of an encoder a {@link EncoderTexts} provider knows, or {@code null} where {@link #layout} is. */
    private final EncoderTexts.EventText text;
    /** The plan of the layout's current converter chain; rebuilt if the layout is started again. */
    private volatile EncodingPlan plan;

    /** Platform threads keep a scratch each (bounded by the threads alive; freed with them). */
    private final ThreadLocal<Scratch> scratch = ThreadLocal.withInitial(() -> new Scratch(Scratch.OWN));
    /** Virtual threads borrow one: see {@link ScratchPool}. */
    final ScratchPool pool = ScratchPool.forThisMachine();

    private PatternEncoding(PatternLayout layout, EncoderTexts.EventText text) {
        this.layout = layout;
        this.text = text;
        VirtualThreads.isCurrent(); // loaded now, not inside a virtual caller's first event (which would pin it)
    }

    private static VarHandle headHandle() {
        try {
            return MethodHandles.privateLookupIn(PatternLayoutBase.class, MethodHandles.lookup())
                    .findVarHandle(PatternLayoutBase.class, "head", Converter.class);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null; // Logback on the module path, or another version: the ordinary path is used
        }
    }

    private static <T> List<T> load(Class<T> service) {
        List<T> found = new ArrayList<>();
        try {
            Iterator<T> providers = ServiceLoader.load(service, PatternEncoding.class.getClassLoader()).iterator();
            while (providers.hasNext()) {
                try {
                    found.add(providers.next());
                } catch (ServiceConfigurationError | LinkageError e) {
                    // a provider whose classes are missing here (Spring Boot's, without Spring Boot): left out
                }
            }
        } catch (ServiceConfigurationError | RuntimeException | LinkageError e) {
            // none usable: every converter is written as Logback writes it
        }
        return List.copyOf(found);
    }

    /** The names of the {@link ConverterShapes} providers in use, for the appender's start-up report and for tests. */
    public static List<String> shapeProviders() {
        return SHAPES.stream().map(provider -> provider.getClass().getName()).toList();
    }

    /**
     * Whether the layout's converter chain ({@code PatternLayoutBase.head}) can be read, which the fast path needs.
     * {@code false} where the Logback version renamed the field or a native image lacks its reflection hint.
     */
    static boolean available() {
        return HEAD != null;
    }

    /** The running Logback's version, as its jar names it, or {@code "unknown"}. */
    public static String logbackVersion() {
        String version = PatternLayoutBase.class.getPackage().getImplementationVersion();
        return version != null ? version : "unknown";
    }

    /** The fast path for this encoder, or {@code null} where it would not give the same bytes. */
    public static PatternEncoding of(Encoder<ILoggingEvent> encoder) {
        PatternLayout layout = eligibleLayout(encoder);
        if (layout != null) {
            return HEAD == null ? null : new PatternEncoding(layout, null);
        }
        EncoderTexts.EventText text = textOf(encoder);
        return text == null ? null : new PatternEncoding(null, text);
    }

    /** The text of {@code encoder} from the first provider that knows it, or {@code null}. */
    private static EncoderTexts.EventText textOf(Encoder<ILoggingEvent> encoder) {
        if (encoder == null) {
            return null;
        }
        for (EncoderTexts provider : TEXTS) {
            try {
                EncoderTexts.EventText text = provider.textOf(encoder);
                if (text != null) {
                    return text;
                }
            } catch (RuntimeException | LinkageError e) {
                // a provider that cannot answer: the encoder encodes its events itself
            }
        }
        return null;
    }

    /** The names of the {@link EncoderTexts} providers in use, for tests. */
    public static List<String> textProviders() {
        return TEXTS.stream().map(provider -> provider.getClass().getName()).toList();
    }

    /**
     * Whether {@code encoder} is one the fast path would take but cannot, because this Logback's
     * converter chain cannot be read ({@link #available()} is {@code false}): its events are then
     * encoded the ordinary way, allocating per event, and the appender says so.
     */
    public static boolean isEligibleButUnavailable(Encoder<ILoggingEvent> encoder) {
        return HEAD == null && eligibleLayout(encoder) != null;
    }

    /** The layout of a plain pattern encoder in UTF-8, or {@code null} for any other encoder. */
    @SuppressWarnings("unchecked")
    private static PatternLayout eligibleLayout(Encoder<ILoggingEvent> encoder) {
        if (encoder == null
                || (encoder.getClass() != PatternLayoutEncoder.class && encoder.getClass() != LayoutWrappingEncoder.class)) {
            return null; // a subclass may encode differently
        }
        LayoutWrappingEncoder<ILoggingEvent> wrapping = (LayoutWrappingEncoder<ILoggingEvent>) encoder;
        if (!(wrapping.getLayout() instanceof PatternLayout layout) || layout.getClass() != PatternLayout.class) {
            return null;
        }
        Charset charset = wrapping.getCharset() != null ? wrapping.getCharset() : Charset.defaultCharset();
        return StandardCharsets.UTF_8.equals(charset) ? layout : null;
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
        EncodingPlan p = new EncodingPlan((Converter<ILoggingEvent>) HEAD.get(layout), SHAPES);
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
    public Scratch encode(ILoggingEvent event) {
        Scratch s = VirtualThreads.isCurrent() ? pool.take() : scratch.get();
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
        Converter<ILoggingEvent> head = (Converter<ILoggingEvent>) HEAD.get(layout);
        EncodingPlan p = plan;
        if (p == null || p.head != head || !p.isCurrent()) {
            p = new EncodingPlan(head, SHAPES);
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
    private Scratch encodeText(Scratch s, ILoggingEvent event) {
        try {
            CharSequence written = text.of(event);
            return written != null && s.putUtf8(written) ? s : tooLong(s); // no text, or too long: the encoder's way
        } catch (RuntimeException | Error failure) {
            release(s);
            throw failure;
        }
    }

    /** Writes the event's segments into {@code s}; {@code null} when it is too long for the fast path. */
    private Scratch encodeInto(Scratch s, EncodingPlan p, ILoggingEvent event) {
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
    private Scratch tooLong(Scratch s) {
        s.tooLong();
        release(s);
        return null;
    }

    /** Gives back a scratch that {@link #encode} returned, once its bytes are used; a no-op for a thread's own. */
    public void release(Scratch s) {
        if (s.home != Scratch.OWN) {
            pool.give(s);
        }
    }

    /**
     * Holds one thread's working memory for the fast path: the event's bytes, the builder and
     * characters that converters and the UTF-8 writer use, the outputs it keeps for the plan it
     * last encoded with, and the {@link #frame()} of a record sink's envelope. The buffers grow to
     * the longest event seen, at most 3 bytes per character of {@link #MAX_BYTES} characters.
     */
    public static final class Scratch {
        private static final int INITIAL = 256;
        /** The {@link #home} of a platform thread's own scratch. */
        static final int OWN = -1;

        StringBuilder text = new StringBuilder(INITIAL);
        private char[] chars = new char[INITIAL];
        /** The encoded event, in {@code bytes[0..length)}. */
        public byte[] bytes = new byte[3 * INITIAL];
        public int length;
        /** The plan that {@link #caches} belong to. */
        EncodingPlan plan;
        /** Per segment of {@link #plan}, the outputs this thread keeps ({@code null} where its kind keeps none). */
        CachedOutput[][] caches;
        /** Per run of {@link #plan}, by its first segment, the output this thread keeps ({@code null} elsewhere). */
        SegmentRun.Kept[] runs;
        /** Where in its {@link ScratchPool} this scratch is kept, or {@link #OWN}. */
        final int home;
        /**
         * The UTF-8 encoder of {@link #putUtf8}, this scratch's alone; a lone surrogate becomes
         * {@code '?'}, as in {@code String.getBytes(UTF_8)}.
         */
        private final CharsetEncoder utf8 = StandardCharsets.UTF_8.newEncoder()
                .onMalformedInput(CodingErrorAction.REPLACE)
                .onUnmappableCharacter(CodingErrorAction.REPLACE)
                .replaceWith(new byte[] {'?'});
        private CharBuffer charView;
        private ByteBuffer byteView;
        /** Where an envelope writes the frame of the event encoded here; made at its first use. */
        private FrameBuffer frame;

        Scratch(int home) {
            this.home = home;
        }

        /**
         * This scratch's frame buffer, empty: for an {@code EventEnvelope} to write the frame of the event encoded
         * here, lent and given back with the scratch (so a virtual thread's is pooled too).
         */
        public FrameBuffer frame() {
            FrameBuffer f = frame;
            if (f == null) {
                f = new FrameBuffer(bytes.length + 64);
                frame = f;
            }
            f.clear();
            return f;
        }

        /** Starts encoding with {@code p}: empty caches for its segments. */
        void use(EncodingPlan p) {
            CachedOutput[][] fresh = new CachedOutput[p.segments.length][];
            for (int i = 0; i < fresh.length; i++) {
                fresh[i] = p.segments[i].newCache();
            }
            SegmentRun.Kept[] kept = new SegmentRun.Kept[p.segments.length];
            for (int i = 0; i < kept.length; i++) {
                kept[i] = p.runs[i] == null ? null : new SegmentRun.Kept();
            }
            caches = fresh;
            runs = kept;
            plan = p;
        }

        /** After an event too long for the fast path: do not keep huge buffers per thread. */
        void tooLong() {
            length = 0;
            if (text.capacity() > 4 * INITIAL) {
                text = new StringBuilder(INITIAL);
            }
            if (chars.length > 4 * INITIAL) {
                chars = new char[INITIAL];
            }
            if (bytes.length > 12 * INITIAL) {
                bytes = new byte[3 * INITIAL];
            }
        }

        private char[] chars(int n) {
            if (n > chars.length) {
                chars = new char[Math.max(n, 2 * chars.length)];
            }
            return chars;
        }

        /** Room for {@code more} bytes after {@code length}; {@code false} past the fast path's limit. */
        private boolean room(int more) {
            int needed = length + more;
            if (needed > bytes.length) {
                if (needed > 3 * MAX_BYTES) {
                    return false;
                }
                bytes = Arrays.copyOf(bytes, Math.max(needed, 2 * bytes.length));
            }
            return true;
        }

        /** Appends {@code from[0..n)}; {@code false} when the event is then longer than the fast path takes. */
        boolean put(byte[] from, int n) {
            if (!room(n)) {
                return false;
            }
            System.arraycopy(from, 0, bytes, length, n);
            length += n;
            return length <= MAX_BYTES;
        }

        /**
         * Appends a {@code String} or a {@code StringBuilder} as UTF-8; {@code false} as {@link #put}.
         * The JDK's UTF-8 encoder does it, over views of this scratch's arrays: its loop over ASCII
         * is the JIT's intrinsic (about 4 times as fast as a loop over the characters on a
         * 44-character message).
         */
        boolean putUtf8(CharSequence text) {
            if (!(text instanceof String) && !(text instanceof StringBuilder)) {
                text = text.toString();
            }
            int n = text.length();
            if (n == 0) {
                return length <= MAX_BYTES;
            }
            if (length + n > MAX_BYTES || !room(3 * n)) {
                return false;
            }
            char[] chars = charsOf(text, n);
            CharBuffer in = charView(chars).limit(n).position(0);
            ByteBuffer out = byteView().limit(bytes.length).position(length);
            CharsetEncoder utf8 = this.utf8.reset();
            if (!utf8.encode(in, out, true).isUnderflow() || !utf8.flush(out).isUnderflow() || in.hasRemaining()) {
                return false; // never seen (room was made for 3 bytes a character): the encoder encodes the event
            }
            length = out.position();
            return length <= MAX_BYTES;
        }

        /** The characters of {@code text[0..n)} in this scratch's array. */
        private char[] charsOf(CharSequence text, int n) {
            char[] chars = chars(n);
            if (text instanceof String string) {
                string.getChars(0, n, chars, 0);
            } else {
                ((StringBuilder) text).getChars(0, n, chars, 0);
            }
            return chars;
        }

        /** A view of {@code chars}, made again only when the array grew. */
        private CharBuffer charView(char[] chars) {
            if (charView == null || charView.array() != chars) {
                charView = CharBuffer.wrap(chars);
            }
            return charView;
        }

        /** A view of {@link #bytes}, made again only when the array was replaced. */
        private ByteBuffer byteView() {
            if (byteView == null || byteView.array() != bytes) {
                byteView = ByteBuffer.wrap(bytes);
            }
            return byteView;
        }
    }
}
