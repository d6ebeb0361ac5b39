package io.github.lockfreelog.autoconfigure;

import static io.github.lockfreelog.autoconfigure.LogbackTestSupport.appenders;
import static io.github.lockfreelog.autoconfigure.LogbackTestSupport.awaitContent;
import static io.github.lockfreelog.autoconfigure.LogbackTestSupport.lockFreeAppenders;
import static io.github.lockfreelog.autoconfigure.LogbackTestSupport.loggerContext;
import static io.github.lockfreelog.autoconfigure.LogbackTestSupport.root;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.FileAppender;
import io.github.lockfreelog.autoconfigure.actuate.LockFreeLogAppenders;
import io.github.lockfreelog.journal.Backpressure;
import io.github.lockfreelog.logback.LockFreeFileAppender;
import java.nio.charset.Charset;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

class LockFreeLogAutoConfigurationTests {

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

    private String file(String name) {
        return dir.resolve(name).toString();
    }

    @Test
    void runWithFileShouldAttachAppenderToRootAndWriteTheFile() {
        runner.withPropertyValues("lockfreelog.file=" + file("app.log")).run(context -> {
            LockFreeFileAppender appender = context.getBean(LockFreeLogAttachment.class).getAppender();
            assertThat(appender).isNotNull();
            assertThat(appender.isStarted()).isTrue();
            assertThat(appender.getName()).isEqualTo(LockFreeLogAppenderHolder.APPENDER_NAME);
            assertThat(root().getAppender(LockFreeLogAppenderHolder.APPENDER_NAME)).isSameAs(appender);
            assertThat(appender.getFile()).isEqualTo(dir.resolve("app.log").toAbsolutePath().toString());

            LoggerFactory.getLogger("test.autoconfig").info("hello from the runner");
            String content = awaitContent(dir.resolve("app.log"), "hello from the runner");
            assertThat(content).contains(" INFO ").contains("test.autoconfig");
            assertThat(appender.getStatistics().appended()).isGreaterThanOrEqualTo(1);
        });
    }

    @Test
    void runWhenEnabledIsFalseShouldNotAttachAppender() {
        runner.withPropertyValues("lockfreelog.enabled=false", "lockfreelog.file=" + file("app.log")).run(context -> {
            assertThat(context).doesNotHaveBean(LockFreeLogAttachment.class);
            assertThat(context).doesNotHaveBean(LockFreeLogAppenders.class);
            assertThat(lockFreeAppenders()).isEmpty();
        });
    }

    @Test
    void runWithoutAnyLogFileShouldNotAttachAppender() {
        runner.run(context -> {
            assertThat(context).hasSingleBean(LockFreeLogAttachment.class);
            assertThat(context.getBean(LockFreeLogAttachment.class).getAppender()).isNull();
            assertThat(lockFreeAppenders()).isEmpty();
        });
    }

