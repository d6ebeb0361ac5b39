package io.github.lockfreelog.autoconfigure;

import static io.github.lockfreelog.autoconfigure.LogbackTestSupport.appenders;
import static io.github.lockfreelog.autoconfigure.LogbackTestSupport.awaitContent;
import static io.github.lockfreelog.autoconfigure.LogbackTestSupport.lockFreeAppenders;
import static io.github.lockfreelog.autoconfigure.LogbackTestSupport.loggerContext;
import static io.github.lockfreelog.autoconfigure.LogbackTestSupport.root;
import static io.github.lockfreelog.autoconfigure.LogbackTestSupport.runtime;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.core.rolling.RollingFileAppender;
import io.github.lockfreelog.autoconfigure.actuate.LockFreeLogAppenders;
import io.github.lockfreelog.autoconfigure.logging.LockFreeLogRuntime;
import io.github.lockfreelog.logback.LockFreeFileAppender;
import java.io.InputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.io.DefaultResourceLoader;

/**
 * Which appender writes the log file: only Spring Boot's own file appender is replaced; a user's own appender for
 * the file is left as configured, with one INFO line that says so; no log file at all is said too.
 */
@ExtendWith(OutputCaptureExtension.class)
class LockFreeLogTakeOverTests {

    @TempDir
    Path dir;

    @AfterEach
    void cleanUp() {
        LogbackTestSupport.cleanUp();
    }

    private SpringApplicationBuilder application(String... properties) {
        return LogbackTestSupport.application(TestApplication.class, properties);
    }

