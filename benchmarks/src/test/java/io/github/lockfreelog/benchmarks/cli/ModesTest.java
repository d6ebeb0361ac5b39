package io.github.lockfreelog.benchmarks.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import java.io.PrintStream;
import java.util.List;
import org.junit.jupiter.api.Test;

class ModesTest {

    /** A mode that needs a jar no class path has. */
    public static final class NeedsAMissingJar implements Mode {

        @Override
        public int run(String[] args, PrintStream out) {
            throw new AssertionError("must not run without its jar");
        }

        @Override
        public String usage() {
            return "probe";
        }

        @Override
        public List<String> requires() {
            return List.of("org.example.NotOnAnyClassPath");
        }
    }

    @Test
    void everyRegisteredModeShouldLoadWithItsJarsOnTheModulesClassPath() {
        assertThat(Modes.commands()).contains("kafka", "kafka-quick", "kafka-kill", "kafka-journal", "otlp-kill", "boot-app");
        for (String command : Modes.commands()) {
            Mode mode = Modes.of(command);
            assertThat(mode.usage()).as(command).isNotBlank();
            assertThat(mode.requires()).as(command).isNotEmpty();
        }
        assertThat(Arguments.usage()).contains("kafka-kill [--peers", "otlp-kill [--peers", "boot-app [--sinks")
                .doesNotContain("not runnable");
    }

    @Test
    void aModeWhoseJarIsMissingShouldBeRefusedBeforeItRunsNamingTheClass() {
        assertThatIllegalStateException()
                .isThrownBy(() -> Modes.load("probe", NeedsAMissingJar.class.getName()))
                .withMessageContaining("the probe mode needs [org.example.NotOnAnyClassPath] on the class path");
        assertThatIllegalStateException().isThrownBy(() -> Modes.load("gone", "org.example.NoSuchMode"))
                .withMessageContaining("the gone mode needs org.example.NoSuchMode");
    }

    @Test
    void theFileModesShouldNotBeInTheRegistry() {
        assertThat(Modes.commands()).doesNotContain("quick", "latency", "cost", "scaling", "drain", "virtual", "console",
                "report", "chart", "peers");
    }
}
