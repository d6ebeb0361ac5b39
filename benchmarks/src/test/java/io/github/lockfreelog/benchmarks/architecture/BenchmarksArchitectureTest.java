package io.github.lockfreelog.benchmarks.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.methods;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.annotations.Benchmark;
import io.github.lockfreelog.testsupport.SourceFiles;

/**
 * Keeps the benchmarks in parts: packages that depend on each other one way only; the file benchmarks (everything but
 * the Kafka, OTLP and Spring Boot application packages) free of those packages and of the jars only they load, so
 * that a class path without them runs the file modes; the JMH benchmarks in their own package; classes small enough
 * to read.
 */
class BenchmarksArchitectureTest {

    private static final String BASE = "io.github.lockfreelog.benchmarks";
    private static final JavaClasses BENCHMARKS = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages(BASE);

    /** The file benchmarks' packages: the command line and everything the file modes load. */
    private static final String[] FILE_PACKAGES = {BASE + ".cli..", BASE + ".peers..", BASE + ".measure..",
        BASE + ".jmh..", BASE + ".results..", BASE + ".report.."};

    /** The packages, and the jars, that only the Kafka, OTLP and boot-app modes (and the OTLP peers) load. */
    private static final String[] MODE_PACKAGES = {BASE + ".kafka..", BASE + ".otlp..", BASE + ".boot..",
        "io.github.lockfreelog.kafka..", "io.github.lockfreelog.otlp..", "org.apache.kafka..", "org.springframework.kafka..",
        "com.github.danielwegener..", "io.opentelemetry..", "org.springframework.context..",
        "org.springframework.beans..", "org.springframework.boot.autoconfigure..", "org.springframework.boot.SpringApplication"};

    @Test
    void packagesDependOnEachOtherOneWayOnly() {
        slices().matching(BASE + ".(*)..").should().beFreeOfCycles().check(BENCHMARKS);
    }

    @Test
    void theFileBenchmarksNeedNeitherKafkaNorOtlpNorTheBootApplication() {
        noClasses().that().resideInAnyPackage(FILE_PACKAGES).should().dependOnClassesThat()
                .resideInAnyPackage(MODE_PACKAGES).check(BENCHMARKS);
    }

    @Test
    void theKafkaModesNeedNeitherOtlpNorTheBootApplication() {
        noClasses().that().resideInAPackage(BASE + ".kafka..").should().dependOnClassesThat()
                .resideInAnyPackage(BASE + ".otlp..", BASE + ".boot..", "io.opentelemetry..").check(BENCHMARKS);
    }

    @Test
    void everyJmhBenchmarkIsInTheJmhPackage() {
        methods().that().areAnnotatedWith(Benchmark.class).should().beDeclaredInClassesThat()
                .resideInAPackage(BASE + ".jmh").check(BENCHMARKS);
    }

    @Test
    void theJmhPackageHoldsOnlyBenchmarks() {
        List<String> others = BENCHMARKS.stream().filter(c -> c.getPackageName().equals(BASE + ".jmh"))
                .filter(c -> c.getEnclosingClass().isEmpty() && !c.getSimpleName().equals("package-info"))
                .filter(c -> c.getMethods().stream().noneMatch(m -> m.isAnnotatedWith(Benchmark.class)))
                .map(c -> c.getSimpleName()).toList();
        assertThat(BENCHMARKS.stream().anyMatch(c -> c.getPackageName().equals(BASE + ".jmh"))).isTrue();
        assertThat(others).as("classes of the jmh package without a @Benchmark method").isEmpty();
    }

    @Test
    void noClassOfMainCodeIsLongerThan350Lines() throws IOException {
        assertThat(SourceFiles.linesOver(Path.of("src/main/java"), 350)).as("classes over 350 lines").isEmpty();
    }
}
