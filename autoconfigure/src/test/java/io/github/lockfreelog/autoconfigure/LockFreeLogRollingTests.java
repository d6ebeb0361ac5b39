package io.github.lockfreelog.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.lockfreelog.logback.LockFreeFileAppender;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** {@code lockfreelog.rolling.*}: binding, the fall-back to Spring Boot's {@code logging.logback.rollingpolicy.*}, checks. */
class LockFreeLogRollingTests {

    @TempDir
    Path dir;

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(LockFreeLogAutoConfiguration.class))
            .withPropertyValues("lockfreelog.buffer-size=64KB", "lockfreelog.buffer-count=2",
                    "lockfreelog.flush-interval=20ms");

    @AfterEach
    void cleanUp() {
        LogbackTestSupport.cleanUp();
    }

    private ApplicationContextRunner withLog(String... properties) {
        return runner.withPropertyValues("lockfreelog.file=" + log()).withPropertyValues(properties);
    }

    private String log() {
        return dir.resolve("app.log").toString();
    }

    private static LockFreeFileAppender appender(AssertableApplicationContext context) {
        assertThat(context).hasNotFailed();
        return context.getBean(LockFreeLogAttachment.class).getAppender();
    }

    @Test
    void runWithNothingSetShouldRollAsSpringBootsFileAppenderDoes() {
        withLog().run(context -> {
            LockFreeFileAppender appender = appender(context);
            assertThat(appender.getFileNamePattern()).isEqualTo(log() + ".%d{yyyy-MM-dd}.%i.gz");
            assertThat(appender.getMaxFileSize().getSize()).isEqualTo(10 * 1024 * 1024);
            assertThat(appender.getMaxHistory()).isEqualTo(7);
            assertThat(appender.getTotalSizeCap()).isNull();
            assertThat(appender.isCleanHistoryOnStart()).isFalse();
        });
    }

    @Test
    void runWithSpringBootsRollingPolicyShouldUseIt() {
        withLog("logging.logback.rollingpolicy.file-name-pattern=${LOG_PATH}/archive/app.%d{yyyy-MM}.%i.zip",
                "logging.logback.rollingpolicy.max-file-size=5 MB", "logging.logback.rollingpolicy.max-history=3",
                "logging.logback.rollingpolicy.total-size-cap=50MB",
                "logging.logback.rollingpolicy.clean-history-on-start=true").run(context -> {
                    LockFreeFileAppender appender = appender(context);
                    // ${LOG_FILE} and ${LOG_PATH} are the lock-free appender's file and folder.
                    assertThat(appender.getFileNamePattern())
                            .isEqualTo(dir.resolve("archive/app.%d{yyyy-MM}.%i.zip").toString());
                    assertThat(appender.getMaxFileSize().getSize()).isEqualTo(5 * 1024 * 1024);
                    assertThat(appender.getMaxHistory()).isEqualTo(3);
                    assertThat(appender.getTotalSizeCap().getSize()).isEqualTo(50 * 1024 * 1024);
                    assertThat(appender.isCleanHistoryOnStart()).isTrue();
                });
    }

    @Test
    void logFilePlaceholderShouldBeTheLockFreeFileEvenWhenSpringBootWritesAnother() {
        // LOG_FILE as Spring Boot sets it (a system property) for its own file: its archives must not be ours.
        runner.withPropertyValues("LOG_FILE=" + dir.resolve("boot.log"), "logging.file.name=" + dir.resolve("boot.log"),
                "lockfreelog.replace-boot-file-appender=false", "lockfreelog.file=" + log(),
                "logging.logback.rollingpolicy.file-name-pattern=${LOG_FILE}.%d{yyyy-MM-dd}.%i.log").run(context -> {
                    assertThat(appender(context).getFileNamePattern()).isEqualTo(log() + ".%d{yyyy-MM-dd}.%i.log");
                });
    }

    @Test
    void runWithSpringBootsOlderPropertyNamesShouldUseThem() {
        withLog("logging.file.max-size=2MB", "logging.file.max-history=4").run(context -> {
            LockFreeFileAppender appender = appender(context);
            assertThat(appender.getMaxFileSize().getSize()).isEqualTo(2 * 1024 * 1024);
            assertThat(appender.getMaxHistory()).isEqualTo(4);
        });
    }

    @Test
    void runWithRollingPropertiesShouldWinOverSpringBoots() {
        withLog("logging.logback.rollingpolicy.file-name-pattern=boot.%d.%i.gz",
                "logging.logback.rollingpolicy.max-file-size=5MB", "logging.logback.rollingpolicy.max-history=3",
                "logging.logback.rollingpolicy.total-size-cap=50MB",
                "logging.logback.rollingpolicy.clean-history-on-start=true",
                "lockfreelog.rolling.file-name-pattern=${LOG_FILE}.%d{yyyy-MM-dd-HH}.%i",
                "lockfreelog.rolling.max-file-size=256KB", "lockfreelog.rolling.max-history=24",
                "lockfreelog.rolling.total-size-cap=0B", "lockfreelog.rolling.clean-history-on-start=false")
                .run(context -> {
                    LockFreeFileAppender appender = appender(context);
                    assertThat(appender.getFileNamePattern()).isEqualTo(log() + ".%d{yyyy-MM-dd-HH}.%i");
                    assertThat(appender.getMaxFileSize().getSize()).isEqualTo(256 * 1024);
                    assertThat(appender.getMaxHistory()).isEqualTo(24);
                    assertThat(appender.getTotalSizeCap()).isNull();
                    assertThat(appender.isCleanHistoryOnStart()).isFalse();
                });
    }

    @Test
    void runWithPatternWithoutIndexAndNoSizeShouldRollByTimeOnly() {
        withLog("lockfreelog.rolling.file-name-pattern=" + dir.resolve("app.%d{yyyy-MM-dd}.log")).run(context -> {
            LockFreeFileAppender appender = appender(context);
            assertThat(appender.getFileNamePattern()).isEqualTo(dir.resolve("app.%d{yyyy-MM-dd}.log").toString());
            assertThat(appender.getMaxFileSize()).isNull();
            assertThat(appender.getMaxHistory()).isEqualTo(7);
        });
    }

    @Test
    void runWithMaxFileSizeZeroShouldRollByTimeOnly() {
        withLog("logging.logback.rollingpolicy.max-file-size=10MB", "lockfreelog.rolling.max-file-size=0B",
                "lockfreelog.rolling.file-name-pattern=${LOG_FILE}.%d").run(context -> {
                    LockFreeFileAppender appender = appender(context);
                    assertThat(appender.getFileNamePattern()).isEqualTo(log() + ".%d");
                    assertThat(appender.getMaxFileSize()).isNull();
                });
    }

    @Test
    void runWhenRollingIsDisabledShouldNeverRoll() {
        withLog("lockfreelog.rolling.enabled=false", "logging.logback.rollingpolicy.max-file-size=1MB").run(context -> {
            LockFreeFileAppender appender = appender(context);
            assertThat(appender.getFileNamePattern()).isNull();
            assertThat(appender.getMaxFileSize()).isNull();
            assertThat(appender.getMaxHistory()).isZero();
        });
    }

    @Test
    void runWithOtherRollingSettingsShouldReplaceTheInstance() {
        LockFreeFileAppender[] first = new LockFreeFileAppender[1];
        withLog().run(context -> first[0] = appender(context));
        withLog("lockfreelog.rolling.max-history=2").run(context -> {
            assertThat(appender(context)).isNotSameAs(first[0]);
            assertThat(appender(context).getMaxHistory()).isEqualTo(2);
        });
    }

    @Test
    void runWithSizeButPatternWithoutIndexShouldFailNamingThePattern() {
        withLog("logging.logback.rollingpolicy.file-name-pattern=${LOG_FILE}.%d{yyyy-MM-dd}.gz",
                "lockfreelog.rolling.max-file-size=1MB").run(context -> {
                    InvalidLockFreeLogPropertyException ex = failure(context);
                    assertThat(ex.getProperty()).isEqualTo("logging.logback.rollingpolicy.file-name-pattern");
                    assertThat(ex.getValue()).isEqualTo("${LOG_FILE}.%d{yyyy-MM-dd}.gz");
                    assertThat(ex.getAllowed()).contains("a pattern with the index token %i")
                            .contains("lockfreelog.rolling.max-file-size=1048576B")
                            .contains("lockfreelog.rolling.max-file-size=0B to roll by time only");
                });
    }

    @ParameterizedTest(name = "{0}={1}")
    @CsvSource(delimiter = '|', value = {
        "lockfreelog.rolling.file-name-pattern|${LOG_FILE}.gz|a Logback file name pattern with the date token %d{...}",
        "logging.logback.rollingpolicy.file-name-pattern|${LOG_FILE}.%i.gz|a Logback file name pattern with the date token %d{...}",
        "lockfreelog.rolling.file-name-pattern|${NO_SUCH_PLACEHOLDER}.%d.%i.gz|a pattern whose placeholders can be resolved",
        "lockfreelog.rolling.max-file-size|-1MB|0B (roll by time only) or a positive size",
        "logging.logback.rollingpolicy.max-file-size|huge|0B (roll by time only) or a positive size",
        "lockfreelog.rolling.max-history|-1|an integer of at least 0 (0 keeps every rolled file)",
        "logging.logback.rollingpolicy.max-history|seven|an integer of at least 0 (0 keeps every rolled file)",
        "lockfreelog.rolling.total-size-cap|-1GB|0B (no cap) or a positive size",
        "logging.logback.rollingpolicy.total-size-cap|lots|0B (no cap) or a positive size",
        "logging.logback.rollingpolicy.clean-history-on-start|maybe|true or false",
    })
    void runWithInvalidValueShouldFailNamingThePropertyAndTheAllowedValues(String property, String value, String allowed) {
        withLog(property + "=" + value).run(context -> {
            InvalidLockFreeLogPropertyException ex = failure(context);
            assertThat(ex.getProperty()).isEqualTo(property);
            assertThat(ex.getValue()).hasToString(value.replace("-1MB", "-1048576B").replace("-1GB", "-1073741824B"));
            assertThat(ex.getAllowed()).contains(allowed);
            assertThat(LogbackTestSupport.lockFreeAppenders()).isEmpty();
        });
    }

    static InvalidLockFreeLogPropertyException failure(AssertableApplicationContext context) {
        assertThat(context).hasFailed();
        Throwable cause = context.getStartupFailure();
        while (cause.getCause() != null) {
            cause = cause.getCause();
        }
        assertThat(cause).isInstanceOf(InvalidLockFreeLogPropertyException.class);
        return (InvalidLockFreeLogPropertyException) cause;
    }
}
