package io.github.lockfreelog.benchmarks.peers;

import java.io.IOException;
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
    /** The pipe a console peer writes; null for the others. */
    private final ConsolePipe pipe;

    private Log4jSink(LoggerContext context, Logger logger, Path file, ConsolePipe pipe) {
        this.context = context;
        this.logger = logger;
        this.file = file;
        this.pipe = pipe;
    }

    static Log4jSink open(Peer peer, Path directory) throws IOException {
        ConsolePipe pipe = peer.writesPipe() ? ConsolePipe.open(directory, peer.id()) : null;
        try {
            return open(peer, directory, pipe);
        } catch (RuntimeException e) {
            if (pipe != null) {
                pipe.abort();
            }
            throw e;
        }
    }

    private static Log4jSink open(Peer peer, Path directory, ConsolePipe pipe) {
        // Read when Log4j2 first initialises, which is here: nothing else in a Log4j2 fork touches it before.
        boolean async = peer == Peer.LOG4J2_ASYNC || peer == Peer.LOG4J2_ASYNC_CONSOLE;
        if (async) {
            System.setProperty("log4j2.contextSelector", ASYNC_SELECTOR);
        }
        System.setProperty("log4j2.shutdownHookEnabled", "false"); // the benchmark stops it and then counts lines
        System.setProperty("log4j2.statusLoggerLevel", "WARN");

        String plugin = switch (peer) {
            case LOG4J2_FILE -> "File";
            case LOG4J2_RAF, LOG4J2_ASYNC -> "RandomAccessFile";
            case LOG4J2_MMAP -> "MemoryMappedFile";
            case LOG4J2_CONSOLE, LOG4J2_ASYNC_CONSOLE -> "Console";
            default -> throw new IllegalArgumentException("not a Log4j2 peer: " + peer.id());
        };
        Path file = pipe != null ? pipe.fifo() : directory.resolve(peer.id() + ".log");
        ConfigurationBuilder<BuiltConfiguration> builder = ConfigurationBuilderFactory.newConfigurationBuilder();
        builder.setConfigurationName("lockfreelog-benchmark-" + peer.id());
        builder.setStatusLevel(Level.WARN);
        AppenderComponentBuilder appender = builder.newAppender("file", plugin)
                .add(builder.newLayout("PatternLayout")
                        .addAttribute("pattern", Workload.LOG4J2_PATTERN)
                        .addAttribute("charset", "UTF-8"));
        if (pipe != null) {
            // As Spring Boot's log4j2.xml: System.out, followed (looked up at each write), immediateFlush
            // left at its default (true). System.out is the pipe's from here to the stop.
            pipe.replaceSystemOut();
            appender.addAttribute("target", "SYSTEM_OUT").addAttribute("follow", true);
        } else {
            appender.addAttribute("fileName", file.toString()).addAttribute("append", false);
        }
        if (pipe == null && peer != Peer.LOG4J2_MMAP) {
            appender.addAttribute("immediateFlush", false); // MemoryMappedFile's default is already false
        }
        builder.add(appender);
        builder.add(builder.newRootLogger(Level.INFO).add(builder.newAppenderRef("file")));
        LoggerContext context = Configurator.initialize(builder.build(false));
        Logger logger = LogManager.getLogger(Workload.LOGGER_NAME);
        if (!(logger instanceof org.apache.logging.log4j.core.Logger core) || core.getContext() != context) {
            throw new IllegalStateException("LogManager did not return a logger of the configured context: " + logger);
        }
        if (async && !logger.getClass().getName().endsWith("AsyncLogger")) {
            throw new IllegalStateException("expected an AsyncLogger, got " + logger.getClass().getName());
        }
        if (context.getConfiguration().getAppender("file") == null) {
            throw new IllegalStateException("Log4j2 appender " + plugin + " was not created (see status output)");
        }
        return new Log4jSink(context, logger, file, pipe);
    }

    @Override
    public void log(String message) {
        logger.info(message);
    }

    @Override
    public void stop() {
        // Waits for async loggers to drain their ring buffer, then closes (and flushes) the appender.
        if (!Configurator.shutdown(context, 60, TimeUnit.SECONDS)) {
            restoreSystemOut();
            System.out.println("[lines] Log4j2 did not stop within 60 s; lines may be missing");
        }
        restoreSystemOut();
    }

    private void restoreSystemOut() {
        if (pipe != null) {
            pipe.restoreSystemOut(); // the fork's own again, for the line check's output
        }
    }

    /** The file's lines, or for a console peer those its pipe's reader received (closing the pipe). */
    @Override
    public LineCounter.Count count() throws IOException {
        return pipe != null ? pipe.finish().count() : Sink.super.count();
    }

    @Override
    public Path logFile() {
        return file;
    }

    @Override
    public String details() {
        String loggerClass = "loggerClass=" + logger.getClass().getSimpleName();
        return pipe == null ? loggerClass : loggerClass + " " + pipe.details();
    }
}
