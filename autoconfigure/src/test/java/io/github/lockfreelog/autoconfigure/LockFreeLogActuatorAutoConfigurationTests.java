package io.github.lockfreelog.autoconfigure;

import static io.github.lockfreelog.autoconfigure.LogbackTestSupport.loggerContext;
import static io.github.lockfreelog.autoconfigure.LogbackTestSupport.root;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import io.github.lockfreelog.autoconfigure.LockFreeLogEndpoint.AppenderDescriptor;
import io.github.lockfreelog.journal.ForwardingLogSink;
import io.github.lockfreelog.journal.ProcStat;
import io.github.lockfreelog.journal.AppenderStatistics;
import io.github.lockfreelog.logback.LockFreeFileAppender;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
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
import org.slf4j.LoggerFactory;
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

class LockFreeLogActuatorAutoConfigurationTests {

    @TempDir
    Path dir;

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(LockFreeLogAutoConfiguration.class,
                    LockFreeLogEndpointAutoConfiguration.class, LockFreeLogMetricsAutoConfiguration.class,
                    LockFreeLogHealthAutoConfiguration.class, MetricsAutoConfiguration.class))
            .withPropertyValues("lockfreelog.buffer-size=64KB", "lockfreelog.buffer-count=2",
                    "lockfreelog.flush-interval=20ms", "management.endpoints.web.exposure.include=lockfreelog");

    @AfterEach
    void cleanUp() {
        LogbackTestSupport.cleanUp();
    }

    private ApplicationContextRunner withFile() {
        return runner.withPropertyValues("lockfreelog.file=" + dir.resolve("a.log"));
    }

    @Test
    void runWhenEndpointIsExposedShouldListTheAppenderWithMovingCounters() {
        withFile().run(context -> {
            LockFreeLogEndpoint endpoint = context.getBean(LockFreeLogEndpoint.class);
            AppenderDescriptor before = endpoint.appender(LockFreeLogAppenderHolder.APPENDER_NAME);
            for (int i = 0; i < 25; i++) {
                LoggerFactory.getLogger("test.endpoint").info("event {}", i);
            }
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> endpoint.appender(LockFreeLogAppenderHolder.APPENDER_NAME).eventsWritten() >= before.eventsWritten() + 25);
            AppenderDescriptor after = endpoint.appender(LockFreeLogAppenderHolder.APPENDER_NAME);
            assertThat(after.appended()).isGreaterThanOrEqualTo(before.appended() + 25);
            assertThat(after.appended()).isEqualTo(after.eventsWritten() + after.dropped() + after.inFlight());
            assertThat(after.bytesWritten()).isGreaterThan(before.bytesWritten());
            assertThat(after.autoConfigured()).isTrue();
            assertThat(after.loggers()).containsExactly("ROOT");
            assertThat(after.started()).isTrue();
            assertThat(after.bufferSize()).isEqualTo(64 * 1024);
            assertThat(after.drops()).containsOnlyKeys("buffer-full", "timeout", "io", "stopped");
            assertThat(endpoint.appenders().appenders()).extracting(AppenderDescriptor::name)
                    .containsExactly(LockFreeLogAppenderHolder.APPENDER_NAME);
            assertThat(endpoint.appender("NO_SUCH_APPENDER")).isNull();
        });
    }

    @Test
    void runWhenEndpointIsNotExposedShouldNotCreateIt() {
        withFile().withPropertyValues("management.endpoints.web.exposure.include=health")
                .run(context -> assertThat(context).doesNotHaveBean(LockFreeLogEndpoint.class));
    }

    @Test
    void runWithoutActuatorShouldBackOffFromEndpointAndHealth() {
        withFile().withClassLoader(new FilteredClassLoader(Endpoint.class, HealthIndicator.class)).run(context -> {
            assertThat(context).doesNotHaveBean(LockFreeLogEndpoint.class);
            assertThat(context).doesNotHaveBean(LockFreeLogHealthIndicator.class);
            assertThat(context).hasSingleBean(LockFreeLogAttachment.class);
            assertThat(context.getBean(LockFreeLogAttachment.class).getAppender()).isNotNull();
        });
    }

    @Test
    void runWithoutMicrometerShouldBackOffFromMetrics() {
        runner.withConfiguration(AutoConfigurations.of(LockFreeLogAutoConfiguration.class,
                LockFreeLogMetricsAutoConfiguration.class))
                .withClassLoader(new FilteredClassLoader(MeterRegistry.class, MeterBinder.class))
                .withPropertyValues("lockfreelog.file=" + dir.resolve("a.log"))
                .run(context -> {
                    assertThat(context).doesNotHaveBean(LockFreeLogMetrics.class);
                    assertThat(context).hasSingleBean(LockFreeLogAttachment.class);
                });
    }

    @Test
    void runWithoutMeterRegistryShouldNotBindMeters() {
        withFile().run(context -> assertThat(context).doesNotHaveBean(LockFreeLogMetrics.class));
    }

    @Test
    void runWhenEnabledIsFalseShouldHaveNoEndpointMetricsOrHealth() {
        withFile().withUserConfiguration(RegistryConfiguration.class).withPropertyValues("lockfreelog.enabled=false")
                .run(context -> {
                    assertThat(context).doesNotHaveBean(LockFreeLogEndpoint.class);
                    assertThat(context).doesNotHaveBean(LockFreeLogMetrics.class);
                    assertThat(context).doesNotHaveBean(LockFreeLogHealthIndicator.class);
                    assertThat(context.getBean(MeterRegistry.class).find("lockfreelog.events.appended").meters()).isEmpty();
                });
    }

    @Test
    void runWithMeterRegistryShouldPublishTheSameNumbersAsTheEndpoint() {
        withFile().withUserConfiguration(RegistryConfiguration.class).run(context -> {
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            for (int i = 0; i < 40; i++) {
                LoggerFactory.getLogger("test.metrics").info("metric event {}", i);
            }
            LockFreeLogEndpoint endpoint = context.getBean(LockFreeLogEndpoint.class);
            String name = LockFreeLogAppenderHolder.APPENDER_NAME;
            await().atMost(Duration.ofSeconds(10)).until(() -> endpoint.appender(name).inFlight() == 0);
            AppenderDescriptor stats = endpoint.appender(name);
            assertThat(registry.get("lockfreelog.events.appended").tag("appender", name).functionCounter().count())
                    .isEqualTo(stats.appended()).isGreaterThanOrEqualTo(40);
            assertThat(registry.get("lockfreelog.events.written").tag("appender", name).functionCounter().count())
                    .isEqualTo(stats.eventsWritten());
            assertThat(registry.get("lockfreelog.written").tag("appender", name).functionCounter().count())
                    .isEqualTo(stats.bytesWritten());
            assertThat(registry.get("lockfreelog.events.dropped").tag("appender", name).functionCounters())
                    .extracting(c -> c.getId().getTag("reason"))
                    .containsExactlyInAnyOrder("buffer-full", "timeout", "io", "stopped");
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
        declaredAppender("SECOND", dir.resolve("second.log"), new AtomicBoolean(false));
        withFile().withUserConfiguration(PrometheusConfiguration.class).run(context -> {
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
                assertThat(linesByName.get(name)).as(name).anyMatch(line -> line.contains("appender=\"LOCKFREE_FILE\""))
                        .anyMatch(line -> line.contains("appender=\"SECOND\""));
            }
            for (String name : processWide) {
                assertThat(linesByName.get(name)).as(name).hasSize(2).noneMatch(line -> line.contains("appender="));
            }
        });
    }

    @Test
    void metersOfOnePublicationShouldShareOneStatisticsSnapshot() {
        withFile().run(context -> {
            LockFreeFileAppender appender = context.getBean(LockFreeLogAttachment.class).getAppender();
            LockFreeLogMetrics.Snapshot<AppenderStatistics> snapshot = new LockFreeLogMetrics.Snapshot<>(appender::getStatistics);
            long start = System.nanoTime();
            AppenderStatistics first = snapshot.get();
            LoggerFactory.getLogger("test.snapshot").info("between two reads");
            AppenderStatistics second = snapshot.get();
            if (System.nanoTime() - start < LockFreeLogMetrics.SNAPSHOT_MAX_AGE_NANOS) {
                // (Only a pause of the test thread longer than the snapshot's age could make this not apply.)
                assertThat(second).isSameAs(first);
            }
            await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(snapshot.get()).isNotSameAs(first));
            assertThat(snapshot.get().appended()).isGreaterThan(first.appended());
        });
    }

    @Test
    void runWhenHealthIndicatorIsDisabledShouldNotCreateIt() {
        withFile().withPropertyValues("management.health.lockfreelog.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(LockFreeLogHealthIndicator.class));
    }

    @Test
    void healthShouldBeUpWithTheAppenderInItsDetails() {
        withFile().run(context -> {
            Health health = context.getBean("lockfreelogHealthIndicator", HealthIndicator.class).health(true);
            assertThat(health.getStatus()).isEqualTo(Status.UP);
            @SuppressWarnings("unchecked")
            Map<String, Map<String, Object>> appenders = (Map<String, Map<String, Object>>) health.getDetails().get("appenders");
            assertThat(appenders.get(LockFreeLogAppenderHolder.APPENDER_NAME)).containsEntry("status", "UP")
                    .containsEntry("drainerErrors", 0L).doesNotContainKey("lastError");
        });
    }

    @Test
    void healthShouldBeDownWhileTheDrainerFailsAndUpAgainWithAWarningAfterwards() {
        AtomicBoolean failing = new AtomicBoolean(true);
        LockFreeFileAppender failingAppender = declaredAppender("FAILING", dir.resolve("failing.log"), failing);
        runner.run(context -> {
            HealthIndicator indicator = context.getBean("lockfreelogHealthIndicator", HealthIndicator.class);
            LoggerFactory.getLogger("test.health").info("cannot be written yet");
            await().atMost(Duration.ofSeconds(10)).until(() -> failingAppender.getStatistics().drainerErrors() > 0);
            Health down = indicator.health(true);
            assertThat(down.getStatus()).isEqualTo(Status.DOWN);
            assertThat(down.getDetails().toString()).contains("FAILING").contains("disk full (test)")
                    .contains("new drainer error(s)");

            failing.set(false);
            await().atMost(Duration.ofSeconds(10)).until(() -> indicator.health(true).getStatus().equals(Status.UP));
            Health up = indicator.health(true);
            assertThat(up.getDetails().toString()).contains("warning").contains("disk full (test)");
            LogbackTestSupport.awaitContent(dir.resolve("failing.log"), "cannot be written yet");
        });
    }

    @Test
    void userConfigurationShouldReplaceEndpointAndHealthIndicator() {
        withFile().withUserConfiguration(UserActuatorConfiguration.class).run(context -> {
            assertThat(context).hasSingleBean(LockFreeLogEndpoint.class);
            assertThat(context.getBean(LockFreeLogEndpoint.class)).isSameAs(context.getBean("userEndpoint"));
            assertThat(context).doesNotHaveBean(LockFreeLogHealthIndicator.class);
            assertThat(context.getBean("lockfreelogHealthIndicator", HealthIndicator.class).health().getStatus())
                    .isEqualTo(Status.OUT_OF_SERVICE);
        });
    }

    /** An appender as a logback-spring.xml would declare it, whose log file writes fail while {@code failing} is set. */
    private static LockFreeFileAppender declaredAppender(String name, Path file, AtomicBoolean failing) {
        LockFreeFileAppender appender = new LockFreeFileAppender();
        appender.setContext(loggerContext());
        appender.setName(name);
        appender.setFile(file.toString());
        appender.setBufferSize(ch.qos.logback.core.util.FileSize.valueOf("64KB"));
        appender.setFlushInterval(ch.qos.logback.core.util.Duration.buildByMilliseconds(20));
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(loggerContext());
        encoder.setPattern("%msg%n");
        encoder.start();
        appender.setEncoder(encoder);
        appender.setSinkDecorator(sink -> new ForwardingLogSink(sink) {
            @Override
            public int write(ByteBuffer src) throws IOException {
                if (failing.get()) {
                    throw new IOException("disk full (test)");
                }
                return super.write(src);
            }
        });
        appender.start();
        assertThat(appender.isStarted()).isTrue();
        root().addAppender(appender);
        return appender;
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
