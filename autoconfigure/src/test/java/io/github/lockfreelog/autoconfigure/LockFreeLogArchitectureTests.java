package io.github.lockfreelog.autoconfigure;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.INTERFACES;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import io.github.lockfreelog.testsupport.SourceFiles;

/**
 * The shape of the starter's packages, as Spring Boot's own modules are laid out: the auto-configurations on top, the
 * actuator parts ({@code actuate}) beside the logging integration ({@code logging}, the runtime), which runs each
 * target's take-over ({@code takeover}) from the bound settings ({@code properties}) at the bottom; no package that
 * needs one above it, Kafka and OTLP types named only where their module is known to be there, and no class over 350
 * lines.
 */
@AnalyzeClasses(packages = "io.github.lockfreelog.autoconfigure", importOptions = ImportOption.DoNotIncludeTests.class)
class LockFreeLogArchitectureTests {

    private static final String ROOT = "io.github.lockfreelog.autoconfigure";

    /** Each package of the starter is a slice; none may reach back to a package that reaches it. */
    @ArchTest
    static final ArchRule packagesAreFreeOfCycles = slices().matching("io.github.lockfreelog.(**)")
            .namingSlices("$1").should().beFreeOfCycles();

    /** The actuator parts read the starter's runtime through its interface, never its implementation. */
    @ArchTest
    static final ArchRule actuateReadsTheLoggingIntegrationOnlyThroughInterfaces = noClasses()
            .that().resideInAPackage(ROOT + ".actuate..")
            .should().dependOnClassesThat(resideInAPackage(ROOT + ".logging..").and(not(INTERFACES)))
            .orShould().dependOnClassesThat().resideInAnyPackage(ROOT + ".takeover..", ROOT + ".properties..");

    /** The settings are plain settings: they start nothing, and know no other package of the starter. */
    @ArchTest
    static final ArchRule propertiesUseNoOtherPackageOfTheStarter = noClasses()
            .that().resideInAPackage(ROOT + ".properties..")
            .should().dependOnClassesThat().resideInAnyPackage(ROOT, ROOT + ".logging..", ROOT + ".takeover..",
                    ROOT + ".actuate..");

    /** A take-over is run by the runtime and never reaches back to it, nor to what shows it. */
    @ArchTest
    static final ArchRule takeOversKnowNeitherTheRuntimeNorTheActuatorParts = noClasses()
            .that().resideInAPackage(ROOT + ".takeover..")
            .should().dependOnClassesThat().resideInAnyPackage(ROOT, ROOT + ".logging..", ROOT + ".actuate..");

    /**
     * Kafka's and OTLP's types are named only by the classes loaded once their module was found on the class path, so
     * that every other class loads without lockfreelog-kafka and lockfreelog-otlp.
     */
    @ArchTest
    static final ArchRule kafkaTypesOnlyWhereTheModuleIsKnownToBeThere = noClasses()
            .that().haveNameNotMatching(".*\\.(StarterKafkaAppender|KafkaDetails)(\\$.*)?")
            .should().dependOnClassesThat().resideInAnyPackage("io.github.lockfreelog.kafka..", "org.apache.kafka..");

    @ArchTest
    static final ArchRule otlpTypesOnlyWhereTheModuleIsKnownToBeThere = noClasses()
            .that().haveNameNotMatching(".*\\.(StarterOtlpAppender|OtlpDetails)(\\$.*)?")
            .should().dependOnClassesThat().resideInAnyPackage("io.github.lockfreelog.otlp..", "io.opentelemetry..");

    @Test
    void noMainClassIsOverThreeHundredAndFiftyLines() throws IOException {
        assertThat(SourceFiles.linesOver(Path.of("src/main/java"), 350)).isEmpty();
    }
}
