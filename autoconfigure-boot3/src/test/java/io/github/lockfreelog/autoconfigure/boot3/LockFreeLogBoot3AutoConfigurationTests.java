package io.github.lockfreelog.autoconfigure.boot3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import io.github.lockfreelog.autoconfigure.LockFreeLogEndpointAutoConfiguration;
import io.github.lockfreelog.autoconfigure.LockFreeLogHealthAutoConfiguration;
import io.github.lockfreelog.autoconfigure.LockFreeLogMetricsAutoConfiguration;
import io.github.lockfreelog.autoconfigure.actuate.LockFreeLogAppenders;
import io.github.lockfreelog.autoconfigure.actuate.LockFreeLogEndpoint;
import io.github.lockfreelog.autoconfigure.actuate.LockFreeLogMetrics;
import io.github.lockfreelog.logback.LockFreeFileAppender;
import io.github.lockfreelog.testing.FailingSink;
import io.github.lockfreelog.testing.TestAppenders;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.actuate.autoconfigure.availability.AvailabilityHealthContributorAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.availability.AvailabilityProbesAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.health.HealthContributorAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.health.HealthEndpointAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.metrics.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.metrics.MetricsAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.metrics.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.actuate.health.CompositeHealth;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthEndpoint;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.actuate.health.Status;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.availability.ApplicationAvailabilityAutoConfiguration;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.LivenessState;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The starter's actuator auto-configurations, built against Spring Boot 4, on Spring Boot 3, in the
 * order Spring Boot 3's own auto-configurations impose. The appender is attached straight to a
 * logger of a Logback context of the test's own, and the {@link LockFreeLogAppenders} bean is built
 * here, apart from the starter's way of attaching its appender.
 */
class LockFreeLogBoot3AutoConfigurationTests {

    private static final String NAME = "BOOT3_FILE";

    @TempDir
    Path dir;

    private final LoggerContext loggerContext = new LoggerContext();

    private final AtomicBoolean failing = new AtomicBoolean();

    private LockFreeFileAppender appender;

