package io.github.lockfreelog.benchmarks.kafka;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.status.Status;
import ch.qos.logback.core.util.Duration;
import io.github.lockfreelog.testsupport.AckFile;
import com.github.danielwegener.logback.kafka.KafkaAppender;
import com.github.danielwegener.logback.kafka.delivery.AsynchronousDeliveryStrategy;
import com.github.danielwegener.logback.kafka.delivery.BlockingDeliveryStrategy;
import com.github.danielwegener.logback.kafka.keying.NoKeyKeyingStrategy;
import io.github.lockfreelog.kafka.LockFreeKafkaAppender;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import org.apache.logging.log4j.core.appender.mom.kafka.KafkaAppender.Builder;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.Configurator;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.config.Property;
import org.apache.logging.log4j.core.config.builder.api.ConfigurationBuilder;
import org.apache.logging.log4j.core.config.builder.api.ConfigurationBuilderFactory;
import org.apache.logging.log4j.core.config.builder.impl.BuiltConfiguration;
import org.apache.logging.log4j.core.layout.PatternLayout;

/**
 * The process the kafka-kill mode kills with SIGKILL: one peer's Kafka appender, {@value #THREADS} threads that log
 * numbered events ({@link #event}) as fast as the appender takes them, each storing the number of the event whose
 * logging call returned in its slot of a memory-mapped ack file (a volatile store into the page cache, which outlives
 * the process), so the parent knows after the kill which events were acknowledged. A thread logs event {@code n + 1}
 * only after it acknowledged {@code n}. {@code READY} is printed once every thread acknowledged its first event.
 *
 * <p>Arguments: peer, bootstrap servers, topic, journal (the lockfreelog peer's; {@code -} for the others), ack file,
 * mode: {@code log}, or {@code recover} (the lockfreelog peer only: start on the journal, as an application's restart
 * would, log {@link #MARKER}, stop once all is delivered, print {@code STOPPED} and the appender's counters).
 */
public final class KafkaKillChild {

    static final int THREADS = 4;
    /** No thread logs more than this many events (a child that is never killed still ends). */
    static final int MAX_EVENTS = 20_000_000;
    public static final String MARKER = "restart marker";

    /** The peers, as {@code --peers} names them. */
    static final List<String> PEERS = List.of("lockfreelog-kafka", "logback-kafka-async", "logback-kafka-blocking",
            "log4j2-kafka-sync", "log4j2-kafka-async");

    private KafkaKillChild() {
    }

    /** Event {@code number} of thread {@code thread}: {@code t<thread> e<number> } and 0 to 39 x's. */
    static String event(int thread, long number) {
        return "t" + thread + " e" + number + " " + "x".repeat((int) (number % 40));
    }

