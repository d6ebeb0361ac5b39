package io.github.lockfreelog.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import io.github.lockfreelog.testsupport.SourceFiles;

/**
 * Keeps the shape of core: packages that depend on each other one way only, an engine (the record
 * delivery included) that knows neither Logback nor Spring, and packages and classes small enough to read.
 */
class CoreArchitectureTest {

    /**
     * Core's main classes, from this module's own output folder (the tests run in {@code core/}): the class path also
     * holds the test support, whose classes are no part of core (its Kafka broker names Spring Kafka).
     */
    private static final JavaClasses CORE = new ClassFileImporter().importPath(Path.of("target", "classes"));

    /** The packages of the engine: everything but the Logback appenders. */
    private static final String[] ENGINE = {"..lockfreelog.term..", "..lockfreelog.sink..", "..lockfreelog.journal..",
            "..lockfreelog.drain..", "..lockfreelog.recovery..", "..lockfreelog.engine..", "..lockfreelog.diagnostics..",
            "..lockfreelog.files..", "..lockfreelog.records.."};

    @Test
    void packagesDependOnEachOtherOneWayOnly() {
        slices().matching("io.github.lockfreelog.(**)").should().beFreeOfCycles().check(CORE);
    }

    @Test
    void theEngineImportsNeitherLogbackNorSpring() {
        noClasses().that().resideInAnyPackage(ENGINE).should().dependOnClassesThat()
                .resideInAnyPackage("ch.qos.logback..", "org.springframework..").check(CORE);
    }

    @Test
    void coreImportsNoSpring() {
        noClasses().should().dependOnClassesThat().resideInAnyPackage("org.springframework..").check(CORE);
    }

    @Test
    void noPackageHoldsMoreThanADozenClasses() {
        Map<String, Long> sizes = CORE.stream().filter(c -> c.getEnclosingClass().isEmpty())
                .filter(c -> !c.getSimpleName().equals("package-info"))
                .collect(Collectors.groupingBy(JavaClass::getPackageName, TreeMap::new, Collectors.counting()));
        assertThat(sizes).isNotEmpty().allSatisfy((pkg, count) -> assertThat(count).as(pkg).isLessThanOrEqualTo(12));
    }

    @Test
    void noClassIsOverThreeHundredAndFiftyLines() throws IOException {
        assertThat(SourceFiles.linesOver(Path.of("src/main/java"), 350)).isEmpty();
    }
}
