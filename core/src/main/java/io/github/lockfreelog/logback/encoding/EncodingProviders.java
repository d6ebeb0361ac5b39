package io.github.lockfreelog.logback.encoding;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.encoder.Encoder;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;

/**
 * The {@link ConverterShapes} and {@link EncoderTexts} providers on this library's class path (the Spring Boot
 * starter's, for Spring Boot's converters and structured formats), found once with {@link ServiceLoader}. A
 * provider whose classes are missing, or that fails to answer, is passed over: its converters or encoder are then
 * served the way Logback serves them.
 */
final class EncodingProviders {

    /** The {@link ConverterShapes} providers, found once. */
    static final List<ConverterShapes> SHAPES = load(ConverterShapes.class);
    /** The {@link EncoderTexts} providers, found once. */
    static final List<EncoderTexts> TEXTS = load(EncoderTexts.class);

    private EncodingProviders() {
    }

    private static <T> List<T> load(Class<T> service) {
        List<T> found = new ArrayList<>();
        try {
            Iterator<T> providers = ServiceLoader.load(service, EncodingProviders.class.getClassLoader()).iterator();
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

    /** The text of {@code encoder} from the first provider that knows it, or {@code null}. */
    static EncoderTexts.EventText textOf(Encoder<ILoggingEvent> encoder) {
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

    /** The class names of {@code providers}, for reports and tests. */
    static List<String> names(List<?> providers) {
        return providers.stream().map(provider -> provider.getClass().getName()).toList();
    }
}
