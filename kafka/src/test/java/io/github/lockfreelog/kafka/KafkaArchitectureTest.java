package io.github.lockfreelog.kafka;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.simpleName;
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
 * Keeps the Kafka module's shape as core's is kept: the sink (its producers, positions, topics and outcomes) knows
 * nothing of Logback, only the appender and the envelope it writes on the caller's thread do; the module reaches
 * core only through what a record sink is given, never the drainer's or the journal's internals; Spring Boot's names
 * stay out (the starter passes the names it wants in messages, {@link SettingNames}); no package cycle; and no class
 * over 350 lines.
 */
class KafkaArchitectureTest {

    private static final JavaClasses KAFKA = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.github.lockfreelog.kafka");

    @Test
    void onlyTheAppenderAndTheEnvelopeKnowLogback() {
        noClasses().that().haveNameNotMatching(".*\\.(LockFreeKafkaAppender|RecordEnvelope\\$Writer)(\\$.*)?").should()
                .dependOnClassesThat().resideInAnyPackage("ch.qos.logback..").check(KAFKA);
    }

    @Test
    void theModuleUsesNoInternalsOfTheEnginesDrainer() {
        noClasses().should().dependOnClassesThat().resideInAnyPackage("io.github.lockfreelog.term..",
                "io.github.lockfreelog.recovery..").check(KAFKA);
        // of the drainer, Drainer.idle alone: its announced park, which the linger between deliveries waits in
        noClasses().should().dependOnClassesThat(resideInAPackage("io.github.lockfreelog.drain..")
                .and(not(simpleName("Drainer")))).check(KAFKA);
    }

    @Test
    void springStaysOut() throws IOException {
        noClasses().should().dependOnClassesThat().resideInAnyPackage("org.springframework..").check(KAFKA);
        assertThat(stringsNamingSpringProperties(Path.of("src/main/java")))
                .as("string literals of main code that name a Spring Boot or starter property").isEmpty();
    }

    @Test
    void packagesAreFreeOfCycles() {
        slices().matching("io.github.lockfreelog.(**)").should().beFreeOfCycles().check(KAFKA);
    }

    @Test
    void noMainClassIsOverThreeHundredAndFiftyLines() throws IOException {
        assertThat(SourceFiles.linesOver(Path.of("src/main/java"), 350)).isEmpty();
    }

    /** The string literals of the Java sources under {@code root} that name a {@code spring.*} or starter property. */
    static List<String> stringsNamingSpringProperties(Path root) throws IOException {
        Pattern literal = Pattern.compile("\"((?:[^\"\\\\]|\\\\.)*)\"");
        Pattern property = Pattern.compile("(?<![\\w.])(spring|management|lockfreelog)\\.[a-z]");
        List<String> found = new ArrayList<>();
        for (Path source : SourceFiles.javaSources(root)) {
            String code = Files.readString(source).replaceAll("(?s)/\\*.*?\\*/", "").replaceAll("(?m)^\\s*//.*$", "");
            Matcher strings = literal.matcher(code);
            while (strings.find()) {
                if (property.matcher(strings.group(1)).find()) {
                    found.add(root.relativize(source) + ": \"" + strings.group(1) + "\"");
                }
            }
        }
        return found;
    }

}
