package io.github.lockfreelog.autoconfigure.boot3;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.lockfreelog.autoconfigure.LockFreeLogAutoConfiguration;
import io.github.lockfreelog.autoconfigure.LockFreeLogEndpoint;
import io.github.lockfreelog.autoconfigure.LockFreeLogEndpointAutoConfiguration;
import io.github.lockfreelog.autoconfigure.LockFreeLogHealthAutoConfiguration;
import io.github.lockfreelog.autoconfigure.LockFreeLogMetrics;
import io.github.lockfreelog.autoconfigure.LockFreeLogMetricsAutoConfiguration;
import io.github.lockfreelog.logback.LockFreeFileAppender;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import org.junit.jupiter.api.BeforeEach;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;
import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.health.HealthContributorAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.metrics.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.metrics.MetricsAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.metrics.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.actuate.health.Status;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The starter's auto-configurations, built against Spring Boot 4, on Spring Boot 3, in the order
 * Spring Boot 3's own auto-configurations impose.
 */
class LockFreeLogBoot3AutoConfigurationTests {

    @TempDir
    Path dir;

    private ApplicationContextRunner runner() {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(LockFreeLogAutoConfiguration.class,
                        LockFreeLogEndpointAutoConfiguration.class, LockFreeLogMetricsAutoConfiguration.class,
                        LockFreeLogHealthAutoConfiguration.class, LockFreeLogBoot3HealthAutoConfiguration.class,
                        HealthContributorAutoConfiguration.class, EndpointAutoConfiguration.class,
                        MetricsAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class,
                        SimpleMetricsExportAutoConfiguration.class))
                .withPropertyValues("lockfreelog.file=" + dir.resolve("app.log"), "lockfreelog.buffer-size=64KB",
                        "lockfreelog.buffer-count=2", "management.endpoints.web.exposure.include=lockfreelog");
    }

    private static final String NAME = "LOCKFREE_FILE";

    private LockFreeFileAppender appender;

    /** The appender the starter would attach while Spring Boot initialises logging, attached by hand. */
    @BeforeEach
    void attach() {
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(context);
        encoder.setPattern("%m%n");
        encoder.start();
        appender = new LockFreeFileAppender();
        appender.setContext(context);
        appender.setName(NAME);
        appender.setFile(dir.resolve("app.log").toString());
        appender.setEncoder(encoder);
        appender.setBufferSize(ch.qos.logback.core.util.FileSize.valueOf("64KB"));
        appender.setBufferCount(2);
        appender.start();
        context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).addAppender(appender);
    }

    @AfterEach
    void detach() {
        ((LoggerContext) LoggerFactory.getILoggerFactory()).getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).detachAppender(appender);
        appender.stop();
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
    void runWhenHealthIndicatorIsDisabledShouldNotCreateIt() {
        runner().withPropertyValues("management.health.lockfreelog.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean("lockfreelogHealthIndicator"));
    }

    @Test
    void runWithoutSpringBoot3HealthApiShouldBackOff() {
        runner().withClassLoader(new FilteredClassLoader(HealthIndicator.class)).run(context -> {
            assertThat(context).doesNotHaveBean("lockfreelogHealthIndicator");
            assertThat(context).hasSingleBean(io.github.lockfreelog.autoconfigure.LockFreeLogAppenders.class);
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
            LoggerFactory.getLogger("test.boot3").info("counted");
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            assertThat(registry.get("lockfreelog.events.appended")
                    .tag("appender", NAME).functionCounter().count()).isPositive();
        });
    }

    @Test
    void runWhenEndpointIsExposedShouldListTheAppender() {
        runner().run(context -> assertThat(context.getBean(LockFreeLogEndpoint.class)
                .appender(NAME).started()).isTrue());
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
