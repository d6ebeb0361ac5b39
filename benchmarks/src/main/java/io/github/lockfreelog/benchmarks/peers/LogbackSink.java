package io.github.lockfreelog.benchmarks.peers;

import io.github.lockfreelog.term.JournalDescriptor;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.encoder.Encoder;
import io.github.lockfreelog.diagnostics.AppenderStatistics;
import io.github.lockfreelog.logback.LockFreeAppenderBase;
import io.github.lockfreelog.logback.LockFreeFileAppender;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A Logback peer: configured programmatically on SLF4J's Logback context, logged to through SLF4J. */
public final class LogbackSink implements Sink {

    private final LoggerContext context;
    private final Logger logger;
    private final Path file;
    private final Appender<ILoggingEvent> appender;
    /** The pipe a console peer writes; null for the others. */
    private final ConsolePipe pipe;

    private LogbackSink(LoggerContext context, Path file, Appender<ILoggingEvent> appender, ConsolePipe pipe) {
        this.context = context;
        this.logger = LoggerFactory.getLogger(Workload.LOGGER_NAME);
        this.file = file;
        this.appender = appender;
        this.pipe = pipe;
    }

    static LogbackSink open(Peer peer, Path directory) throws IOException {
        return open(peer, directory, Workload.Kind.current());
    }

    /**
     * Configures {@code peer} for {@code workload}: for the classic one on a context reset here, with the
     * workload's pattern; for a {@code boot-*} one on the context Spring Boot configured ({@link BootLogging}),
     * with the encoder (and for lockfreelog the filters and rolling) of Boot's appender.
     */
    static LogbackSink open(Peer peer, Path directory, Workload.Kind workload) throws IOException {
        String refusal = peer.refusal(workload);
        if (refusal != null) {
            throw new IllegalArgumentException(refusal);
        }
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        context.reset(); // drops the console appender of Logback's default configuration
        if (!context.isStarted()) {
            context.start(); // stopped by an earlier sink in this JVM (a test): stop() would then do nothing
        }
        ConsolePipe pipe = peer.writesPipe() ? ConsolePipe.open(directory, peer.id()) : null;
        try {
            if (peer == Peer.LOGBACK_CONSOLE || peer == Peer.LOGBACK_ASYNC_CONSOLE || peer == Peer.SPRING_BOOT_CONSOLE) {
                pipe.replaceSystemOut(); // ConsoleAppender writes System.out, looked up at each write
            }
            Path file = pipe != null ? pipe.fifo() : directory.resolve(peer.id() + ".log");
            if (!workload.isBoot()) {
                return open(peer, directory, context, pipe, file, LogbackAppenders.classicEncoder(context), null);
            }
            // Boot's FILE appender writes the peer's file (a console peer's: a file beside the pipe, never written).
            BootLogging boot = BootLogging.initialize(workload, pipe != null ? directory.resolve("spring-boot.log") : file);
            String bootAppender = workload == Workload.Kind.BOOT_CONSOLE
                    || (workload == Workload.Kind.BOOT_ECS && peer.writesPipe()) ? BootLogging.CONSOLE : BootLogging.FILE;
            return open(peer, directory, context, pipe, file, boot.encoder(bootAppender), new Boot(boot, bootAppender));
        } catch (IOException | RuntimeException e) {
            if (pipe != null) {
                pipe.abort();
            }
            throw e;
        }
    }

    /** Spring Boot's configuration of a boot-* trial, and the name of the Boot appender whose format the peer writes. */
    private record Boot(BootLogging logging, String appender) {
    }