    private ApplicationContextRunner runner() {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(LockFreeLogEndpointAutoConfiguration.class,
                        LockFreeLogMetricsAutoConfiguration.class, LockFreeLogHealthAutoConfiguration.class,
                        LockFreeLogBoot3HealthAutoConfiguration.class, HealthContributorAutoConfiguration.class,
                        EndpointAutoConfiguration.class, MetricsAutoConfiguration.class,
                        CompositeMeterRegistryAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class))
                .withBean(LockFreeLogAppenders.class, () -> new LockFreeLogAppenders(loggerContext))
                .withPropertyValues("management.endpoints.web.exposure.include=lockfreelog");
    }

    @BeforeEach
    void attach() {
        loggerContext.start();
        appender = TestAppenders.create(loggerContext, dir.resolve("app.log"), a -> {
            a.setName(NAME);
            a.setBufferCount(2);
            a.setSinkDecorator(sink -> new FailingSink(sink, failing, false));
        });
        appender.start();
        assertThat(appender.isStarted()).isTrue();
        logger().addAppender(appender);
    }

    @AfterEach
    void detachAndStop() {
        logger().detachAppender(appender);
        appender.stop();
        loggerContext.stop();
    }

    private Logger logger() {
        return loggerContext.getLogger("test.boot3");
    }

    @Test
    void runWithActuatorShouldContributeTheSpringBoot3HealthIndicator() {
        runner().run(context -> {
            assertThat(context).hasSingleBean(LockFreeLogBoot3HealthIndicator.class);
            Health health = context.getBean("lockfreelogHealthIndicator", HealthIndicator.class).getHealth(true);
            assertThat(health.getStatus()).isEqualTo(Status.UP);
            assertThat(appenderDetails(health)).containsEntry("status", "UP").containsEntry("drainerErrors", 0L);
        });
    }

    @Test
    void runWhenTheAppenderIsStoppedShouldReportDown() {
        runner().run(context -> {
            appender.stop();
            Health health = context.getBean("lockfreelogHealthIndicator", HealthIndicator.class).getHealth(true);
            assertThat(health.getStatus()).isEqualTo(Status.DOWN);
            assertThat(appenderDetails(health)).containsEntry("status", "DOWN").containsEntry("reason", "not started");
        });
    }

    @Test
    void runWhileTheAppendersWritesFailShouldReportDownAtEveryCheckAndUpOnceOneSucceeds() {
        failing.set(true);
        runner().run(context -> {
            HealthIndicator indicator = context.getBean("lockfreelogHealthIndicator", HealthIndicator.class);
            logger().info("cannot be written yet");
            await().atMost(Duration.ofSeconds(10)).until(() -> appender.getStatistics().failingSinceEpochMillis() != 0);
            String since = Instant.ofEpochMilli(appender.getStatistics().failingSinceEpochMillis()).toString();
            for (int check = 0; check < 3; check++) {
                Health down = indicator.getHealth(true);
                assertThat(down.getStatus()).isEqualTo(Status.DOWN);
                assertThat(appenderDetails(down)).containsEntry("status", "DOWN").containsEntry("failingSince", since)
                        .containsEntry("lastError", "IOException: " + FailingSink.MESSAGE);
            }
            failing.set(false);
            await().atMost(Duration.ofSeconds(10)).until(() -> appender.getStatistics().failingSinceEpochMillis() == 0);
            for (int check = 0; check < 2; check++) {
                Health up = indicator.getHealth(true);
                assertThat(up.getStatus()).isEqualTo(Status.UP);
                assertThat(appenderDetails(up)).containsEntry("status", "UP").containsKey("warning")
                        .containsEntry("lastError", "IOException: " + FailingSink.MESSAGE).doesNotContainKey("failingSince");
            }
        });
    }

    /**
     * Spring Boot 3's probes (on with {@code management.endpoint.health.probes.enabled}, or on Kubernetes) hold its
     * availability states alone: they stay UP while writes fail and the overall health is DOWN; a group that includes
     * {@code lockfreelog} reports it.
     */
    @Test
    void probesShouldStayUpWhileTheAppendersWritesFailAndAGroupIncludingItShouldNot() {
        failing.set(true);
        runner().withConfiguration(AutoConfigurations.of(HealthEndpointAutoConfiguration.class,
                ApplicationAvailabilityAutoConfiguration.class, AvailabilityHealthContributorAutoConfiguration.class,
                AvailabilityProbesAutoConfiguration.class))
                .withPropertyValues("management.endpoint.health.probes.enabled=true",
                        "management.endpoint.health.group.logs.include=lockfreelog",
                        "management.endpoints.web.exposure.include=lockfreelog,health")
                .run(context -> {
                    // What a SpringApplication run publishes once started; a context runner's context publishes none.
                    AvailabilityChangeEvent.publish(context, LivenessState.CORRECT);
                    AvailabilityChangeEvent.publish(context, ReadinessState.ACCEPTING_TRAFFIC);
                    HealthEndpoint endpoint = context.getBean(HealthEndpoint.class);
                    logger().info("cannot be written yet");
                    await().atMost(Duration.ofSeconds(10))
                            .until(() -> appender.getStatistics().failingSinceEpochMillis() != 0);
                    assertThat(endpoint.health().getStatus()).isEqualTo(Status.DOWN);
                    assertThat(endpoint.healthForPath("liveness").getStatus()).isEqualTo(Status.UP);
                    assertThat(((CompositeHealth) endpoint.healthForPath("liveness")).getComponents())
                            .containsOnlyKeys("livenessState");
                    assertThat(endpoint.healthForPath("readiness").getStatus()).isEqualTo(Status.UP);
                    assertThat(((CompositeHealth) endpoint.healthForPath("readiness")).getComponents())
                            .containsOnlyKeys("readinessState");
                    assertThat(endpoint.healthForPath("logs").getStatus()).isEqualTo(Status.DOWN);
                    failing.set(false);
                    await().atMost(Duration.ofSeconds(10))
                            .until(() -> appender.getStatistics().failingSinceEpochMillis() == 0);
                    assertThat(endpoint.healthForPath("logs").getStatus()).isEqualTo(Status.UP);
                });
    }

    @Test
    void runWithoutAppenderShouldReportUnknownWithTheReason() {
        logger().detachAppender(appender);
        runner().run(context -> {
            Health health = context.getBean("lockfreelogHealthIndicator", HealthIndicator.class).getHealth(true);
            assertThat(health.getStatus()).isEqualTo(Status.UNKNOWN);
            assertThat(health.getDetails()).containsExactly(Map.entry("reason", LockFreeLogAppenders.NO_LOG_FILE));
        });
    }

    @Test
    void runWhenHealthIndicatorIsDisabledShouldNotCreateIt() {
        runner().withPropertyValues("management.health.lockfreelog.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean("lockfreelogHealthIndicator"));
    }

    @Test
    void runWithoutSpringBoot3HealthApiShouldBackOff() {
        runner().withClassLoader(new FilteredClassLoader(HealthIndicator.class)).run(context -> {
            assertThat(context).doesNotHaveBean("lockfreelogHealthIndicator");
            assertThat(context).hasSingleBean(LockFreeLogAppenders.class);
        });
    }

    @Test
    void runWithAUserHealthIndicatorShouldBackOff() {
        runner().withUserConfiguration(UserHealthConfiguration.class).run(context -> {
            assertThat(context).doesNotHaveBean(LockFreeLogBoot3HealthIndicator.class);
            assertThat(context.getBean("lockfreelogHealthIndicator", HealthIndicator.class).health().getStatus())
                    .isEqualTo(Status.OUT_OF_SERVICE);
        });
    }

    @Test
    void runWithSpringBoot3MetricsShouldBindTheMetersToItsRegistry() {
        runner().run(context -> {
            assertThat(context).hasSingleBean(LockFreeLogMetrics.class);
            logger().info("counted");
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            assertThat(registry.get("lockfreelog.events.appended")
                    .tag("appender", NAME).functionCounter().count()).isPositive();
        });
    }

    @Test
    void runWhenEndpointIsExposedShouldListTheAppender() {
        runner().run(context -> assertThat(context.getBean(LockFreeLogEndpoint.class)
                .appender(NAME).statistics().started()).isTrue());
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> appenderDetails(Health health) {
        Map<String, Object> appenders = (Map<String, Object>) health.getDetails().get("appenders");
        return (Map<String, Object>) appenders.get(NAME);
    }

    @Configuration(proxyBeanMethods = false)
    static class UserHealthConfiguration {

        @Bean
        HealthIndicator lockfreelogHealthIndicator() {
            return () -> Health.outOfService().build();
        }
    }
}
