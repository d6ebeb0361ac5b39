package io.github.lockfreelog.autoconfigure.logging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.springframework.mock.env.MockEnvironment;

/** The removed properties come from the configuration metadata, each with what to set instead. */
class RemovedPropertiesTests {

    private final RemovedProperties removed = RemovedProperties.load(getClass().getClassLoader());

    @Test
    void theMetadatasErrorLevelDeprecationsAreTheRemovedProperties() {
        assertThat(removed.names()).containsExactlyInAnyOrder("lockfreelog.pattern", "lockfreelog.structured-format",
                "lockfreelog.charset", "lockfreelog.replace-boot-file-appender", "lockfreelog.rolling.enabled",
                "lockfreelog.rolling.file-name-pattern", "lockfreelog.rolling.max-file-size",
                "lockfreelog.rolling.max-history", "lockfreelog.rolling.total-size-cap",
                "lockfreelog.rolling.clean-history-on-start");
    }

    @Test
    void aRemovedPropertyWithoutReplacementSaysWhatToDoFromTheReason() {
        assertThatThrownBy(() -> removed.check(new MockEnvironment().withProperty("lockfreelog.rolling.enabled", "true")))
                .isInstanceOf(InvalidLockFreeLogPropertyException.class)
                .hasFieldOrPropertyWithValue("allowed", "nothing: this property was removed, the lock-free file takes its"
                        + " lines and rolling from Spring Boot's file settings; set nothing: Spring Boot's log file"
                        + " always rolls instead");
        assertThatThrownBy(() -> removed.check(new MockEnvironment().withProperty("lockfreelog.rolling.max-history", "3")))
                .hasFieldOrPropertyWithValue("allowed", "nothing: this property was removed, the lock-free file takes its"
                        + " lines and rolling from Spring Boot's file settings; set"
                        + " logging.logback.rollingpolicy.max-history instead");
    }
}
