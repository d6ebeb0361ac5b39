package io.github.lockfreelog.autoconfigure.logging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.mock.env.MockEnvironment;

/** The old names of the file's settings, given to their new names before anything binds them. */
class RenamedPropertiesTests {

    private final Map<String, String> renamed = RemovedProperties.load(getClass().getClassLoader()).renamed();

    @Test
    void theMetadatasWarningLevelDeprecationsAreTheRenamedProperties() {
        assertThat(renamed).containsEntry("lockfreelog.file", "lockfreelog.file.name")
                .containsEntry("lockfreelog.buffer-size", "lockfreelog.file.buffer-size")
                .containsEntry("lockfreelog.journal", "lockfreelog.file.journal").hasSize(9)
                .allSatisfy((old, replacement) -> assertThat(replacement).startsWith("lockfreelog.file."));
    }

    @Test
    void anOldNameSetsTheNewOneWithItsValueAndOrigin() {
        MockEnvironment environment = new MockEnvironment().withProperty("lockfreelog.buffer-size", "128KB")
                .withProperty("lockfreelog.file", "/x/app.log");
        RenamedProperties.apply(environment, renamed);
        LockFreeLogProperties bound = bind(environment);
        assertThat(bound.getFile().getBufferSize().toKilobytes()).isEqualTo(128);
        assertThat(bound.getFile().getName()).isEqualTo("/x/app.log");
        assertThat(bound.getConsole().getBufferSize().toMegabytes()).as("the console's own default").isEqualTo(8);
        ConfigurationProperty moved = InvalidLockFreeLogPropertyException.find(environment, "lockfreelog.file.buffer-size");
        assertThat(moved.getOrigin()).hasToString("\"lockfreelog.buffer-size\" from property source \"mockProperties\"");
        assertThat(RenamedProperties.asWritten(environment, "lockfreelog.file.buffer-size"))
                .isEqualTo("lockfreelog.buffer-size");
        assertThat(RenamedProperties.asWritten(environment, "lockfreelog.file.buffer-count"))
                .isEqualTo("lockfreelog.file.buffer-count");
    }

    @Test
    void theNewNameWinsOverTheOld() {
        MockEnvironment environment = new MockEnvironment().withProperty("lockfreelog.buffer-size", "128KB")
                .withProperty("lockfreelog.file.buffer-size", "256KB");
        RenamedProperties.apply(environment, renamed);
        assertThat(bind(environment).getFile().getBufferSize().toKilobytes()).isEqualTo(256);
        assertThat(environment.getPropertySources().contains(RenamedProperties.SOURCE)).isFalse();
    }

    @Test
    void applyingAgainReplacesWhatAnEarlierRunGave() {
        MockEnvironment environment = new MockEnvironment().withProperty("lockfreelog.buffer-size", "128KB");
        RenamedProperties.apply(environment, renamed);
        environment.setProperty("lockfreelog.file.buffer-size", "256KB");
        RenamedProperties.apply(environment, renamed);
        assertThat(bind(environment).getFile().getBufferSize().toKilobytes()).isEqualTo(256);
        assertThat(RenamedProperties.asWritten(environment, "lockfreelog.file.buffer-size"))
                .isEqualTo("lockfreelog.file.buffer-size");
    }

    /**
     * The old {@code lockfreelog.file=<path>} cannot bind to the group {@code lockfreelog.file} by itself; with its
     * value given to {@code lockfreelog.file.name} it binds. The starter does that before any binding in a
     * {@code SpringApplication} run; a context started without one does not.
     */
    @Test
    void theOldFileNameAloneBindsOnlyOnceGivenToItsNewName() {
        MockEnvironment environment = new MockEnvironment().withProperty("lockfreelog.file", "/x/app.log");
        assertThatThrownBy(() -> bind(environment)).isInstanceOf(BindException.class)
                .hasMessageContaining("lockfreelog.file");
        RenamedProperties.apply(environment, renamed);
        assertThat(bind(environment).getFile().getName()).isEqualTo("/x/app.log");
    }

    private static LockFreeLogProperties bind(MockEnvironment environment) {
        return Binder.get(environment).bind(LockFreeLogProperties.PREFIX, LockFreeLogProperties.class)
                .orElseGet(LockFreeLogProperties::new);
    }
}