    private static LogbackSink open(Peer peer, Path directory, LoggerContext context, ConsolePipe pipe, Path file,
            Encoder<ILoggingEvent> encoder, Boot boot) throws IOException {
        if (boot != null) {
            if (peer.isSpringBoot()) {
                Appender<ILoggingEvent> own = boot.logging().keepOnly(peer == Peer.SPRING_BOOT_FILE ? BootLogging.FILE
                        : BootLogging.CONSOLE);
                return attach(peer, context, file, own, pipe);
            }
            boot.logging().removeAll(); // the peer takes the place of Boot's appenders, with their encoder
        }
        Appender<ILoggingEvent> appender = switch (peer) {
            case LOCKFREELOG -> boot == null ? LogbackAppenders.lockFree(context, file, directory, encoder, "8MB", 0)
                    : LogbackAppenders.lockFreeAsTheStarter(context, file, directory, encoder, boot.logging(),
                    boot.appender());
            case LOCKFREELOG_2X64K -> LogbackAppenders.lockFree(context, file, directory, encoder, "64KB", 2);
            case LOCKFREELOG_ROLLING -> LogbackAppenders.lockFreeRolling(context, file, directory, encoder);
            case LOGBACK_ROLLING -> LogbackAppenders.rollingAppender(context, file, encoder);
            case ENCODE_ONLY -> LogbackAppenders.encodeOnly(context, encoder);
            case LOGBACK_NOP -> LogbackAppenders.nop(context);
            case LOGBACK_FILE_FLUSH -> LogbackAppenders.fileAppender(context, file, true, encoder);
            case LOGBACK_FILE -> LogbackAppenders.fileAppender(context, file, false, encoder);
            case LOGBACK_ASYNC -> LogbackAppenders.asyncAppender(context, LogbackAppenders.fileAppender(context, file, false, encoder));
            case LOGSTASH_DISRUPTOR -> LogbackAppenders.disruptorAppender(context, LogbackAppenders.fileAppender(context, file, false, encoder));
            case LOCKFREELOG_CONSOLE -> LogbackAppenders.lockFreeConsole(context, pipe, directory, encoder,
                    boot == null ? List.of() : boot.logging().filters(boot.appender()));
            case LOGBACK_CONSOLE -> LogbackAppenders.consoleAppender(context, encoder);
            case LOGBACK_ASYNC_CONSOLE -> LogbackAppenders.asyncAppender(context, LogbackAppenders.consoleAppender(context, encoder));
            default -> throw new IllegalArgumentException("not a Logback peer: " + peer.id());
        };
        return attach(peer, context, file, appender, pipe);
    }

    private static LogbackSink attach(Peer peer, LoggerContext context, Path file, Appender<ILoggingEvent> appender,
            ConsolePipe pipe) {
        if (!appender.isStarted()) {
            throw new IllegalStateException("appender " + peer.id() + " did not start: " + LogbackAppenders.errors(context));
        }
        ch.qos.logback.classic.Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        root.setLevel(Level.INFO);
        root.addAppender(appender);
        return new LogbackSink(context, peer.writesFile() ? file : null, appender, pipe);
    }

    @Override
    public void log(String message) {
        logger.info(message);
    }

    @Override
    public void stop() {
        context.stop(); // stops every appender; the asynchronous ones drain their queues first
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

    /** The journal's active term count, read through a mapping of its metadata page; null for another appender. */
    @Override
    public java.util.function.LongSupplier bufferProbe() throws IOException {
        if (!(appender instanceof io.github.lockfreelog.logback.LockFreeFileAppender lockFree)) {
            return null;
        }
        java.nio.ByteBuffer metadata;
        try (java.nio.channels.FileChannel journal = java.nio.channels.FileChannel.open(Path.of(lockFree.getJournal()))) {
            metadata = journal.map(java.nio.channels.FileChannel.MapMode.READ_ONLY, 0, JournalDescriptor.METADATA_LENGTH);
        }
        java.lang.invoke.VarHandle longs = java.lang.invoke.MethodHandles.byteBufferViewVarHandle(long[].class,
                java.nio.ByteOrder.LITTLE_ENDIAN);
        return () -> (long) longs.getVolatile(metadata, JournalDescriptor.ACTIVE_TERM_COUNT_OFFSET);
    }

    /** lockfreelog's own statistics, read after {@link #stop()}; null for another appender. */
    public AppenderStatistics lockFreeStatistics() {
        return appender instanceof LockFreeAppenderBase lockFree ? lockFree.getStatistics() : null;
    }

    @Override
    public String details() {
        String warnings = LogbackAppenders.errors(context);
        String base = warnings.isEmpty() ? "" : "status=\"" + warnings.replace('"', '\'') + "\"";
        if (pipe != null) {
            String reader = pipe.details();
            base = base.isEmpty() ? reader : reader + " " + base;
        }
        if (appender instanceof LockFreeAppenderBase lockFree) {
            AppenderStatistics statistics = lockFree.getStatistics();
            String counters = "appended=" + statistics.appended() + " eventsWritten=" + statistics.eventsWritten()
                    + " dropped=" + statistics.dropped() + " drops=" + statistics.drops().toString().replace(", ", ",")
                    + " truncated=" + statistics.truncated() + " swaps=" + statistics.swaps()
                    + " waits=" + statistics.waits() + " waitMaxNanos=" + statistics.waitMaxNanos();
            return base.isEmpty() ? counters : counters + " " + base;
        }
        return base;
    }
}
