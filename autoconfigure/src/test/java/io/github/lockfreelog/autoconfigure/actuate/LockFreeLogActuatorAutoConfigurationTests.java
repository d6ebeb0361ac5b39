package io.github.lockfreelog.autoconfigure.actuate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.lockfreelog.autoconfigure.LockFreeLogEndpointAutoConfiguration;
import io.github.lockfreelog.autoconfigure.LockFreeLogHealthAutoConfiguration;
import io.github.lockfreelog.autoconfigure.LockFreeLogMetricsAutoConfiguration;
import io.github.lockfreelog.autoconfigure.actuate.LockFreeLogEndpoint.AppenderDescriptor;
import io.github.lockfreelog.diagnostics.AppenderStatistics;
import io.github.lockfreelog.diagnostics.ProcStat;
import io.github.lockfreelog.logback.LockFreeFileAppender;
import io.github.lockfreelog.testing.FailingSink;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The endpoint, health and metrics auto-configurations over appenders attached straight to a
 * Logback context ({@link AttachedAppenders}), with a {@link LockFreeLogAppenders} bean built here.
 */
class LockFreeLogActuatorAutoConfigurationTests {

    @TempDir
    Path dir;

    private final AttachedAppenders logback = new AttachedAppenders();

    /** The auto-configurations, with no {@link LockFreeLogAppenders} bean. */
    private final ApplicationContextRunner withoutAppendersBean = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(LockFreeLogEndpointAutoConfiguration.class,
                    LockFreeLogMetricsAutoConfiguration.class, LockFreeLogHealthAutoConfiguration.class,
                    MetricsAutoConfiguration.class))
            .withPropertyValues("management.endpoints.web.exposure.include=lockfreelog");

    private final ApplicationContextRunner runner = withoutAppendersBean
            .withBean(LockFreeLogAppenders.class, () -> new LockFreeLogAppenders(logback.context()));

    @AfterEach
    void detachAndStop() {
        logback.close();
    }

    @Test
    void runWhenEndpointIsExposedShouldListTheAppenderWithMovingCounters() {
        logback.attach("FIRST", dir.resolve("a.log"));
        runner.run(context -> {
            LockFreeLogEndpoint endpoint = context.getBean(LockFreeLogEndpoint.class);
            AppenderStatistics before = endpoint.appender("FIRST").statistics();
            for (int i = 0; i < 25; i++) {
                logback.logger().info("event {}", i);
            }
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> endpoint.appender("FIRST").statistics().eventsWritten() >= before.eventsWritten() + 25);
            AppenderDescriptor descriptor = endpoint.appender("FIRST");
            AppenderStatistics after = descriptor.statistics();
            assertThat(after.appended()).isGreaterThanOrEqualTo(before.appended() + 25);
            assertThat(after.appended()).isEqualTo(after.eventsWritten() + after.dropped() + after.inFlight());
            assertThat(after.bytesWritten()).isGreaterThan(before.bytesWritten());
            assertThat(descriptor.autoConfigured()).as("declared, not the starter's").isFalse();
            assertThat(descriptor.loggers()).containsExactly(AttachedAppenders.LOGGER);
            assertThat(after.started()).isTrue();
            assertThat(after.file()).isEqualTo(dir.resolve("a.log").toString());
            assertThat(after.journal()).as("the journal in use").isNotBlank()
                    .isEqualTo(context.getBean(LockFreeLogAppenders.class).get("FIRST").getStatistics().journal());
            assertThat(after.bufferSize()).isEqualTo(64 * 1024);
            assertThat(after.drops()).containsOnlyKeys("buffer-full", "timeout", "io", "stopped", "encoding", "too-large");
            assertThat(endpoint.appenders().appenders()).extracting(AppenderDescriptor::name).containsExactly("FIRST");
            assertThat(endpoint.appenders().logFile()).isNull();
            assertThat(endpoint.appenders().reason()).isNull();
            assertThat(endpoint.appender("NO_SUCH_APPENDER")).isNull();
        });
    }

    @Test
    void runWithoutAppenderEndpointShouldSayThereIsNoLogFileAndWhy() {
        runner.run(context -> {
            LockFreeLogEndpoint.AppendersDescriptor none = context.getBean(LockFreeLogEndpoint.class).appenders();
            assertThat(none.appenders()).isEmpty();
            assertThat(none.logFile()).isEqualTo("none");
            assertThat(none.reason()).isEqualTo(LockFreeLogAppenders.NO_LOG_FILE);
        });
    }

    @Test
    void runWithoutAppenderEndpointShouldGiveTheStartersReason() {
        String reason = "logback-spring.xml writes /x/app.log with its own appender FILE";
        withoutAppendersBean
                .withBean(LockFreeLogAppenders.class, () -> new LockFreeLogAppenders(logback.context(), () -> reason))
                .run(context -> assertThat(context.getBean(LockFreeLogEndpoint.class).appenders().reason())
                        .isEqualTo(reason));
    }

    @Test
    void runWhenEndpointIsNotExposedShouldNotCreateIt() {
        runner.withPropertyValues("management.endpoints.web.exposure.include=health")
                .run(context -> assertThat(context).doesNotHaveBean(LockFreeLogEndpoint.class));
    }

    @Test
    void runWithoutActuatorShouldBackOffFromEndpointAndHealth() {
        runner.withClassLoader(new FilteredClassLoader(Endpoint.class, HealthIndicator.class)).run(context -> {
            assertThat(context).doesNotHaveBean(LockFreeLogEndpoint.class);
            assertThat(context).doesNotHaveBean(LockFreeLogHealthIndicator.class);
            assertThat(context).hasSingleBean(LockFreeLogAppenders.class);
        });
    }

    @Test
    void runWithoutMicrometerShouldBackOffFromMetrics() {
        runner.withClassLoader(new FilteredClassLoader(MeterRegistry.class, MeterBinder.class))
                .run(context -> {
                    assertThat(context).doesNotHaveBean(LockFreeLogMetrics.class);
                    assertThat(context).hasSingleBean(LockFreeLogAppenders.class);
                });
    }

    @Test
    void runWithoutMeterRegistryShouldNotBindMeters() {
        runner.run(context -> assertThat(context).doesNotHaveBean(LockFreeLogMetrics.class));
    }

    @Test
    void runWithoutAppendersBeanShouldHaveNoEndpointMetricsOrHealth() {
        withoutAppendersBean.withUserConfiguration(RegistryConfiguration.class).run(context -> {
            assertThat(context).doesNotHaveBean(LockFreeLogEndpoint.class);
            assertThat(context).doesNotHaveBean(LockFreeLogMetrics.class);
            assertThat(context).doesNotHaveBean(LockFreeLogHealthIndicator.class);
            assertThat(context.getBean(MeterRegistry.class).find("lockfreelog.events.appended").meters()).isEmpty();
        });
    }

    @Test
    void runWithMeterRegistryShouldPublishTheSameNumbersAsTheEndpoint() {
        logback.attach("FIRST", dir.resolve("a.log"));
        runner.withUserConfiguration(RegistryConfiguration.class).run(context -> {
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            for (int i = 0; i < 40; i++) {
                logback.logger().info("metric event {}", i);
            }
            LockFreeLogEndpoint endpoint = context.getBean(LockFreeLogEndpoint.class);
            String name = "FIRST";
            await().atMost(Duration.ofSeconds(10)).until(() -> endpoint.appender(name).statistics().inFlight() == 0);
            AppenderStatistics stats = endpoint.appender(name).statistics();
            assertThat(registry.get("lockfreelog.events.appended").tag("appender", name).functionCounter().count())
                    .isEqualTo(stats.appended()).isGreaterThanOrEqualTo(40);
            assertThat(registry.get("lockfreelog.events.written").tag("appender", name).functionCounter().count())
                    .isEqualTo(stats.eventsWritten());
            assertThat(registry.get("lockfreelog.written").tag("appender", name).functionCounter().count())
                    .isEqualTo(stats.bytesWritten());
            assertThat(registry.get("lockfreelog.events.dropped").tag("appender", name).functionCounters())
                    .extracting(c -> c.getId().getTag("reason"))
                    .containsExactlyInAnyOrder("buffer-full", "timeout", "io", "stopped", "encoding", "too-large");
            assertThat(registry.get("lockfreelog.events.dropped").tag("reason", "timeout").functionCounter().count()).isZero();
            assertThat(registry.get("lockfreelog.buffer.size").tag("appender", name).gauge().value()).isEqualTo(65536);
            assertThat(registry.get("lockfreelog.buffers").tag("appender", name).gauge().value()).isEqualTo(2);
            assertThat(registry.get("lockfreelog.started").tag("appender", name).gauge().value()).isEqualTo(1);
            assertThat(registry.get("lockfreelog.buffer.waits").tag("appender", name).functionTimer().count()).isZero();
            assertThat(registry.find("lockfreelog.drainer.errors").tag("appender", name).functionCounter()).isNotNull();
        });
    }

    @Test
    void runWithPrometheusShouldScrapeEveryMeterOnceSuffixedAndProcessPageFaultsOnce() {
        logback.attach("FIRST", dir.resolve("first.log"));
        logback.attach("SECOND", dir.resolve("second.log"));
        runner.withUserConfiguration(PrometheusConfiguration.class).run(context -> {
            String scrape = context.getBean(PrometheusMeterRegistry.class).scrape();
            Map<String, List<String>> linesByName = scrape.lines().filter(line -> line.startsWith("lockfreelog_"))
                    .collect(Collectors.groupingBy(line -> line.split("[{ ]", 2)[0], TreeMap::new, Collectors.toList()));
            List<String> perAppender = new ArrayList<>(List.of("lockfreelog_buffer_active_fill_bytes",
                    "lockfreelog_buffer_size_bytes", "lockfreelog_buffer_swaps_total", "lockfreelog_buffer_wait_max_seconds",
                    "lockfreelog_buffer_waits_seconds_count", "lockfreelog_buffer_waits_seconds_sum", "lockfreelog_buffers",
                    "lockfreelog_drain_lag_bytes", "lockfreelog_drainer_errors_total", "lockfreelog_events_appended_total",
                    "lockfreelog_events_dropped_total", "lockfreelog_events_in_flight", "lockfreelog_events_truncated_total",
                    "lockfreelog_events_written_total", "lockfreelog_frames_recovered_total",
                    "lockfreelog_frames_skipped_total", "lockfreelog_started", "lockfreelog_written_bytes_total"));
            List<String> processWide = new ArrayList<>();
            if (ProcStat.processFaults() != null) {
                perAppender.add("lockfreelog_drainer_page_faults_total");
                processWide.add("lockfreelog_process_page_faults_total");
            }
            assertThat(linesByName.keySet()).as(scrape).containsExactlyInAnyOrderElementsOf(
                    Stream.concat(perAppender.stream(), processWide.stream()).toList());
            for (String name : perAppender) {
                assertThat(linesByName.get(name)).as(name).anyMatch(line -> line.contains("appender=\"FIRST\""))
                        .anyMatch(line -> line.contains("appender=\"SECOND\""));
            }
            for (String name : processWide) {
                assertThat(linesByName.get(name)).as(name).hasSize(2).noneMatch(line -> line.contains("appender="));
            }
        });
    }

    @Test
    void runWhenHealthIndicatorIsDisabledShouldNotCreateIt() {
        runner.withPropertyValues("management.health.lockfreelog.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(LockFreeLogHealthIndicator.class));
    }

    @Test
    void healthShouldBeUpWithTheAppenderInItsDetails() {
        logback.attach("FIRST", dir.resolve("a.log"));
        runner.run(context -> {
            Health health = context.getBean("lockfreelogHealthIndicator", HealthIndicator.class).health(true);
            assertThat(health.getStatus()).isEqualTo(Status.UP);
            assertThat(appenderDetails(health, "FIRST")).containsEntry("status", "UP").containsEntry("drainerErrors", 0L)
                    .doesNotContainKey("lastError");
        });
    }

    @Test
    void healthShouldBeDownAtEveryCheckWhileWritesFailAndUpAgainOnceOneSucceeds() {
        AtomicBoolean failing = new AtomicBoolean(true);
        LockFreeFileAppender appender = logback.attach("FAILING", dir.resolve("failing.log"), failing);
        runner.run(context -> {
            HealthIndicator indicator = context.getBean("lockfreelogHealthIndicator", HealthIndicator.class);
            HealthIndicator secondPoller = new LockFreeLogHealthIndicator(context.getBean(LockFreeLogAppenders.class));
            logback.logger().info("cannot be written yet");
            await().atMost(Duration.ofSeconds(10)).until(() -> appender.getStatistics().failingSinceEpochMillis() != 0);
            Instant since = Instant.ofEpochMilli(appender.getStatistics().failingSinceEpochMillis());
            for (HealthIndicator poller : List.of(indicator, indicator, secondPoller, indicator)) {
                Health down = poller.health(true);
                assertThat(down.getStatus()).as("every check while the latest write failed").isEqualTo(Status.DOWN);
                assertThat(appenderDetails(down, "FAILING")).containsEntry("status", "DOWN")
                        .containsEntry("lastError", "IOException: " + FailingSink.MESSAGE)
                        .containsEntry("failingSince", since.toString())
                        .containsKey("reason");
            }

            failing.set(false);
            await().atMost(Duration.ofSeconds(10)).until(() -> appender.getStatistics().failingSinceEpochMillis() == 0);
            for (HealthIndicator poller : List.of(indicator, indicator, secondPoller)) {
                Health up = poller.health(true);
                assertThat(up.getStatus()).as("every check once a write succeeded").isEqualTo(Status.UP);
                assertThat(appenderDetails(up, "FAILING")).containsEntry("status", "UP")
                        .containsEntry("lastError", "IOException: " + FailingSink.MESSAGE).containsKey("warning")
                        .doesNotContainKeys("failingSince", "reason");
                assertThat((Long) appenderDetails(up, "FAILING").get("drainerErrors")).isPositive();
            }
            await("what waited in the journal is written").atMost(Duration.ofSeconds(10))
                    .until(() -> Files.readString(dir.resolve("failing.log")).contains("cannot be written yet"));
        });
    }

    @Test
    void healthShouldBeDownWhileAnAttachedAppenderIsStopped() {
        LockFreeFileAppender appender = logback.attach("FIRST", dir.resolve("a.log"));
        runner.run(context -> {
            appender.stop();
            Health health = context.getBean("lockfreelogHealthIndicator", HealthIndicator.class).health(true);
            assertThat(health.getStatus()).isEqualTo(Status.DOWN);
            assertThat(appenderDetails(health, "FIRST")).containsEntry("status", "DOWN").containsEntry("reason", "not started");
        });
    }

    @Test
    void healthWithoutAppenderShouldBeUnknownWithTheReason() {
        runner.run(context -> {
            Health health = context.getBean("lockfreelogHealthIndicator", HealthIndicator.class).health(true);
            assertThat(health.getStatus()).isEqualTo(Status.UNKNOWN);
            assertThat(health.getDetails()).containsExactly(Map.entry("reason", LockFreeLogAppenders.NO_LOG_FILE));
        });
    }

    @Test
    void healthWithoutAppenderShouldGiveTheStartersReason() {
        String reason = "logback-spring.xml writes /x/app.log with its own appender FILE";
        withoutAppendersBean
                .withBean(LockFreeLogAppenders.class, () -> new LockFreeLogAppenders(logback.context(), () -> reason))
                .run(context -> {
                    Health health = context.getBean("lockfreelogHealthIndicator", HealthIndicator.class).health(true);
                    assertThat(health.getStatus()).isEqualTo(Status.UNKNOWN);
                    assertThat(health.getDetails()).containsEntry("reason", reason);
                });
    }

    @Test
    void userConfigurationShouldReplaceEndpointAndHealthIndicator() {
        runner.withUserConfiguration(UserActuatorConfiguration.class).run(context -> {
            assertThat(context).hasSingleBean(LockFreeLogEndpoint.class);
            assertThat(context.getBean(LockFreeLogEndpoint.class)).isSameAs(context.getBean("userEndpoint"));
            assertThat(context).doesNotHaveBean(LockFreeLogHealthIndicator.class);
            assertThat(context.getBean("lockfreelogHealthIndicator", HealthIndicator.class).health().getStatus())
                    .isEqualTo(Status.OUT_OF_SERVICE);
        });
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> appenderDetails(Health health, String name) {
        Map<String, Object> appenders = (Map<String, Object>) health.getDetails().get("appenders");
        return (Map<String, Object>) appenders.get(name);
    }

    @Configuration(proxyBeanMethods = false)
    static class RegistryConfiguration {

        @Bean
        SimpleMeterRegistry simpleMeterRegistry() {
            return new SimpleMeterRegistry();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class PrometheusConfiguration {

        @Bean
        PrometheusMeterRegistry prometheusMeterRegistry() {
            return new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class UserActuatorConfiguration {

        @Bean
        LockFreeLogEndpoint userEndpoint(LockFreeLogAppenders appenders) {
            return new LockFreeLogEndpoint(appenders);
        }

        @Bean
        HealthIndicator lockfreelogHealthIndicator() {
            return () -> Health.outOfService().build();
        }
    }
}
