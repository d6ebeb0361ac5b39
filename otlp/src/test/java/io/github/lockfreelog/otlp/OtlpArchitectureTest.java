package io.github.lockfreelog.otlp;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import io.github.lockfreelog.testsupport.SourceFiles;

/**
 * Keeps the module's shape: it reaches core only through what the Kafka module also uses (the appender base, the
 * record sink and its batch), depends on no protobuf or Spring class at run time (it writes the wire format itself and
 * sends with the JDK's client), names the optional OpenTelemetry API in one class only, keeps Logback to the appender
 * and the envelope it writes on the caller's thread and Spring Boot's property names out (the starter passes the names
 * it wants in messages), has no package cycle, and keeps each class at 350 lines at most.
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
    void onlyTheAppenderAndTheEnvelopeKnowLogback() { // RecordHead: the envelope's head, severity from Logback's level
        noClasses().that().haveNameNotMatching(".*\\.(LockFreeOtlpAppender|LogRecordEnvelope|RecordHead)(\\$.*)?").should()
                .dependOnClassesThat().resideInAnyPackage("ch.qos.logback..").check(OTLP);
    }

    @Test
    void noStringNamesASpringBootOrStarterProperty() throws IOException {
        Pattern literal = Pattern.compile("\"((?:[^\"\\\\]|\\\\.)*)\"");
        Pattern property = Pattern.compile("(?<![\\w.])(spring|management|lockfreelog)\\.[a-z]");
        List<String> found = new ArrayList<>();
        for (Path source : SourceFiles.javaSources(Path.of("src/main/java"))) {
            String code = Files.readString(source).replaceAll("(?s)/\\*.*?\\*/", "").replaceAll("(?m)^\\s*//.*$", "");
            Matcher strings = literal.matcher(code);
            while (strings.find()) {
                if (property.matcher(strings.group(1)).find()) {
                    found.add(source + ": \"" + strings.group(1) + "\"");
                }
            }
        }
        assertThat(found).as("string literals that name a Spring Boot or starter property (the starter passes them)")
                .isEmpty();
    }

    @Test
    void packagesAreFreeOfCycles() {
        slices().matching("io.github.lockfreelog.(**)").should().beFreeOfCycles().check(OTLP);
    }

    @Test
    void noMainClassIsOverThreeHundredAndFiftyLines() throws IOException {
        assertThat(SourceFiles.linesOver(Path.of("src/main/java"), 350)).isEmpty();
    }
}
