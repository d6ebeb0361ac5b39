package io.github.lockfreelog.autoconfigure;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.INTERFACES;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The shape of the starter's packages: the auto-configurations on top, the actuator parts ({@code actuate}) below
 * them, the logging integration ({@code logging}) at the bottom, and no package that needs one above it.
 */
@AnalyzeClasses(packages = "io.github.lockfreelog.autoconfigure", importOptions = ImportOption.DoNotIncludeTests.class)
class LockFreeLogArchitectureTests {

    /** Each package of the starter is a slice; none may reach back to a package that reaches it. */
    @ArchTest
    static final ArchRule packagesAreFreeOfCycles = slices().matching("io.github.lockfreelog.(**)")
            .namingSlices("$1").should().beFreeOfCycles();

    /** The actuator parts read the starter's runtime through its interface, never its implementation. */
    @ArchTest
    static final ArchRule actuateReadsTheLoggingIntegrationOnlyThroughInterfaces = noClasses()
            .that().resideInAPackage("io.github.lockfreelog.autoconfigure.actuate..")
            .should().dependOnClassesThat(resideInAPackage("io.github.lockfreelog.autoconfigure.logging..")
                    .and(not(INTERFACES)));
}
