package io.github.lockfreelog.benchmarks.kafka;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.status.Status;
import com.github.danielwegener.logback.kafka.KafkaAppender;
import com.github.danielwegener.logback.kafka.delivery.AsynchronousDeliveryStrategy;
import com.github.danielwegener.logback.kafka.delivery.BlockingDeliveryStrategy;
import com.github.danielwegener.logback.kafka.keying.NoKeyKeyingStrategy;
import io.github.lockfreelog.benchmarks.peers.Sink;
import io.github.lockfreelog.benchmarks.peers.Workload;
import io.github.lockfreelog.diagnostics.AppenderStatistics;
import io.github.lockfreelog.kafka.KafkaCounters;
import io.github.lockfreelog.kafka.LockFreeKafkaAppender;
import io.github.lockfreelog.logback.LockFreeAppenderBase;
import io.github.lockfreelog.logback.LockFreeFileAppender;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.config.Configurator;
import org.apache.logging.log4j.core.config.builder.api.AppenderComponentBuilder;
import org.apache.logging.log4j.core.config.builder.api.ConfigurationBuilder;
import org.apache.logging.log4j.core.config.builder.api.ConfigurationBuilderFactory;
import org.apache.logging.log4j.core.config.builder.impl.BuiltConfiguration;
import org.slf4j.LoggerFactory;

/**
 * Configures one peer of the kafka mode in this JVM ({@link KafkaFork}), programmatically, as a user's
 * configuration file would: the appender, the workload's pattern, {@code bootstrap.servers} and the run's
 * {@code --producer-property} settings, nothing else. The Kafka client's own logging goes to standard error at
 * WARN in every fork, through Logback (kafka-clients logs through SLF4J, which Logback serves here, Log4j2's forks
 * included), never to the peer: logback-kafka-appender would otherwise send the client's start-up INFO lines to
 * the topic, and every record in the topic is counted as a delivered call.
 */
final class KafkaSinks {

    /** Where each topic's records go and with which producer settings beyond {@code bootstrap.servers}. */
    record Target(String bootstrap, String topic, Map<String, String> producerProperties) {

        Map<String, Object> producerConfig() {
            Map<String, Object> config = new LinkedHashMap<>();
            config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
            config.putAll(producerProperties);
            return config;
        }
    }

    private KafkaSinks() {
    }

    /** Opens {@code peer} writing to {@code target} (the file reference: a file in {@code directory}). */
    static Sink open(KafkaPeer peer, Target target, Path directory) {
        return switch (peer.framework()) {
            case LOGBACK -> logback(peer, target, directory);
            case LOG4J2 -> log4j2(peer, target);
        };
    }

