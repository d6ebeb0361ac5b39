package io.github.lockfreelog.logback.encoder;

import ch.qos.logback.classic.PatternLayout;
import ch.qos.logback.classic.encoder.JsonEncoder;
import ch.qos.logback.core.encoder.EchoEncoder;
import ch.qos.logback.core.encoder.Encoder;
import ch.qos.logback.core.encoder.LayoutWrappingEncoder;

/**
 * Decides whether an encoder may be called by many threads at once. Logback's pattern and JSON
 * encoders build each event in a fresh builder and are safe; so are the structured-log encoders
 * of Spring Boot and logstash-logback-encoder. Anything else is assumed unsafe unless the user
 * says otherwise with {@code encoderThreadSafe}.
 */
public final class EncoderSafety {

    private static final String[] SAFE_PREFIXES = {
        "org.springframework.boot.logging.logback.StructuredLogEncoder",
        "net.logstash.logback.encoder.",
    };

    private EncoderSafety() {
    }

    /**
     * Whether {@code encoder} may be called by many threads at once: {@code declared} (the
     * appender's {@code encoderThreadSafe}) where set, else whether it is one of those known to be.
     */
    public static boolean isThreadSafe(Encoder<?> encoder, Boolean declared) {
        if (declared != null) {
            return declared;
        }
        if (encoder instanceof JsonEncoder || encoder instanceof EchoEncoder) {
            return true;
        }
        if (encoder instanceof LayoutWrappingEncoder<?> wrapping) {
            return wrapping.getLayout() != null && wrapping.getLayout().getClass() == PatternLayout.class;
        }
        String type = encoder.getClass().getName();
        for (String prefix : SAFE_PREFIXES) {
            if (type.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }
}