    /**
     * A logback-spring.xml that Spring Boot finds by itself on the class path (no logging.config) is named as
     * docs/spring-boot.md shows it. Before: the line said only "the Logback configuration writes ...".
     */
    @Test
    void anAutoDiscoveredLogbackSpringXmlIsNamedInTheLine(CapturedOutput output) throws Exception {
        Path classes = Files.createDirectories(dir.resolve("classes"));
        try (InputStream config = getClass().getResourceAsStream("/user-file-appender-logback-spring.xml")) {
            Files.copy(config, classes.resolve("logback-spring.xml"));
        }
        Path log = dir.resolve("app.log");
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        try (URLClassLoader loader = new URLClassLoader(new URL[] {classes.toUri().toURL()}, previous)) {
            thread.setContextClassLoader(loader);
            try (ConfigurableApplicationContext context = application("logging.file.name=" + log)
                    .resourceLoader(new DefaultResourceLoader(loader)).run()) {
                assertThat(runtime().appender()).isNull();
                assertThat(output).contains("lockfreelog: the Logback configuration (classpath:logback-spring.xml) writes "
                        + log + " with its own appender 'FILE'");
            }
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    @Test
    void aUsersOwnFileAppenderIsLeftAsConfiguredAndEveryLoggerStillWritesTheFile(CapturedOutput output) {
        Path log = dir.resolve("app.log");
        try (ConfigurableApplicationContext context = application("logging.file.name=" + log,
                "logging.config=classpath:user-file-appender-logback-spring.xml").run()) {
            assertThat(runtime().appender()).isNull();
            assertThat(lockFreeAppenders()).isEmpty();
            // The user's appender is still on both of its loggers, with its own retention.
            assertThat(appenders(root())).anyMatch(a -> "FILE".equals(a.getName()) && a instanceof RollingFileAppender);
            assertThat(appenders(loggerContext().getLogger("com.example.audit")))
                    .anyMatch(a -> "FILE".equals(a.getName()));
            assertThat(output).contains("lockfreelog: the Logback configuration")
                    .contains("user-file-appender-logback-spring.xml")
                    .contains("writes " + log + " with its own appender 'FILE' (ch.qos.logback.core.rolling.RollingFileAppender,"
                            + " on ROOT, com.example.audit), so lockfreelog leaves it as configured")
                    .contains("lockfreelog.enabled=false turns the starter off");
            assertThat(runtime().absence()).contains("its own appender 'FILE'");
            LoggerFactory.getLogger("com.example.audit").info("audit one");
            LoggerFactory.getLogger("com.example.audit").info("audit two");
            LoggerFactory.getLogger("com.example.app").info("app line");
            String content = awaitContent(log, "app line");
            List<String> lines = content.lines().toList();
            assertThat(lines).isNotEmpty().allMatch(line -> line.startsWith("CUSTOM|"));
            assertThat(lines).anyMatch(line -> line.endsWith("|com.example.audit|audit one"))
                    .anyMatch(line -> line.endsWith("|com.example.audit|audit two"))
                    .anyMatch(line -> line.contains("lockfreelog: the Logback configuration"));
        }
    }

    @Test
    void aUsersOwnConsoleAppenderIsLeftAsConfiguredWithOneInfoLine(CapturedOutput output) {
        try (ConfigurableApplicationContext context = application("lockfreelog.console.enabled=true",
                "logging.config=classpath:user-console-appender-logback-spring.xml").run()) {
            assertThat(runtime().console()).isNull();
            assertThat(lockFreeAppenders()).isEmpty();
            assertThat(appenders(root())).anyMatch(a -> "STDOUT".equals(a.getName()) && a.isStarted());
            assertThat(output).contains("MINE|INFO|" + LockFreeLogRuntime.class.getName() + "|lockfreelog:"
                    + " lockfreelog.console.enabled is set, but the Logback configuration"
                    + " (classpath:user-console-appender-logback-spring.xml) has no Spring Boot CONSOLE appender to"
                    + " replace (it has its own: 'STDOUT' (ch.qos.logback.core.ConsoleAppender, on ROOT)); the console"
                    + " is left as configured.");
        }
    }

    @Test
    void springBootsOwnFileAppenderFromFileAppenderXmlIsReplacedWithItsFormat() {
        Path log = dir.resolve("app.log");
        try (ConfigurableApplicationContext context = application("logging.file.name=" + log,
                "logging.config=classpath:boot-file-appender-logback-spring.xml",
                "logging.logback.rollingpolicy.max-history=3", "logging.logback.rollingpolicy.max-file-size=1MB").run()) {
            LockFreeFileAppender appender = runtime().appender();
            assertThat(appender).isNotNull();
            assertThat(appenders(root())).contains(appender).noneMatch(a -> "FILE".equals(a.getName()));
            assertThat(appender.getMaxHistory()).isEqualTo(3);
            assertThat(appender.getMaxFileSize().getSize()).isEqualTo(1024 * 1024);
            assertThat(appender.getFileNamePattern()).isEqualTo(log + ".%d{yyyy-MM-dd}.%i.gz");
            LoggerFactory.getLogger("com.example.quiet").info("not this one");
            LoggerFactory.getLogger("com.example.quiet").warn("quiet warning");
            String content = awaitContent(log, "quiet warning");
            // Spring Boot's file format: ISO date, level, pid, thread, logger, message.
            assertThat(content.lines()).allMatch(line -> line.matches("\\d{4}-\\d\\d-\\d\\dT\\S+ +[A-Z]+ \\d+ --- .*"));
            assertThat(content).doesNotContain("not this one");
        }
    }

    @Test
    void noLogFileIsSaidInOneInfoLine(CapturedOutput output) {
        try (ConfigurableApplicationContext context = application().run()) {
            assertThat(runtime().appender()).isNull();
            assertThat(runtime().absence()).startsWith("no log file is configured");
            assertThat(context.getBean(LockFreeLogAppenders.class).all()).isEmpty();
        }
        assertThat(output).containsOnlyOnce("lockfreelog: no log file is configured: set logging.file.name, "
                + "logging.file.path or lockfreelog.file.name to write one lock-free");
    }

    @Test
    void aRunWhileLoggingIsInitialisedLeavesTheRunningAppenderAlone() {
        Path log = dir.resolve("app.log");
        try (ConfigurableApplicationContext first = application("logging.file.name=" + log).run()) {
            LockFreeFileAppender appender = runtime().appender();
            // An auxiliary run with other settings and no log file, while the first application runs: Spring Boot
            // leaves logging alone, and so does the starter.
            try (ConfigurableApplicationContext second = application("lockfreelog.file.buffer-count=3").run()) {
                assertThat(runtime().appender()).isSameAs(appender);
                assertThat(appender.isStarted()).isTrue();
                assertThat(lockFreeAppenders()).containsExactly(appender);
            }
            LoggerFactory.getLogger("test.aux").info("still written");
            awaitContent(log, "still written");
        }
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class TestApplication {
    }
}