    private static Sink logback(KafkaPeer peer, Target target, Path directory) {
        LoggerContext context = resetLogback(Level.INFO);
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(context);
        encoder.setPattern(Workload.LOGBACK_PATTERN);
        encoder.setCharset(StandardCharsets.UTF_8);
        encoder.start();
        Path file = null;
        Appender<ILoggingEvent> appender;
        switch (peer) {
            case LOCKFREELOG_KAFKA -> {
                LockFreeKafkaAppender kafka = new LockFreeKafkaAppender();
                kafka.setContext(context);
                kafka.setName("kafka");
                kafka.setTopic(target.topic());
                kafka.setProducerProperties(target.producerConfig());
                kafka.setJournal(directory.resolve("kafka.journal").toString());
                kafka.setEncoder(encoder);
                appender = kafka;
            }
            case LOGBACK_KAFKA_ASYNC, LOGBACK_KAFKA_BLOCKING -> {
                KafkaAppender<ILoggingEvent> kafka = new KafkaAppender<>();
                kafka.setContext(context);
                kafka.setName("kafka");
                kafka.setTopic(target.topic());
                target.producerConfig().forEach(kafka::addProducerConfigValue);
                kafka.setKeyingStrategy(new NoKeyKeyingStrategy());
                kafka.setDeliveryStrategy(peer == KafkaPeer.LOGBACK_KAFKA_ASYNC ? new AsynchronousDeliveryStrategy()
                        : new BlockingDeliveryStrategy());
                kafka.setEncoder(encoder);
                appender = kafka;
            }
            case LOCKFREELOG_FILE -> {
                file = directory.resolve("file.log");
                LockFreeFileAppender lockFree = new LockFreeFileAppender();
                lockFree.setContext(context);
                lockFree.setName("file");
                lockFree.setFile(file.toString());
                lockFree.setJournal(directory.resolve("file.journal").toString());
                lockFree.setEncoder(encoder);
                appender = lockFree;
            }
            default -> throw new IllegalArgumentException("not a Logback peer: " + peer.id());
        }
        appender.start();
        if (!appender.isStarted()) {
            throw new IllegalStateException("appender " + peer.id() + " did not start: " + warnings(context));
        }
        context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).addAppender(appender);
        return new LogbackKafkaSink(context, appender, file);
    }

    /**
     * Resets SLF4J's Logback context: the root at {@code rootLevel} with no appender, and {@code org.apache.kafka}
     * at WARN, not additive, to standard error.
     */
    static LoggerContext resetLogback(Level rootLevel) {
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        context.reset();
        context.getStatusManager().clear(); // a trial's warnings are its own, not those of the trial before it
        if (!context.isStarted()) {
            context.start();
        }
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(context);
        encoder.setPattern("%d{HH:mm:ss.SSS} %5p [%t] %logger{36} - %m%n");
        encoder.start();
        ConsoleAppender<ILoggingEvent> stderr = new ConsoleAppender<>();
        stderr.setContext(context);
        stderr.setName("stderr");
        stderr.setTarget("System.err");
        stderr.setEncoder(encoder);
        stderr.start();
        ch.qos.logback.classic.Logger kafka = context.getLogger("org.apache.kafka");
        kafka.setLevel(Level.WARN);
        kafka.setAdditive(false);
        kafka.addAppender(stderr);
        context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).setLevel(rootLevel);
        if (rootLevel.isGreaterOrEqual(Level.WARN)) {
            context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).addAppender(stderr);
        }
        return context;
    }

    private static Sink log4j2(KafkaPeer peer, Target target) {
        resetLogback(Level.WARN); // the Kafka client's own logging, through SLF4J
        System.setProperty("log4j2.shutdownHookEnabled", "false"); // the fork stops it, then the topic is counted
        System.setProperty("log4j2.statusLoggerLevel", "WARN");
        ConfigurationBuilder<BuiltConfiguration> builder = ConfigurationBuilderFactory.newConfigurationBuilder();
        builder.setConfigurationName("lockfreelog-benchmark-" + peer.id());
        builder.setStatusLevel(org.apache.logging.log4j.Level.WARN);
        AppenderComponentBuilder appender = builder.newAppender("kafka", "Kafka")
                .addAttribute("topic", target.topic())
                .addAttribute("syncSend", peer == KafkaPeer.LOG4J2_KAFKA_SYNC)
                .add(builder.newLayout("PatternLayout")
                        .addAttribute("pattern", Workload.LOG4J2_PATTERN)
                        .addAttribute("charset", "UTF-8"));
        target.producerConfig().forEach((name, value) -> appender.addComponent(builder.newProperty(name, String.valueOf(value))));
        builder.add(appender);
        builder.add(builder.newRootLogger(org.apache.logging.log4j.Level.INFO).add(builder.newAppenderRef("kafka")));
        org.apache.logging.log4j.core.LoggerContext context = Configurator.initialize(builder.build(false));
        org.apache.logging.log4j.Logger logger = LogManager.getLogger(Workload.LOGGER_NAME);
        if (!(logger instanceof org.apache.logging.log4j.core.Logger core) || core.getContext() != context) {
            throw new IllegalStateException("LogManager did not return a logger of the configured context: " + logger);
        }
        if (context.getConfiguration().getAppender("kafka") == null) {
            throw new IllegalStateException("Log4j2's Kafka appender was not created (see the status output above)");
        }
        return new Log4jKafkaSink(context, logger);
    }

    /** Warnings and errors in a Logback context's status: how many, and each (the first 5). */
    static String warnings(LoggerContext context) {
        List<String> messages = new ArrayList<>();
        for (Status status : context.getStatusManager().getCopyOfStatusList()) {
            if (status.getLevel() >= Status.WARN) {
                messages.add(status.getMessage() + (status.getThrowable() == null ? "" : ": " + status.getThrowable()));
            }
        }
        return messages.isEmpty() ? "" : messages.size() + " status warnings: "
                + String.join(" | ", messages.subList(0, Math.min(5, messages.size())));
    }

    /** A Logback peer: logged to through SLF4J; stopping the context stops (and flushes) its appender. */
    private static final class LogbackKafkaSink implements Sink {

        private final LoggerContext context;
        private final Appender<ILoggingEvent> appender;
        private final Path file;
        private final org.slf4j.Logger logger = LoggerFactory.getLogger(Workload.LOGGER_NAME);
        private String statusAtStop = "";

        LogbackKafkaSink(LoggerContext context, Appender<ILoggingEvent> appender, Path file) {
            this.context = context;
            this.appender = appender;
            this.file = file;
        }

        @Override
        public void log(String message) {
            logger.info(message);
        }

        /**
         * lockfreelog-kafka sets its sink up on the drainer after the start (the topics checked, the position topic
         * made, the producer fenced in, the position read): ready once an event was delivered. The other Kafka peers
         * set up at their start or first call, on the caller's thread, which the call before the schedule took.
         */
        @Override
        public void awaitReady(long timeoutNanos) throws InterruptedException {
            if (!(appender instanceof LockFreeKafkaAppender kafka)) {
                return;
            }
            long deadline = System.nanoTime() + timeoutNanos;
            while (kafka.getKafkaCounters().eventsDelivered() < 1 && System.nanoTime() - deadline < 0) {
                Thread.sleep(10);
            }
        }

        @Override
        public void stop() {
            context.stop(); // stops the appender: lockfreelog drains its journal, logback-kafka closes its producer
            statusAtStop = warnings(context);
        }

        @Override
        public Path logFile() {
            return file;
        }

        @Override
        public String details() {
            StringBuilder text = new StringBuilder();
            if (appender instanceof LockFreeAppenderBase lockFree) {
                AppenderStatistics s = lockFree.getStatistics();
                text.append("appended=").append(s.appended()).append(" eventsWritten=").append(s.eventsWritten())
                        .append(" dropped=").append(s.dropped()).append(" waits=").append(s.waits())
                        .append(" waitMaxNanos=").append(s.waitMaxNanos());
            }
            if (appender instanceof LockFreeKafkaAppender kafka) {
                KafkaCounters c = kafka.getKafkaCounters();
                text.append(" transactions=").append(c.transactionsCommitted()).append(" aborted=")
                        .append(c.transactionsAborted()).append(" tooLarge=").append(c.tooLarge());
            }
            if (!statusAtStop.isEmpty()) {
                text.append(text.length() == 0 ? "" : " ").append("status=\"").append(statusAtStop.replace('"', '\''))
                        .append('"');
            }
            return text.toString();
        }
    }

    /** A Log4j2 peer: logged to through the Log4j2 API; shutting the context down closes (and flushes) the producer. */
    private static final class Log4jKafkaSink implements Sink {

        private final org.apache.logging.log4j.core.LoggerContext context;
        private final org.apache.logging.log4j.Logger logger;
        private boolean stoppedInTime = true;

        Log4jKafkaSink(org.apache.logging.log4j.core.LoggerContext context, org.apache.logging.log4j.Logger logger) {
            this.context = context;
            this.logger = logger;
        }

        @Override
        public void log(String message) {
            logger.info(message);
        }

        @Override
        public void stop() {
            stoppedInTime = Configurator.shutdown(context, KafkaFork.STOP_SECONDS, TimeUnit.SECONDS);
        }

        @Override
        public Path logFile() {
            return null;
        }

        @Override
        public String details() {
            return stoppedInTime ? "" : "stop=\"Log4j2 did not stop within " + KafkaFork.STOP_SECONDS + " s\"";
        }
    }
}
