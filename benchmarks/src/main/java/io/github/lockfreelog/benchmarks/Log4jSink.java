package io.github.lockfreelog.benchmarks;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.config.Configurator;
import org.apache.logging.log4j.core.config.builder.api.AppenderComponentBuilder;
import org.apache.logging.log4j.core.config.builder.api.ConfigurationBuilder;
import org.apache.logging.log4j.core.config.builder.api.ConfigurationBuilderFactory;
import org.apache.logging.log4j.core.config.builder.impl.BuiltConfiguration;

/** A Log4j2 peer: configured with a {@link ConfigurationBuilder}, logged to through the Log4j2 API. */
final class Log4jSink implements Sink {

    static final String ASYNC_SELECTOR = "org.apache.logging.log4j.core.async.AsyncLoggerContextSelector";

    private final LoggerContext context;
    private final Logger logger;
    private final Path file;

    private Log4jSink(LoggerContext context, Logger logger, Path file) {
        this.context = context;
        this.logger = logger;
        this.file = file;
    }

    static Log4jSink open(Peer peer, Path directory) {
        // Read when Log4j2 first initialises, which is here: nothing else in a Log4j2 fork touches it before.
        if (peer == Peer.LOG4J2_ASYNC) {
            System.setProperty("log4j2.contextSelector", ASYNC_SELECTOR);
        }
        System.setProperty("log4j2.shutdownHookEnabled", "false"); // the benchmark stops it and then counts lines
        System.setProperty("log4j2.statusLoggerLevel", "WARN");

        String plugin = switch (peer) {
            case LOG4J2_FILE -> "File";
            case LOG4J2_RAF, LOG4J2_ASYNC -> "RandomAccessFile";
            case LOG4J2_MMAP -> "MemoryMappedFile";
            default -> throw new IllegalArgumentException("not a Log4j2 peer: " + peer.id());
        };
        Path file = directory.resolve(peer.id() + ".log");
        ConfigurationBuilder<BuiltConfiguration> builder = ConfigurationBuilderFactory.newConfigurationBuilder();
        builder.setConfigurationName("lockfreelog-benchmark-" + peer.id());
        builder.setStatusLevel(Level.WARN);
        AppenderComponentBuilder appender = builder.newAppender("file", plugin)
                .addAttribute("fileName", file.toString())
                .addAttribute("append", false)
                .add(builder.newLayout("PatternLayout")
                        .addAttribute("pattern", Workload.LOG4J2_PATTERN)
                        .addAttribute("charset", "UTF-8"));
        if (peer != Peer.LOG4J2_MMAP) {
            appender.addAttribute("immediateFlush", false); // MemoryMappedFile's default is already false
        }
        builder.add(appender);
        builder.add(builder.newRootLogger(Level.INFO).add(builder.newAppenderRef("file")));
        LoggerContext context = Configurator.initialize(builder.build(false));
        Logger logger = LogManager.getLogger(Workload.LOGGER_NAME);
        if (!(logger instanceof org.apache.logging.log4j.core.Logger core) || core.getContext() != context) {
            throw new IllegalStateException("LogManager did not return a logger of the configured context: " + logger);
        }
        if (peer == Peer.LOG4J2_ASYNC && !logger.getClass().getName().endsWith("AsyncLogger")) {
            throw new IllegalStateException("expected an AsyncLogger, got " + logger.getClass().getName());
        }
        if (context.getConfiguration().getAppender("file") == null) {
            throw new IllegalStateException("Log4j2 appender " + plugin + " was not created (see status output)");
        }
        return new Log4jSink(context, logger, file);
    }

    @Override
    public void log(String message) {
        logger.info(message);
    }

    @Override
    public void stop() {
        // Waits for async loggers to drain their ring buffer, then closes (and flushes) the appender.
        if (!Configurator.shutdown(context, 60, TimeUnit.SECONDS)) {
            System.out.println("[lines] Log4j2 did not stop within 60 s; lines may be missing");
        }
    }

    @Override
    public Path logFile() {
        return file;
    }

    @Override
    public String details() {
        return "loggerClass=" + logger.getClass().getSimpleName();
    }
}
