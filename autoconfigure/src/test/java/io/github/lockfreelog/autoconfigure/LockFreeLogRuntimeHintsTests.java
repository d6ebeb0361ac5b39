package io.github.lockfreelog.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.core.pattern.Converter;
import io.github.lockfreelog.autoconfigure.properties.LockFreeLogProperties;
import java.io.InputStream;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.beans.factory.aot.AotServices;

class LockFreeLogRuntimeHintsTests {

    private final RuntimeHints hints = new RuntimeHints();

    LockFreeLogRuntimeHintsTests() {
        new LockFreeLogRuntimeHints().registerHints(hints, getClass().getClassLoader());
    }

    @Test
    void shouldRegisterTheFieldThatThePatternFastPathReads() throws Exception {
        // The hint must name the field as this Logback declares it, with the type PatternEncoding looks up.
        Field head = Class.forName(LockFreeLogRuntimeHints.PATTERN_LAYOUT_BASE)
                .getDeclaredField(LockFreeLogRuntimeHints.PATTERN_HEAD_FIELD);
        assertThat(head.getType()).isEqualTo(Converter.class);
        assertThat(RuntimeHintsPredicates.reflection().onFieldAccess(head)).accepts(hints);
        Field options = Class.forName(LockFreeLogRuntimeHints.DYNAMIC_CONVERTER)
                .getDeclaredField(LockFreeLogRuntimeHints.OPTION_LIST_FIELD);
        assertThat(options.getType()).isEqualTo(java.util.List.class);
        assertThat(RuntimeHintsPredicates.reflection().onFieldAccess(options)).accepts(hints);
        for (String name : java.util.List.of("formatter", "charset")) {
            Field field = Class.forName(LockFreeLogRuntimeHints.STRUCTURED_LOG_ENCODER).getDeclaredField(name);
            assertThat(RuntimeHintsPredicates.reflection().onFieldAccess(field)).as(name).accepts(hints);
        }
    }

    @Test
    void shouldRegisterWhatUnmapsTheJournal() throws Exception {
        Class<?> unsafe = Class.forName(LockFreeLogRuntimeHints.UNSAFE);
        assertThat(RuntimeHintsPredicates.reflection().onFieldAccess(unsafe.getDeclaredField("theUnsafe"))).accepts(hints);
        Method invokeCleaner = unsafe.getMethod("invokeCleaner", ByteBuffer.class);
        assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(invokeCleaner)).accepts(hints);
    }

    @Test
    void shouldRegisterBindingOfTheProperties() throws Exception {
        assertThat(RuntimeHintsPredicates.reflection().onType(LockFreeLogProperties.class)).accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection()
                .onMethodInvocation(LockFreeLogProperties.class.getMethod("setLoggers", List.class))).accepts(hints);
        // The file's and the console's engine settings, nested, with the setters they inherit.
        for (Class<?> target : List.of(LockFreeLogProperties.File.class, LockFreeLogProperties.Console.class)) {
            assertThat(RuntimeHintsPredicates.reflection().onType(target)).accepts(hints);
            assertThat(RuntimeHintsPredicates.reflection()
                    .onMethodInvocation(target.getMethod("setBufferCount", int.class))).accepts(hints);
            assertThat(RuntimeHintsPredicates.reflection()
                    .onMethodInvocation(target.getMethod("setJournal", String.class))).accepts(hints);
        }
    }

    @Test
    void shouldBeRegisteredForAheadOfTimeProcessing() {
        assertThat(AotServices.factories().load(RuntimeHintsRegistrar.class))
                .hasAtLeastOneElementOfType(LockFreeLogRuntimeHints.class);
    }

    @Test
    void configurationProcessorShouldHaveWrittenThePropertiesMetadata() throws Exception {
        try (InputStream metadata = getClass().getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
            assertThat(metadata).as("META-INF/spring-configuration-metadata.json").isNotNull();
            assertThat(new String(metadata.readAllBytes(), StandardCharsets.UTF_8)).contains("\"lockfreelog.file.buffer-size\"");
        }
    }
}