    public static void main(String[] args) throws Exception {
        String peer = args[0];
        String bootstrap = args[1];
        String topic = args[2];
        String journal = args[3];
        Path ackFile = Path.of(args[4]);
        String mode = args[5];
        // the Kafka client's own logging (SLF4J, into Logback's default context): warnings only
        ((LoggerContext) org.slf4j.LoggerFactory.getILoggerFactory()).getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME)
                .setLevel(Level.WARN);
        Consumer<String> log = switch (peer) {
            case "lockfreelog-kafka" -> lockfreelog(bootstrap, topic, journal, mode.equals("recover"));
            case "logback-kafka-async" -> logbackKafka(bootstrap, topic, new AsynchronousDeliveryStrategy());
            case "logback-kafka-blocking" -> logbackKafka(bootstrap, topic, new BlockingDeliveryStrategy());
            case "log4j2-kafka-sync" -> log4j2Kafka(bootstrap, topic, true);
            case "log4j2-kafka-async" -> log4j2Kafka(bootstrap, topic, false);
            default -> throw new IllegalArgumentException("unknown peer " + peer + "; peers: " + PEERS);
        };
        if (mode.equals("recover")) {
            return; // lockfreelog(...) did it all
        }
        logUntilKilled(log, ackFile);
    }

    /**
     * Logs numbered events ({@link #event}) from {@value #THREADS} threads through {@code log} as fast as it takes them,
     * each thread storing the number of the event whose call returned in its slot of the ack file; prints
     * {@code READY} once every thread acknowledged its first event, and waits to be killed. The kill tests of the Kafka
     * and OTLP peers share it.
     */
    public static void logUntilKilled(Consumer<String> log, Path ackFile) throws java.io.IOException, InterruptedException {
        AckFile acks = AckFile.create(ackFile, THREADS); // every slot reads "none" from the mapping on
        for (int t = 0; t < THREADS; t++) {
            int thread = t;
            Thread caller = new Thread(() -> {
                for (long n = 0; n < MAX_EVENTS; n++) {
                    log.accept(event(thread, n));
                    acks.acknowledge(thread, n);
                }
            }, "kill-caller-" + t);
            caller.setDaemon(true);
            caller.start();
        }
        // READY once each thread's first call returned: a producer made on first use (the peers') is up by then, so
        // the kill comes while events flow, not while the client connects
        for (int t = 0; t < THREADS; t++) {
            while (acks.acknowledged(t) < 0) {
                Thread.sleep(1);
            }
        }
        System.out.println("READY");
        System.out.flush();
        Thread.sleep(600_000); // the parent kills us long before this
        System.out.println("NOT KILLED");
        System.exit(3);
    }

    /** The acknowledged number of each thread in an ack file ({@code -1}: none); all {@code -1} when there is none. */
    static long[] readAcks(Path ackFile) throws java.io.IOException {
        return AckFile.read(ackFile, THREADS);
    }

    private static LoggerContext logbackContext() {
        LoggerContext context = new LoggerContext();
        context.setName("kafka-kill");
        context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).setLevel(Level.WARN);
        return context;
    }

    private static PatternLayoutEncoder messageOnly(LoggerContext context) {
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(context);
        encoder.setPattern("%msg");
        encoder.start();
        return encoder;
    }

    /**
     * Ends the child with {@code FAILED} and the context's statuses (which the runner reports) when {@code appender}
     * did not start: a kill test of an appender that logs nowhere would count every event as missing.
     */
    public static void requireStarted(LoggerContext context, Appender<ILoggingEvent> appender) {
        if (!appender.isStarted()) {
            StringBuilder statuses = new StringBuilder();
            for (Status status : context.getStatusManager().getCopyOfStatusList()) {
                statuses.append(status).append(" | ");
            }
            System.out.println("FAILED " + statuses);
            System.exit(2);
        }
    }

    private static Consumer<String> logbackLogger(LoggerContext context, Appender<ILoggingEvent> appender) {
        requireStarted(context, appender);
        ch.qos.logback.classic.Logger logger = context.getLogger("kill");
        logger.setAdditive(false);
        logger.setLevel(Level.INFO);
        logger.addAppender(appender);
        return logger::info;
    }

    /**
     * The Kafka sink as an application would have it, but on the given journal with a transactional id prefix per
     * topic (a restart fences the process it replaces), a long {@code maxBlockTime} (a caller waits for room rather
     * than drop: a drop would count as a missing event) and a long {@code stopTimeout} (the restart's stop waits for
     * the backlog). Other settings are the defaults (8 MB x 3 buffers).
     */
    private static Consumer<String> lockfreelog(String bootstrap, String topic, String journal, boolean recover) {
        LoggerContext context = logbackContext();
        LockFreeKafkaAppender appender = new LockFreeKafkaAppender();
        appender.setContext(context);
        appender.setName("KAFKA");
        appender.setTopic(topic);
        appender.setJournal(journal);
        appender.addProducerConfig("bootstrap.servers=" + bootstrap);
        appender.setTransactionalIdPrefix("kill-" + topic);
        appender.setMaxBlockTime(Duration.valueOf("120 seconds"));
        appender.setStopTimeout(Duration.valueOf("300 seconds"));
        appender.setEncoder(messageOnly(context));
        long started = System.nanoTime();
        appender.start();
        Consumer<String> log = logbackLogger(context, appender);
        if (recover) {
            System.out.println("RESTARTED start took " + (System.nanoTime() - started) / 1_000_000 + " ms");
            log.accept(MARKER);
            appender.stop();
            var statistics = appender.getStatistics();
            System.out.println("STOPPED dropped " + statistics.dropped() + ", recovered " + statistics.recoveredFrames()
                    + ", skipped " + statistics.skippedFrames() + " (unfinished frames)");
            System.out.flush();
        }
        return log;
    }

    /** logback-kafka-appender with its defaults, no key, and the given delivery strategy. */
    private static Consumer<String> logbackKafka(String bootstrap, String topic, Object strategy) {
        LoggerContext context = logbackContext();
        KafkaAppender<ILoggingEvent> appender = new KafkaAppender<>();
        appender.setContext(context);
        appender.setName("KAFKA");
        appender.setTopic(topic);
        appender.addProducerConfig("bootstrap.servers=" + bootstrap);
        appender.setKeyingStrategy(new NoKeyKeyingStrategy());
        appender.setDeliveryStrategy((com.github.danielwegener.logback.kafka.delivery.DeliveryStrategy) strategy);
        appender.setEncoder(messageOnly(context));
        appender.start();
        return logbackLogger(context, appender);
    }

    /** Log4j2's KafkaAppender with its defaults and {@code syncSend} as given, from a programmatic configuration. */
    private static Consumer<String> log4j2Kafka(String bootstrap, String topic, boolean syncSend) {
        System.setProperty("log4j2.shutdownHookEnabled", "false");
        ConfigurationBuilder<BuiltConfiguration> builder = ConfigurationBuilderFactory.newConfigurationBuilder();
        builder.setConfigurationName("kafka-kill");
        builder.setStatusLevel(org.apache.logging.log4j.Level.WARN);
        builder.add(builder.newRootLogger(org.apache.logging.log4j.Level.WARN));
        org.apache.logging.log4j.core.LoggerContext context = Configurator.initialize(builder.build());
        Configuration configuration = context.getConfiguration();
        Builder<?> appenderBuilder = org.apache.logging.log4j.core.appender.mom.kafka.KafkaAppender.newBuilder();
        appenderBuilder.setTopic(topic).setSyncSend(syncSend).setName("KAFKA")
                .setLayout(PatternLayout.newBuilder().withPattern("%m").withConfiguration(configuration).build())
                .setPropertyArray(new Property[] {Property.createProperty("bootstrap.servers", bootstrap)})
                .setConfiguration(configuration);
        org.apache.logging.log4j.core.appender.mom.kafka.KafkaAppender appender = appenderBuilder.build();
        if (appender == null) {
            System.out.println("FAILED Log4j2 built no KafkaAppender");
            System.exit(2);
        }
        appender.start();
        configuration.addAppender(appender);
        LoggerConfig loggerConfig = new LoggerConfig("kill", org.apache.logging.log4j.Level.INFO, false);
        loggerConfig.addAppender(appender, null, null);
        configuration.addLogger("kill", loggerConfig);
        context.updateLoggers();
        org.apache.logging.log4j.Logger logger = context.getLogger("kill");
        return logger::info;
    }
}
