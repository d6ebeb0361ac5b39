package io.github.lockfreelog.autoconfigure.actuate;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.lockfreelog.logback.LockFreeAppenderBase;
import io.github.lockfreelog.logback.LockFreeFileAppender;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LockFreeLogAppendersTests {

    @TempDir
    Path dir;

    private final AttachedAppenders logback = new AttachedAppenders();

    @AfterEach
    void detachAndStop() {
        logback.close();
    }

    @Test
    void absenceWithoutAReasonFromTheStarterShouldSayNoLogFileIsConfigured() {
        LockFreeLogAppenders appenders = new LockFreeLogAppenders(logback.context());
        assertThat(appenders.all()).isEmpty();
        assertThat(appenders.absence()).isEqualTo(LockFreeLogAppenders.NO_LOG_FILE)
                .contains("logging.file.name", "logging.file.path", "lockfreelog.file");
    }

    @Test
    void absenceShouldBeTheStartersReasonReadAfreshWhileNoAppenderIsAttached() {
        AtomicReference<String> reason =
                new AtomicReference<>("logback-spring.xml writes /x/app.log with its own appender FILE");
        LockFreeLogAppenders appenders = new LockFreeLogAppenders(logback.context(), reason::get);
        assertThat(appenders.absence()).isEqualTo("logback-spring.xml writes /x/app.log with its own appender FILE");
        reason.set("lockfreelog.enabled is false");
        assertThat(appenders.absence()).isEqualTo("lockfreelog.enabled is false");
    }

    @Test
    void absenceWhenTheStarterRunsAnAppenderThatIsNotAttachedShouldSaySo() {
        LockFreeLogAppenders appenders = new LockFreeLogAppenders(logback.context(), () -> null);
        assertThat(appenders.absence()).isEqualTo(LockFreeLogAppenders.NONE_ATTACHED);
    }

    @Test
    void absenceShouldBeNullWhileAnyAppenderIsAttachedWhateverTheStarterSays() {
        LockFreeLogAppenders appenders = new LockFreeLogAppenders(logback.context(), () -> "no log file (starter)");
        LockFreeFileAppender declared = logback.attach("DECLARED", dir.resolve("a.log"));
        assertThat(appenders.absence()).isNull();
        logback.detach(declared);
        assertThat(appenders.absence()).isEqualTo("no log file (starter)");
    }

    @Test
    void getShouldFindTheAppenderAttachedNowByName() {
        LockFreeLogAppenders appenders = new LockFreeLogAppenders(logback.context());
        LockFreeFileAppender first = logback.attach("FIRST", dir.resolve("first.log"));
        logback.attach("SECOND", dir.resolve("second.log"));
        assertThat(appenders.get("FIRST")).isSameAs(first);
        assertThat(appenders.get("NONE")).isNull();
        assertThat(appenders.all()).extracting(LockFreeAppenderBase::getName).containsExactly("FIRST", "SECOND");
        logback.detach(first);
        assertThat(appenders.get("FIRST")).isNull();
        assertThat(appenders.isAutoConfigured(first)).as("declared, not the starter's").isFalse();
    }
}
