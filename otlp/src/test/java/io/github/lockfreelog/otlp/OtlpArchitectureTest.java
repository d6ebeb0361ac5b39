package io.github.lockfreelog.otlp;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Keeps the module's shape: it reaches core only through what the Kafka module also uses (the appender base, the
 * record sink and its batch), depends on no protobuf or Spring class at run time (it writes the wire format itself and
 * sends with the JDK's client), names the optional OpenTelemetry API in one class only, and keeps each class under
 * about 350 lines.
 */
class OtlpArchitectureTest {

    private static final JavaClasses OTLP = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.github.lockfreelog.otlp");

    @Test
    void theModuleNeedsNoOpenTelemetryProtobufOrSpringAtRunTime() {
        noClasses().should().dependOnClassesThat().resideInAnyPackage("com.google.protobuf..", "org.springframework..")
                .check(OTLP);
        // the optional OpenTelemetry API: named by one class only, which the others load after checking it is there
        noClasses().that().doNotHaveSimpleName("OtelSpan").should().dependOnClassesThat()
                .resideInAnyPackage("io.opentelemetry..").check(OTLP);
    }

    @Test
    void theModuleUsesNoInternalsOfTheEnginesDrainer() {
        noClasses().should().dependOnClassesThat().resideInAnyPackage("io.github.lockfreelog.drain..",
                "io.github.lockfreelog.term..", "io.github.lockfreelog.recovery..").check(OTLP);
    }

    @Test
    void noMainClassIsOverAboutThreeHundredAndFiftyLines() throws Exception {
        try (Stream<Path> sources = Files.walk(Path.of("src/main/java"))) {
            sources.filter(p -> p.toString().endsWith(".java")).forEach(p -> {
                try {
                    assertThat(Files.readAllLines(p)).as(p.toString()).hasSizeLessThanOrEqualTo(360);
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
        }
    }
}
