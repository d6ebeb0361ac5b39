package io.github.lockfreelog.autoconfigure;

import io.github.lockfreelog.autoconfigure.properties.LockFreeLogProperties;
import java.nio.ByteBuffer;
import java.util.List;
import org.springframework.aot.hint.ExecutableMode;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.TypeReference;
import org.springframework.boot.context.properties.bind.BindableRuntimeHintsRegistrar;

/**
 * {@link RuntimeHintsRegistrar} for what lockfreelog reaches by reflection, so that a native image
 * keeps it. Without these hints nothing fails: core silently takes its slower paths (the pattern
 * encoding that allocates per event, unmapping left to the garbage collector). Registered in
 * {@code META-INF/spring/aot.factories}.
 */
class LockFreeLogRuntimeHints implements RuntimeHintsRegistrar {

    /** Logback's class whose private converter chain core's pattern fast path reads ({@code io.github.lockfreelog.logback.encoding}). */
    static final String PATTERN_LAYOUT_BASE = "ch.qos.logback.core.pattern.PatternLayoutBase";

    /** The chain's field in {@link #PATTERN_LAYOUT_BASE}. */
    static final String PATTERN_HEAD_FIELD = "head";

    /** Logback's class whose private options the starter reads for {@code %correlationId} ({@code SpringBootConverterShapes}). */
    static final String DYNAMIC_CONVERTER = "ch.qos.logback.core.pattern.DynamicConverter";

    /** The options' field in {@link #DYNAMIC_CONVERTER}. */
    static final String OPTION_LIST_FIELD = "optionList";

    /** Spring Boot's structured encoder, whose private formatter and charset the starter reads ({@code SpringBootEncoderTexts}). */
    static final String STRUCTURED_LOG_ENCODER = "org.springframework.boot.logging.logback.StructuredLogEncoder";

    /** The JDK class through which core's {@code io.github.lockfreelog.files.FileMapping} unmaps the journal before Java 22. */
    static final String UNSAFE = "sun.misc.Unsafe";

    @Override
    public void registerHints(RuntimeHints hints, ClassLoader classLoader) {
        hints.reflection().registerType(TypeReference.of(PATTERN_LAYOUT_BASE), type -> type.withField(PATTERN_HEAD_FIELD));
        hints.reflection().registerType(TypeReference.of(DYNAMIC_CONVERTER), type -> type.withField(OPTION_LIST_FIELD));
        hints.reflection().registerType(TypeReference.of(STRUCTURED_LOG_ENCODER),
                type -> type.withField("formatter").withField("charset"));
        hints.reflection().registerType(TypeReference.of(UNSAFE), type -> type.withField("theUnsafe")
                .withMethod("invokeCleaner", List.of(TypeReference.of(ByteBuffer.class)), ExecutableMode.INVOKE));
        // lockfreelog.* is bound while logging starts, before the context that would register these hints exists.
        BindableRuntimeHintsRegistrar.forTypes(LockFreeLogProperties.class).registerHints(hints, classLoader);
    }
}