    @Test
    void runWhenLogbackIsNotOnTheClassPathShouldBackOff() {
        runner.withClassLoader(new FilteredClassLoader(LoggerContext.class))
                .withPropertyValues("lockfreelog.file=" + file("app.log"))
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context).doesNotHaveBean(LockFreeLogAttachment.class);
                    assertThat(context).doesNotHaveBean(LockFreeLogProperties.class);
                    // Logback is still what the test runs on: had the starter not backed off, its appender would
                    // be on ROOT and would write the file.
                    assertThat(LockFreeLogAppenderHolder.current()).isNull();
                    assertThat(root().getAppender(LockFreeLogAppenderHolder.APPENDER_NAME)).isNull();
                    LoggerFactory.getLogger("test.backoff").info("not for the file");
                    assertThat(dir.resolve("app.log")).doesNotExist();
                });
    }

    @Test
    void runWhenTheCoreIsNotOnTheClassPathShouldBackOff() {
        runner.withClassLoader(new FilteredClassLoader(LockFreeFileAppender.class))
                .withPropertyValues("lockfreelog.file=" + file("app.log"))
                .run(context -> assertThat(context).doesNotHaveBean(LockFreeLogAttachment.class));
    }

    @Test
    void runWithEveryPropertyShouldConfigureAppender() {
        runner.withPropertyValues("lockfreelog.file=" + file("all.log"), "lockfreelog.journal=" + file("j/all.journal"),
                "lockfreelog.buffer-size=128KB", "lockfreelog.buffer-count=4", "lockfreelog.backpressure=DROP",
                "lockfreelog.max-block-time=250ms", "lockfreelog.max-event-size=16KB",
                "lockfreelog.flush-interval=30ms", "lockfreelog.drop-below-level=warn",
                "lockfreelog.pattern=%level|%logger|%msg%n", "lockfreelog.charset=UTF-16LE").run(context -> {
                    LockFreeFileAppender appender = context.getBean(LockFreeLogAttachment.class).getAppender();
                    assertThat(appender.getJournal()).isEqualTo(dir.resolve("j/all.journal").toString());
                    assertThat(appender.getBufferSize().getSize()).isEqualTo(128 * 1024);
                    assertThat(appender.getBufferCount()).isEqualTo(4);
                    assertThat(appender.getBackpressure()).isEqualTo(Backpressure.DROP);
                    assertThat(appender.getMaxBlockTime().getMilliseconds()).isEqualTo(250);
                    assertThat(appender.getMaxEventSize().getSize()).isEqualTo(16 * 1024);
                    assertThat(appender.getFlushInterval().getMilliseconds()).isEqualTo(30);
                    assertThat(appender.getDropBelowLevel()).isEqualTo("WARN");
                    assertThat(appender.getStatistics().bufferSize()).isEqualTo(128 * 1024);
                    assertThat(appender.getStatistics().bufferCount()).isEqualTo(4);
                    assertThat(dir.resolve("j/all.journal")).exists();

                    LoggerFactory.getLogger("test.every").warn("every knob");
                    awaitContent(dir.resolve("all.log"), Charset.forName("UTF-16LE"), "WARN|test.every|every knob\n");
                });
    }

    @Test
    void runWithLoggingFileNameShouldWriteItAndReplaceBootFileAppender() {
        Path log = dir.resolve("boot.log");
        FileAppender<ILoggingEvent> bootFile = bootStyleFileAppender(log);
        runner.withPropertyValues("logging.file.name=" + log).run(context -> {
            LockFreeFileAppender appender = context.getBean(LockFreeLogAttachment.class).getAppender();
            assertThat(appender.getFile()).isEqualTo(log.toAbsolutePath().toString());
            assertThat(appenders(root())).contains(appender).doesNotContain(bootFile);
            assertThat(bootFile.isStarted()).isFalse();
            LoggerFactory.getLogger("test.replace").info("written once");
            String content = awaitContent(log, "written once");
            assertThat(content.split("written once", -1)).hasSize(2);
        });
    }

    @Test
    void runWithLoggingFilePathShouldWriteSpringLogInThatFolder() {
        runner.withPropertyValues("logging.file.path=" + dir.resolve("logs")).run(context -> {
            LockFreeFileAppender appender = context.getBean(LockFreeLogAttachment.class).getAppender();
            assertThat(appender.getFile()).isEqualTo(dir.resolve("logs/spring.log").toAbsolutePath().toString());
        });
    }

    @Test
    void runWhenReplaceBootFileAppenderIsFalseShouldKeepBootFileAppender() {
        Path bootLog = dir.resolve("boot.log");
        FileAppender<ILoggingEvent> bootFile = bootStyleFileAppender(bootLog);
        runner.withPropertyValues("logging.file.name=" + bootLog, "lockfreelog.file=" + file("fast.log"),
                "lockfreelog.replace-boot-file-appender=false").run(context -> {
                    assertThat(appenders(root())).contains(bootFile);
                    assertThat(bootFile.isStarted()).isTrue();
                    LoggerFactory.getLogger("test.keep").info("both files");
                    awaitContent(dir.resolve("fast.log"), "both files");
                    awaitContent(bootLog, "both files");
                });
        root().detachAppender(bootFile);
        bootFile.stop();
    }

    @Test
    void runWhenReplaceBootFileAppenderIsFalseAndBothWriteOneFileShouldFail() {
        runner.withPropertyValues("logging.file.name=" + file("boot.log"),
                "lockfreelog.replace-boot-file-appender=false").run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(context.getStartupFailure()).rootCause()
                            .isInstanceOf(InvalidLockFreeLogPropertyException.class)
                            .hasMessageContaining("lockfreelog.file")
                            .hasMessageContaining("lockfreelog.replace-boot-file-appender=false");
                });
    }

    @Test
    void runWithLoggingPatternAndCharsetShouldUseThem() {
        runner.withPropertyValues("lockfreelog.file=" + file("latin.log"), "logging.pattern.file=%level~%msg%n",
                "logging.charset.file=ISO-8859-1").run(context -> {
                    LoggerFactory.getLogger("test.latin").info("caf\u00e9");
                    String content = awaitContent(dir.resolve("latin.log"), Charset.forName("ISO-8859-1"), "INFO~caf\u00e9\n");
                    assertThat(content).doesNotContain("test.latin");
                });
    }

    @Test
    void runWithPatternShouldWinOverLoggingPattern() {
        runner.withPropertyValues("lockfreelog.file=" + file("p.log"), "logging.pattern.file=%level~%msg%n",
                "lockfreelog.pattern=[%msg]%n").run(context -> {
                    LoggerFactory.getLogger("test.pattern").info("mine");
                    assertThat(awaitContent(dir.resolve("p.log"), "[mine]\n")).doesNotContain("INFO~");
                });
    }

    @Test
    void runWithDefaultPatternShouldLookLikeSpringBootsFileLines() {
        runner.withPropertyValues("lockfreelog.file=" + file("d.log")).run(context -> {
            LoggerFactory.getLogger("test.default.pattern").info("boot look");
            String content = awaitContent(dir.resolve("d.log"), "boot look");
            assertThat(content).containsPattern("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}\\S+  INFO "
                    + ProcessHandle.current().pid() + " --- \\[[^\\]]+\\] test\\.default\\.pattern\\s+ : boot look");
        });
    }

    @Test
    void runWithPlaceholdersInPatternsShouldLeaveThemToLogback() {
        runner.withPropertyValues("lockfreelog.file=" + file("ph.log"), "test.label=from-spring",
                "lockfreelog.pattern=[${NOPE}] [${LEVEL_VAR:-%5p}] [${test.label}] %m%n").run(context -> {
                    assertThat(context).hasNotFailed();
                    LoggerFactory.getLogger("test.placeholders").info("lockfreelog pattern");
                    assertThat(awaitContent(dir.resolve("ph.log"), "lockfreelog pattern"))
                            .contains("[NOPE_IS_UNDEFINED] [ INFO] [from-spring] lockfreelog pattern\n");
                });
        runner.withPropertyValues("lockfreelog.file=" + file("ph2.log"), "logging.pattern.file=%level ${NOPE} %m%n")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    LoggerFactory.getLogger("test.placeholders").info("logging pattern");
                    assertThat(awaitContent(dir.resolve("ph2.log"), "logging pattern"))
                            .contains("INFO NOPE_IS_UNDEFINED logging pattern\n");
                });
    }

    @Test
    void runWithFileThresholdShouldKeepLowerLevelsOutOfTheFile() {
        runner.withPropertyValues("lockfreelog.file=" + file("t.log"), "logging.threshold.file=error").run(context -> {
            LoggerFactory.getLogger("test.threshold").warn("warn line");
            LoggerFactory.getLogger("test.threshold").error("error line");
            assertThat(awaitContent(dir.resolve("t.log"), "error line")).doesNotContain("warn line");
        });
    }

    @Test
    void runWithBootPatternPropertiesShouldShapeTheDefaultPatternWithoutSpringApplication() {
        runner.withPropertyValues("lockfreelog.file=" + file("b.log"), "logging.pattern.level=<%p>",
                "logging.pattern.dateformat=HH:mm").run(context -> {
                    LoggerFactory.getLogger("test.bare").info("bare context");
                    assertThat(awaitContent(dir.resolve("b.log"), "bare context")).containsPattern(
                            "(?m)^\\d\\d:\\d\\d <INFO> " + ProcessHandle.current().pid() + " --- .* : bare context$");
                });
    }

    @Test
    void runWithLoggersShouldAttachToThoseLoggersOnly() {
        runner.withPropertyValues("lockfreelog.file=" + file("l.log"), "lockfreelog.loggers=com.example.a,com.example.b")
                .run(context -> {
                    LockFreeFileAppender appender = context.getBean(LockFreeLogAttachment.class).getAppender();
                    LoggerContext logback = loggerContext();
                    assertThat(appenders(root())).doesNotContain(appender);
                    assertThat(appenders(logback.getLogger("com.example.a"))).containsExactly(appender);
                    assertThat(appenders(logback.getLogger("com.example.b"))).containsExactly(appender);
                    LoggerFactory.getLogger("com.example.other").info("not mine");
                    LoggerFactory.getLogger("com.example.a.Service").info("mine");
                    String content = awaitContent(dir.resolve("l.log"), "mine");
                    assertThat(content).doesNotContain("not mine");
                });
    }

    @Test
    void runWhenLogbackConfigurationDeclaresAppenderForTheFileShouldUseThatOne() {
        LockFreeFileAppender declared = new LockFreeFileAppender();
        declared.setContext(loggerContext());
        declared.setName("FROM_XML");
        declared.setFile(file("xml.log"));
        declared.setBufferSize(ch.qos.logback.core.util.FileSize.valueOf("64KB"));
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(loggerContext());
        encoder.setPattern("%msg%n");
        encoder.start();
        declared.setEncoder(encoder);
        declared.start();
        root().addAppender(declared);
        runner.withPropertyValues("lockfreelog.file=" + file("xml.log")).run(context -> {
            assertThat(context.getBean(LockFreeLogAttachment.class).getAppender()).isNull();
            assertThat(lockFreeAppenders()).containsExactly(declared);
            assertThat(context.getBean(LockFreeLogAppenders.class).get("FROM_XML")).isSameAs(declared);
        });
    }

    @Test
    void runTwiceWithTheSameSettingsShouldKeepOneInstance() {
        ApplicationContextRunner configured = runner.withPropertyValues("lockfreelog.file=" + file("same.log"));
        LockFreeFileAppender[] first = new LockFreeFileAppender[1];
        configured.run(context -> first[0] = context.getBean(LockFreeLogAttachment.class).getAppender());
        configured.run(context -> {
            assertThat(context.getBean(LockFreeLogAttachment.class).getAppender()).isSameAs(first[0]);
            assertThat(lockFreeAppenders()).containsExactly(first[0]);
        });
    }

    @Test
    void runWithOtherSettingsShouldReplaceTheInstance() {
        LockFreeFileAppender[] first = new LockFreeFileAppender[1];
        runner.withPropertyValues("lockfreelog.file=" + file("one.log"))
                .run(context -> first[0] = context.getBean(LockFreeLogAttachment.class).getAppender());
        runner.withPropertyValues("lockfreelog.file=" + file("two.log")).run(context -> {
            LockFreeFileAppender second = context.getBean(LockFreeLogAttachment.class).getAppender();
            assertThat(second).isNotSameAs(first[0]);
            assertThat(first[0].isStarted()).isFalse();
            assertThat(lockFreeAppenders()).containsExactly(second);
        });
    }

    @Test
    void logbackResetShouldKeepTheSameRunningAppenderAttachedWithItsCounters() {
        runner.withPropertyValues("lockfreelog.file=" + file("reset.log")).run(context -> {
            LockFreeFileAppender appender = context.getBean(LockFreeLogAttachment.class).getAppender();
            org.slf4j.Logger logger = LoggerFactory.getLogger("test.reset");
            for (int i = 0; i < 10; i++) {
                logger.info("before reset {}", i);
            }
            long before = appender.getStatistics().appended();
            assertThat(before).isGreaterThanOrEqualTo(10);

            loggerContext().reset();

            assertThat(lockFreeAppenders()).containsExactly(appender);
            assertThat(appender.isStarted()).isTrue();
            LoggerFactory.getLogger("test.reset").info("after reset");
            assertThat(appender.getStatistics().appended()).isGreaterThan(before);
            awaitContent(dir.resolve("reset.log"), "after reset");
        });
    }

    @ParameterizedTest(name = "{0}={1}")
    @CsvSource(delimiter = '|', value = {
        "lockfreelog.buffer-size|100000B|a multiple of 4KB from 64KB to 512MB",
        "lockfreelog.buffer-size|1GB|a multiple of 4KB from 64KB to 512MB",
        "lockfreelog.buffer-count|1|an integer from 2 to 16",
        "lockfreelog.buffer-count|17|an integer from 2 to 16",
        "lockfreelog.max-event-size|64KB|a size from 256B to half of lockfreelog.buffer-size, at most 16MB (32768B here)",
        "lockfreelog.max-block-time|0s|a positive duration of at least 1ms",
        "lockfreelog.flush-interval|-5ms|a positive duration of at least 1ms",
        "lockfreelog.drop-below-level|LOUD|one of TRACE, DEBUG, INFO, WARN, ERROR, OFF",
        "lockfreelog.pattern|%d %noSuchWord|a valid Logback pattern",
        "logging.charset.file|NO-SUCH-CHARSET|a charset name this JVM supports",
        "logging.charset.file|${NOPE}|a value whose ${...} placeholders can be resolved",
        "logging.threshold.file|LOUD|one of TRACE, DEBUG, INFO, WARN, ERROR, OFF",
    })
    void runWithInvalidValueShouldFailNamingThePropertyAndTheAllowedValues(String property, String value, String allowed) {
        runner.withPropertyValues("lockfreelog.file=" + file("bad.log"), property + "=" + value).run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause().isInstanceOf(InvalidLockFreeLogPropertyException.class);
            InvalidLockFreeLogPropertyException ex = (InvalidLockFreeLogPropertyException) rootCause(context.getStartupFailure());
            assertThat(ex.getProperty()).isEqualTo(property);
            assertThat(ex.getAllowed()).contains(allowed);
            assertThat(lockFreeAppenders()).isEmpty();
        });
    }

    @Test
    void userConfigurationWithItsOwnAttachmentShouldMakeTheStarterBackOff() {
        runner.withUserConfiguration(UserAttachmentConfiguration.class)
                .withPropertyValues("lockfreelog.file=" + file("user.log")).run(context -> {
                    assertThat(context).hasSingleBean(LockFreeLogAttachment.class);
                    assertThat(context).getBean("userAttachment").isSameAs(context.getBean(LockFreeLogAttachment.class));
                    assertThat(lockFreeAppenders()).isEmpty();
                });
    }

    private static Throwable rootCause(Throwable failure) {
        Throwable cause = failure;
        while (cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }

    /** A plain file appender on ROOT, as Spring Boot's default configuration adds for logging.file.name. */
    private static FileAppender<ILoggingEvent> bootStyleFileAppender(Path file) {
        FileAppender<ILoggingEvent> appender = new FileAppender<>();
        appender.setContext(loggerContext());
        appender.setName("FILE");
        appender.setFile(file.toString());
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(loggerContext());
        encoder.setPattern("%msg%n");
        encoder.start();
        appender.setEncoder(encoder);
        appender.start();
        root().addAppender(appender);
        return appender;
    }

    @Configuration(proxyBeanMethods = false)
    static class UserAttachmentConfiguration {

        @Bean
        LockFreeLogAttachment userAttachment() {
            // Attaches nothing: a user who wires appenders by hand.
            return new LockFreeLogAttachment(loggerContext(), new LockFreeLogProperties(), new org.springframework.core.env.StandardEnvironment());
        }
    }
}
