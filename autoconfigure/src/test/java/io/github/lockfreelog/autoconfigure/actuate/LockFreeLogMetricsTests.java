package io.github.lockfreelog.autoconfigure.actuate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.lockfreelog.diagnostics.AppenderStatistics;
import io.github.lockfreelog.logback.LockFreeFileAppender;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.lang.ref.WeakReference;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The meters, bound to a registry by hand, over appenders attached and detached under them. */
class LockFreeLogMetricsTests {

    @TempDir
    Path dir;

    private final AttachedAppenders logback = new AttachedAppenders();

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    @AfterEach
    void detachAndStop() {
        registry.close();
        logback.close();
    }

    @Test
    void metersShouldFollowAnAppenderDetachedAndAttachedAgainByName() {
        LockFreeFileAppender appender = logback.attach("FIRST", dir.resolve("a.log"));
        new LockFreeLogMetrics(new LockFreeLogAppenders(logback.context())).bindTo(registry);
        Gauge buffers = registry.get("lockfreelog.buffers").tag("appender", "FIRST").gauge();
        Gauge started = registry.get("lockfreelog.started").tag("appender", "FIRST").gauge();
        FunctionCounter appended = registry.get("lockfreelog.events.appended").tag("appender", "FIRST").functionCounter();
        log(5);
        await().atMost(Duration.ofSeconds(5)).until(() -> appended.count() == 5);
        assertThat(buffers.value()).isEqualTo(2);
        assertThat(started.value()).isEqualTo(1);

        logback.detach(appender);
        await().atMost(Duration.ofSeconds(5)).until(() -> Double.isNaN(buffers.value()));
        assertThat(started.value()).as("no appender of this name").isNaN();
        assertThat(appended.count()).as("a counter never goes back while its appender is away").isEqualTo(5);
        log(2); // reaches no lock-free appender

        logback.attach(appender);
        await().atMost(Duration.ofSeconds(5)).until(() -> buffers.value() == 2);
        log(3);
        await().atMost(Duration.ofSeconds(5)).until(() -> appended.count() == 8);
        assertThat(started.value()).isEqualTo(1);
    }

    @Test
    void metersShouldReadAnotherAppenderOfTheSameNameThatReplacesTheFirst() {
        LockFreeFileAppender first = logback.attach("FILE", dir.resolve("first.log"));
        new LockFreeLogMetrics(new LockFreeLogAppenders(logback.context())).bindTo(registry);
        FunctionCounter appended = registry.get("lockfreelog.events.appended").tag("appender", "FILE").functionCounter();
        log(4);
        await().atMost(Duration.ofSeconds(5)).until(() -> appended.count() == 4);

        logback.detach(first);
        first.stop();
        LockFreeFileAppender second = logback.attach("FILE", dir.resolve("second.log"));
        log(1);
        await().atMost(Duration.ofSeconds(5)).until(() -> appended.count() == 1);
        assertThat(second.getStatistics().appended()).isEqualTo(1);
        assertThat(registry.get("lockfreelog.started").tag("appender", "FILE").gauge().value()).isEqualTo(1);
    }

    @Test
    void metersShouldNotKeepADetachedAndStoppedAppenderReachable() {
        WeakReference<LockFreeFileAppender> gone = attachReadDetachAndStop();
        FunctionCounter appended = registry.get("lockfreelog.events.appended").tag("appender", "GONE").functionCounter();
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            System.gc();
            return gone.get() == null;
        });
        assertThat(appended.count()).as("the meters outlive the appender").isEqualTo(3);
        assertThat(registry.get("lockfreelog.buffers").tag("appender", "GONE").gauge().value()).isNaN();
    }

    /** In a method of its own so that no local variable of the test keeps the appender reachable. */
    private WeakReference<LockFreeFileAppender> attachReadDetachAndStop() {
        LockFreeFileAppender appender = logback.attach("GONE", dir.resolve("gone.log"));
        new LockFreeLogMetrics(new LockFreeLogAppenders(logback.context())).bindTo(registry);
        log(3);
        FunctionCounter appended = registry.get("lockfreelog.events.appended").tag("appender", "GONE").functionCounter();
        await().atMost(Duration.ofSeconds(5)).until(() -> appended.count() == 3);
        logback.detach(appender);
        log(1); // Logback's logger keeps a copy of its appender array until it next logs
        logback.forget(appender);
        appender.stop();
        logback.context().getStatusManager().clear(); // each status message names the appender as its origin
        return new WeakReference<>(appender);
    }

    @Test
    void metersOfTheStartersAppenderShouldBeBoundWhenItRunsEvenIfNotAttachedYet() {
        LockFreeLogAppenders appenders = new LockFreeLogAppenders(logback.context(), () -> null);
        new LockFreeLogMetrics(appenders).bindTo(registry);
        String name = LockFreeLogAppenders.STARTER_APPENDER_NAME;
        assertThat(name).isEqualTo("LOCKFREE_FILE");
        Gauge buffers = registry.get("lockfreelog.buffers").tag("appender", name).gauge();
        FunctionCounter appended = registry.get("lockfreelog.events.appended").tag("appender", name).functionCounter();
        assertThat(buffers.value()).isNaN();
        assertThat(appended.count()).isZero();

        logback.attach(name, dir.resolve("app.log"));
        log(2);
        await().atMost(Duration.ofSeconds(5)).until(() -> appended.count() == 2);
        assertThat(buffers.value()).isEqualTo(2);
    }

    @Test
    void noMetersShouldBeBoundForTheStartersAppenderWhenTheStarterRunsNone() {
        new LockFreeLogMetrics(new LockFreeLogAppenders(logback.context(), () -> "no log file")).bindTo(registry);
        assertThat(registry.find("lockfreelog.events.appended").meters()).isEmpty();
        assertThat(registry.find("lockfreelog.buffers").meters()).isEmpty();
    }

    @Test
    void metersOfOnePublicationShouldShareOneStatisticsSnapshot() {
        LockFreeFileAppender appender = logback.attach("FIRST", dir.resolve("a.log"));
        LockFreeLogMetrics.Snapshot<AppenderStatistics> snapshot = new LockFreeLogMetrics.Snapshot<>(appender::getStatistics);
        long start = System.nanoTime();
        AppenderStatistics first = snapshot.get();
        logback.logger().info("between two reads");
        AppenderStatistics second = snapshot.get();
        if (System.nanoTime() - start < LockFreeLogMetrics.SNAPSHOT_MAX_AGE_NANOS) {
            // (Only a pause of the test thread longer than the snapshot's age could make this not apply.)
            assertThat(second).isSameAs(first);
        }
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(snapshot.get()).isNotSameAs(first));
        assertThat(snapshot.get().appended()).isGreaterThan(first.appended());
    }

    private void log(int events) {
        for (int i = 0; i < events; i++) {
            logback.logger().info("metered event {}", i);
        }
    }
}
