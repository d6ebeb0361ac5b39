package io.github.lockfreelog.autoconfigure.logging;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.encoder.Encoder;
import io.github.lockfreelog.logback.encoding.EncoderTexts;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import org.springframework.boot.logging.logback.StructuredLogEncoder;
import org.springframework.boot.logging.structured.JsonWriterStructuredLogFormatter;
import org.springframework.boot.logging.structured.StructuredLogFormatter;

/**
 * Gives the appender's fast path the text of Spring Boot's {@link StructuredLogEncoder} (registered in
 * {@code META-INF/services}): its formatter's {@code format(event)}, the JSON document that
 * {@code encode} turns into bytes. {@code encode} goes through {@code formatAsBytes}, which for Spring
 * Boot's own formats (ecs, logstash, gelf) writes the document through a new {@code OutputStreamWriter}
 * and its 8 KiB buffer for every event; the fast path encodes the same text as UTF-8 into the thread's
 * buffer instead. Taken only where the two are the same by construction: the encoder exactly Spring
 * Boot's, in UTF-8, its formatter's {@code formatAsBytes} the one Spring Boot's JSON formatters or the
 * {@link StructuredLogFormatter} interface declare (a formatter of yours that overrides it is left to
 * {@code encode}). The formatter is read at each event, so an encoder started again is followed.
 */
public final class SpringBootEncoderTexts implements EncoderTexts {

    private static final VarHandle FORMATTER = field("formatter", StructuredLogFormatter.class);
    private static final VarHandle CHARSET = field("charset", Charset.class);

    private static VarHandle field(String name, Class<?> type) {
        try {
            return MethodHandles.privateLookupIn(StructuredLogEncoder.class, MethodHandles.lookup())
                    .findVarHandle(StructuredLogEncoder.class, name, type);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null; // another Spring Boot: structured events are encoded by the encoder itself
        }
    }

    @Override
    public EventText textOf(Encoder<ILoggingEvent> encoder) {
        if (encoder == null || encoder.getClass() != StructuredLogEncoder.class || FORMATTER == null || CHARSET == null) {
            return null;
        }
        Charset charset = (Charset) CHARSET.get((StructuredLogEncoder) encoder);
        StructuredLogFormatter<?> formatter = (StructuredLogFormatter<?>) FORMATTER.get((StructuredLogEncoder) encoder);
        if ((charset != null && !StandardCharsets.UTF_8.equals(charset)) || formatter == null || !textIsItsBytes(formatter)) {
            return null;
        }
        return event -> formatterOf(encoder).format(event);
    }

    @SuppressWarnings("unchecked")
    private static StructuredLogFormatter<ILoggingEvent> formatterOf(Encoder<ILoggingEvent> encoder) {
        StructuredLogFormatter<ILoggingEvent> formatter = (StructuredLogFormatter<ILoggingEvent>) FORMATTER.get((StructuredLogEncoder) encoder);
        if (formatter == null) {
            throw new IllegalStateException("The StructuredLogEncoder is not started: it has no formatter");
        }
        return formatter;
    }

    /** Whether the formatter's bytes are its {@code format} text's, as Spring Boot's JSON formatters' and the interface's default are. */
    private static boolean textIsItsBytes(StructuredLogFormatter<?> formatter) {
        try {
            Class<?> declaring = formatter.getClass().getMethod("formatAsBytes", Object.class, Charset.class).getDeclaringClass();
            return declaring == JsonWriterStructuredLogFormatter.class || declaring == StructuredLogFormatter.class;
        } catch (NoSuchMethodException | RuntimeException e) {
            return false;
        }
    }
}
