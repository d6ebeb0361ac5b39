package io.github.lockfreelog.logback.encoding;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.PatternLayout;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.pattern.DateConverter;
import ch.qos.logback.classic.pattern.LevelConverter;
import ch.qos.logback.classic.pattern.LineSeparatorConverter;
import ch.qos.logback.classic.pattern.LoggerConverter;
import ch.qos.logback.classic.pattern.MessageConverter;
import ch.qos.logback.classic.pattern.ThreadConverter;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.encoder.Encoder;
import ch.qos.logback.core.encoder.LayoutWrappingEncoder;
import ch.qos.logback.core.pattern.Converter;
import ch.qos.logback.core.pattern.FormattingConverter;
import ch.qos.logback.core.pattern.LiteralConverter;
import ch.qos.logback.core.pattern.PatternLayoutBase;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Encodes an event of a plain {@link PatternLayoutEncoder} straight into a per-thread byte buffer:
 * the same bytes as {@code encoder.encode(event)}, without the {@code StringBuilder}, {@code String}
 * and {@code byte[]} that Logback allocates for each event, and without encoding again the parts of a
 * line that rarely change.
 *
 * <p>The layout's converter chain is read once into a plan of segments. A segment whose converter
 * is one of Logback's own, of exactly its class, and whose whole output (padding included) depends
 * only on one property of the event is kept per thread as UTF-8 bytes and encoded again only when
 * that property changes:
 * <ul>
 * <li>literal text and {@code %n}: constant;</li>
 * <li>{@code %level}: the level; {@code %thread}: the thread's name; {@code %logger}: the logger's
 *     name (a few names per thread are kept); {@code %date}: the millisecond of the event.</li>
 * </ul>
 * {@code %msg} without padding is encoded from the message itself. Every other converter (Spring
 * Boot's, the user's, composite ones, {@code %ex}, {@code %X}...) writes into a reused
 * {@code StringBuilder} as in Logback, and its characters are encoded from there.
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

    /** How many logger names each thread keeps encoded, per {@code %logger} of the pattern (a power of two). */
    static final int LOGGER_SLOTS = 32;

    private final PatternLayout layout;
    /** The plan of the layout's current converter chain; rebuilt if the layout is started again. */
    private volatile Plan plan;

    private final ThreadLocal<Scratch> scratch = ThreadLocal.withInitial(Scratch::new);

    private PatternEncoding(PatternLayout layout) {
        this.layout = layout;
    }

    private static VarHandle headHandle() {
        try {
            return MethodHandles.privateLookupIn(PatternLayoutBase.class, MethodHandles.lookup())
                    .findVarHandle(PatternLayoutBase.class, "head", Converter.class);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null; // Logback on the module path, or another version: the ordinary path is used
        }
    }

    /**
     * Whether the layout's converter chain ({@code PatternLayoutBase.head}) can be read, which the
     * fast path needs. {@code false} where the Logback version renamed the field or a native image
     * lacks its reflection hint: every encoder then takes the ordinary path.
     */
    static boolean available() {
        return HEAD != null;
    }

    /** The fast path for this encoder, or {@code null} where it would not give the same bytes. */
    @SuppressWarnings("unchecked")
    public static PatternEncoding of(Encoder<ILoggingEvent> encoder) {
        if (HEAD == null || encoder == null
                || (encoder.getClass() != PatternLayoutEncoder.class && encoder.getClass() != LayoutWrappingEncoder.class)) {
            return null; // a subclass may encode differently
        }
        LayoutWrappingEncoder<ILoggingEvent> wrapping = (LayoutWrappingEncoder<ILoggingEvent>) encoder;
        if (!(wrapping.getLayout() instanceof PatternLayout layout) || layout.getClass() != PatternLayout.class) {
            return null;
        }
        Charset charset = wrapping.getCharset() != null ? wrapping.getCharset() : Charset.defaultCharset();
        if (!StandardCharsets.UTF_8.equals(charset)) {
            return null;
        }
        return new PatternEncoding(layout);
    }

    /**
     * Encodes the event into this thread's buffer.
     *
     * @return the scratch holding the bytes in {@code bytes[0..length)}, or {@code null} when the
     *         event is too long for the fast path (the caller then uses the encoder)
     */
    @SuppressWarnings("unchecked")
    public Scratch encode(ILoggingEvent event) {
        Scratch s = scratch.get();
        s.length = 0;
        if (!layout.isStarted()) {
            return s;
        }
        Converter<ILoggingEvent> head = (Converter<ILoggingEvent>) HEAD.get(layout);
        Plan p = plan;
        if (p == null || p.head != head) {
            p = new Plan(head);
            plan = p;
        }
        if (s.plan != p) {
            s.use(p);
        }
        final Segment[] segments = p.segments;
        for (int i = 0; i < segments.length; i++) {
            if (!segments[i].write(event, s, s.slots[i])) {
                s.tooLong();
                return null;
            }
        }
        return s;
    }

    /** The converter chain of one start of the layout, as segments. */
    static final class Plan {
        final Converter<ILoggingEvent> head;
        final Segment[] segments;

        Plan(Converter<ILoggingEvent> head) {
            this.head = head;
            List<Segment> list = new ArrayList<>();
            for (Converter<ILoggingEvent> c = head; c != null; c = c.getNext()) {
                list.add(Segment.of(c));
            }
            this.segments = list.toArray(new Segment[0]);
        }
    }

    /** What a segment's output depends on; see the class comment. */
    enum Kind { CONSTANT, LEVEL, THREAD, LOGGER, DATE, MESSAGE, OTHER }

    /** One converter of the chain and how its output is produced. */
    static final class Segment {
        final Converter<ILoggingEvent> converter;
        final Kind kind;
        /** The output of a {@link Kind#CONSTANT} segment. */
        final byte[] constant;

        private Segment(Converter<ILoggingEvent> converter, Kind kind, byte[] constant) {
            this.converter = converter;
            this.kind = kind;
            this.constant = constant;
        }

        static Segment of(Converter<ILoggingEvent> c) {
            Class<?> type = c.getClass();
            if (type == LiteralConverter.class || type == LineSeparatorConverter.class) {
                try {
                    StringBuilder text = new StringBuilder();
                    c.write(text, null); // neither reads the event
                    return new Segment(c, Kind.CONSTANT, text.toString().getBytes(StandardCharsets.UTF_8));
                } catch (RuntimeException e) {
                    return new Segment(c, Kind.OTHER, null);
                }
            }
            Kind kind = type == LevelConverter.class ? Kind.LEVEL
                    : type == ThreadConverter.class ? Kind.THREAD
                    : type == LoggerConverter.class ? Kind.LOGGER
                    : type == DateConverter.class ? Kind.DATE
                    : type == MessageConverter.class && ((FormattingConverter<?>) c).getFormattingInfo() == null ? Kind.MESSAGE
                    : Kind.OTHER;
            return new Segment(c, kind, null);
        }

        /** The per-thread cache this segment needs, or {@code null}. */
        Slot[] newSlots() {
            int count = switch (kind) {
                case LEVEL -> 8;
                case THREAD, DATE -> 1;
                case LOGGER -> LOGGER_SLOTS;
                default -> 0;
            };
            if (count == 0) {
                return null;
            }
            Slot[] slots = new Slot[count];
            for (int i = 0; i < count; i++) {
                slots[i] = new Slot();
            }
            return slots;
        }

        /** Appends this segment's bytes for the event; {@code false} if the event is too long for the fast path. */
        boolean write(ILoggingEvent event, Scratch s, Slot[] slots) {
            return switch (kind) {
                case CONSTANT -> s.put(constant, constant.length);
                case MESSAGE -> {
                    String message = event.getFormattedMessage();
                    yield s.putUtf8(message == null ? "null" : message);
                }
                case DATE -> {
                    long millis = event.getTimeStamp();
                    Slot slot = slots[0];
                    yield (slot.filled && slot.millis == millis || slot.fill(this, event, s, null, millis))
                            && s.put(slot.bytes, slot.length);
                }
                case LEVEL, THREAD, LOGGER -> {
                    Object key = kind == Kind.LEVEL ? event.getLevel()
                            : kind == Kind.THREAD ? event.getThreadName() : event.getLoggerName();
                    if (key == null) {
                        yield writeOther(event, s);
                    }
                    int index = kind == Kind.LEVEL ? ((Level) key).toInt() / Level.DEBUG_INT : key.hashCode();
                    Slot slot = slots[index & (slots.length - 1)];
                    yield (slot.holds(key) || slot.fill(this, event, s, key, 0)) && s.put(slot.bytes, slot.length);
                }
                case OTHER -> writeOther(event, s);
            };
        }

        /** The way for any converter: it writes into the reused builder, whose characters are then encoded. */
        private boolean writeOther(ILoggingEvent event, Scratch s) {
            StringBuilder text = s.text;
            text.setLength(0);
            converter.write(text, event);
            return s.putUtf8(text);
        }
    }

    /** A segment's output for one key, kept by one thread. */
    static final class Slot {
        boolean filled;
        Object key;
        long millis;
        public byte[] bytes = new byte[64];
        public int length;

        boolean holds(Object key) {
            return filled && (key == this.key || key.equals(this.key));
        }

        /** Encodes the segment's converter output for this event into this slot, kept under {@code key} or {@code millis}. */
        boolean fill(Segment segment, ILoggingEvent event, Scratch s, Object key, long millis) {
            filled = false;
            StringBuilder text = s.text;
            text.setLength(0);
            segment.converter.write(text, event);
            int n = text.length();
            if (n > MAX_BYTES) {
                return false;
            }
            if (3 * n > bytes.length) {
                bytes = new byte[3 * n];
            }
            length = s.encode(text, bytes, 0);
            this.key = key;
            this.millis = millis;
            filled = true;
            return true;
        }
    }

    /** One thread's buffers; they grow to the longest event seen, at most about {@link #MAX_BYTES} bytes. */
    public static final class Scratch {
        private static final int INITIAL = 256;

        StringBuilder text = new StringBuilder(INITIAL);
        char[] chars = new char[INITIAL];
        public byte[] bytes = new byte[3 * INITIAL];
        public int length;
        Plan plan;
        Slot[][] slots;

        void use(Plan p) {
            Slot[][] fresh = new Slot[p.segments.length][];
            for (int i = 0; i < fresh.length; i++) {
                fresh[i] = p.segments[i].newSlots();
            }
            slots = fresh;
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

        char[] chars(int n) {
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
                bytes = java.util.Arrays.copyOf(bytes, Math.max(needed, 2 * bytes.length));
            }
            return true;
        }

        boolean put(byte[] from, int n) {
            if (!room(n)) {
                return false;
            }
            System.arraycopy(from, 0, bytes, length, n);
            length += n;
            return length <= MAX_BYTES;
        }

        /** Appends a {@code String} or a {@code StringBuilder} as UTF-8. */
        boolean putUtf8(CharSequence text) {
            int n = text.length();
            if (length + n > MAX_BYTES || !room(3 * n)) {
                return false;
            }
            length = encode(text, bytes, length);
            return length <= MAX_BYTES;
        }

        /**
         * Writes a {@code String} or a {@code StringBuilder} (the two that have {@code getChars}) as
         * UTF-8 at {@code out[at..)}, which has room for 3 bytes per character; returns the end position.
         */
        int encode(CharSequence text, byte[] out, int at) {
            int n = text.length();
            char[] chars = chars(n);
            if (text instanceof String string) {
                string.getChars(0, n, chars, 0);
            } else {
                ((StringBuilder) text).getChars(0, n, chars, 0);
            }
            return utf8(chars, n, out, at);
        }

        /**
         * Writes {@code chars[0..n)} as UTF-8 at {@code out[o..)}, as {@code String.getBytes(UTF_8)}
         * does: a lone surrogate becomes {@code '?'}. Returns the end position.
         */
        static int utf8(char[] chars, int n, byte[] out, int o) {
            int any = 0;
            for (int i = 0; i < n; i++) {
                any |= chars[i];
            }
            if (any < 0x80) { // all ASCII, the common case: two branch-free loops the JIT can vectorize
                for (int i = 0; i < n; i++) {
                    out[o + i] = (byte) chars[i];
                }
                return o + n;
            }
            int i = 0;
            while (i < n) {
                char c = chars[i];
                if (c < 0x80) {
                    out[o++] = (byte) c;
                    i++;
                    continue;
                }
                if (c < 0x800) {
                    out[o++] = (byte) (0xC0 | (c >> 6));
                    out[o++] = (byte) (0x80 | (c & 0x3F));
                } else if (Character.isSurrogate(c)) {
                    if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(chars[i + 1])) {
                        int cp = Character.toCodePoint(c, chars[++i]);
                        out[o++] = (byte) (0xF0 | (cp >> 18));
                        out[o++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
                        out[o++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
                        out[o++] = (byte) (0x80 | (cp & 0x3F));
                    } else {
                        out[o++] = '?';
                    }
                } else {
                    out[o++] = (byte) (0xE0 | (c >> 12));
                    out[o++] = (byte) (0x80 | ((c >> 6) & 0x3F));
                    out[o++] = (byte) (0x80 | (c & 0x3F));
                }
                i++;
            }
            return o;
        }
    }
}
