package io.github.lockfreelog.benchmarks.peers;

import io.github.lockfreelog.term.JournalDescriptor;

import ch.qos.logback.classic.AsyncAppender;
import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.FileAppender;
import ch.qos.logback.core.encoder.Encoder;
import ch.qos.logback.core.filter.Filter;
import ch.qos.logback.core.rolling.RollingFileAppender;
import ch.qos.logback.core.rolling.SizeAndTimeBasedRollingPolicy;
import ch.qos.logback.core.status.Status;
import ch.qos.logback.core.util.FileSize;
import io.github.lockfreelog.diagnostics.AppenderStatistics;
import io.github.lockfreelog.engine.Backpressure;
import io.github.lockfreelog.logback.LockFreeAppenderBase;
import io.github.lockfreelog.logback.LockFreeConsoleAppender;
import io.github.lockfreelog.logback.LockFreeFileAppender;
import io.github.lockfreelog.sink.ConsoleLogSink;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import net.logstash.logback.appender.LoggingEventAsyncDisruptorAppender;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A Logback peer: configured programmatically on SLF4J's Logback context, logged to through SLF4J. */
final class LogbackSink implements Sink {

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
                return open(peer, directory, context, pipe, file, classicEncoder(context), null);
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
            case LOCKFREELOG -> boot == null ? lockFree(context, file, directory, encoder, "8MB", 0)
                    : lockFreeAsTheStarter(context, file, directory, encoder, boot);
            case LOCKFREELOG_2X64K -> lockFree(context, file, directory, encoder, "64KB", 2);
            case LOCKFREELOG_ROLLING -> lockFreeRolling(context, file, directory, encoder);
            case LOGBACK_ROLLING -> rollingAppender(context, file, encoder);
            case ENCODE_ONLY -> encodeOnly(context, encoder);
            case LOGBACK_NOP -> nop(context);
            case LOGBACK_FILE_FLUSH -> fileAppender(context, file, true, encoder);
            case LOGBACK_FILE -> fileAppender(context, file, false, encoder);
            case LOGBACK_ASYNC -> asyncAppender(context, fileAppender(context, file, false, encoder));
            case LOGSTASH_DISRUPTOR -> disruptorAppender(context, fileAppender(context, file, false, encoder));
            case LOCKFREELOG_CONSOLE -> lockFreeConsole(context, pipe, directory, encoder,
                    boot == null ? List.of() : boot.logging().filters(boot.appender()));
            case LOGBACK_CONSOLE -> consoleAppender(context, encoder);
            case LOGBACK_ASYNC_CONSOLE -> asyncAppender(context, consoleAppender(context, encoder));
            default -> throw new IllegalArgumentException("not a Logback peer: " + peer.id());
        };
        return attach(peer, context, file, appender, pipe);
    }

    private static LogbackSink attach(Peer peer, LoggerContext context, Path file, Appender<ILoggingEvent> appender,
            ConsolePipe pipe) {
        if (!appender.isStarted()) {
            throw new IllegalStateException("appender " + peer.id() + " did not start: " + errors(context));
        }
        ch.qos.logback.classic.Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        root.setLevel(Level.INFO);
        root.addAppender(appender);
        return new LogbackSink(context, peer.writesFile() ? file : null, appender, pipe);
    }

    /** The classic workload's encoder: {@link Workload#LOGBACK_PATTERN}, UTF-8. */
    private static PatternLayoutEncoder classicEncoder(LoggerContext context) {
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(context);
        encoder.setPattern(Workload.LOGBACK_PATTERN);
        encoder.setCharset(StandardCharsets.UTF_8);
        encoder.start();
        return encoder;
    }

    /** What both rolling peers archive to: Spring Boot's pattern, under a size limit no run reaches. */
    private static final String ROLLED_SUFFIX = ".%d{yyyy-MM-dd}.%i.gz";
    private static final String NO_ROLL_SIZE = "100GB";
    private static final int ROLLED_HISTORY = 7;

    private static Appender<ILoggingEvent> lockFreeRolling(LoggerContext context, Path file, Path directory,
            Encoder<ILoggingEvent> encoder) {
        return lockFree(context, file, directory, encoder, "8MB", 0, appender -> {
            appender.setFileNamePattern(file + ROLLED_SUFFIX);
            appender.setMaxFileSize(FileSize.valueOf(NO_ROLL_SIZE));
            appender.setMaxHistory(ROLLED_HISTORY);
        });
    }

    /**
     * lockfreelog as the starter sets it up in place of Boot's FILE appender: Boot's encoder and filters (the
     * threshold; those of CONSOLE in the boot-console workload, whose format every peer writes) and Boot's rolling
     * (file name pattern, size, history, cap), with the lockfreelog peer's engine settings.
     */
    private static Appender<ILoggingEvent> lockFreeAsTheStarter(LoggerContext context, Path file, Path directory,
            Encoder<ILoggingEvent> encoder, Boot boot) {
        BootLogging.Rolling rolling = boot.logging().rolling();
        List<Filter<ILoggingEvent>> filters = boot.logging().filters(boot.appender());
        return lockFree(context, file, directory, encoder, "8MB", 0, appender -> {
            appender.setFileNamePattern(rolling.fileNamePattern());
            appender.setMaxFileSize(rolling.maxFileSize());
            appender.setMaxHistory(rolling.maxHistory());
            appender.setTotalSizeCap(rolling.totalSizeCap());
            appender.setCleanHistoryOnStart(rolling.cleanHistoryOnStart());
            filters.forEach(appender::addFilter);
        });
    }

    private static Appender<ILoggingEvent> rollingAppender(LoggerContext context, Path file, Encoder<ILoggingEvent> encoder) {
        RollingFileAppender<ILoggingEvent> appender = fileSettings(new RollingFileAppender<>(), context, "rolling", file, false,
                encoder);
        SizeAndTimeBasedRollingPolicy<ILoggingEvent> policy = new SizeAndTimeBasedRollingPolicy<>();
        policy.setContext(context);
        policy.setParent(appender);
        policy.setFileNamePattern(file + ROLLED_SUFFIX);
        policy.setMaxFileSize(FileSize.valueOf(NO_ROLL_SIZE));
        policy.setMaxHistory(ROLLED_HISTORY);
        policy.start();
        appender.setRollingPolicy(policy);
        appender.start();
        return appender;
    }

    private static Appender<ILoggingEvent> lockFree(LoggerContext context, Path file, Path directory,
            Encoder<ILoggingEvent> encoder, String bufferSize, int bufferCount) {
        return lockFree(context, file, directory, encoder, bufferSize, bufferCount, appender -> { });
    }

    private static Appender<ILoggingEvent> lockFree(LoggerContext context, Path file, Path directory,
            Encoder<ILoggingEvent> encoder, String bufferSize, int bufferCount,
            java.util.function.Consumer<LockFreeFileAppender> more) {
        LockFreeFileAppender appender = new LockFreeFileAppender();
        appender.setContext(context);
        appender.setName("lockfreelog");
        appender.setFile(file.toString());
        appender.setJournal(directory.resolve(".lockfreelog").resolve("lockfreelog.journal").toString());
        appender.setEncoder(encoder);
        appender.setBufferSize(FileSize.valueOf(bufferSize));
        if (bufferCount > 0) { // else the appender's default
            appender.setBufferCount(bufferCount);
        }
        appender.setBackpressure(Backpressure.BLOCK);
        more.accept(appender);
        appender.start();
        return appender;
    }

    /**
     * lockfreelog's console appender with the settings of the file peer (8 MB buffers, BLOCK), writing the
     * pipe's descriptor as it writes file descriptor 1 (a {@link ConsoleLogSink} over it), its journal in
     * the trial's folder.
     */
    private static Appender<ILoggingEvent> lockFreeConsole(LoggerContext context, ConsolePipe pipe, Path directory,
            Encoder<ILoggingEvent> encoder, List<Filter<ILoggingEvent>> filters) {
        LockFreeConsoleAppender appender = new LockFreeConsoleAppender();
        appender.setContext(context);
        appender.setName("lockfreelog-console");
        appender.setApplication("lockfreelog-benchmark");
        appender.setTarget(LockFreeConsoleAppender.SYSTEM_OUT);
        appender.setJournal(directory.resolve(".lockfreelog").resolve("lockfreelog-console.journal").toString());
        appender.setStream(() -> new ConsoleLogSink(pipe.out(), "pipe"));
        appender.setEncoder(encoder);
        filters.forEach(appender::addFilter);
        appender.setBufferSize(FileSize.valueOf("8MB"));
        appender.setBackpressure(Backpressure.BLOCK);
        appender.start();
        return appender;
    }

    /** Logback's ConsoleAppender as configured by default: System.out, immediateFlush=true. */
    private static ConsoleAppender<ILoggingEvent> consoleAppender(LoggerContext context, Encoder<ILoggingEvent> encoder) {
        ConsoleAppender<ILoggingEvent> appender = new ConsoleAppender<>();
        appender.setContext(context);
        appender.setName("console");
        appender.setTarget("System.out");
        appender.setEncoder(encoder);
        appender.start();
        return appender;
    }

    private static Appender<ILoggingEvent> encodeOnly(LoggerContext context, Encoder<ILoggingEvent> encoder) {
        EncodeOnlyAppender appender = new EncodeOnlyAppender();
        appender.setContext(context);
        appender.setName("encode-only");
        appender.setEncoder(encoder);
        appender.start();
        return appender;
    }

    private static Appender<ILoggingEvent> nop(LoggerContext context) {
        NopAppender appender = new NopAppender();
        appender.setContext(context);
        appender.setName("nop");
        appender.start();
        return appender;
    }

    private static FileAppender<ILoggingEvent> fileAppender(LoggerContext context, Path file, boolean immediateFlush,
            Encoder<ILoggingEvent> encoder) {
        FileAppender<ILoggingEvent> appender = fileSettings(new FileAppender<>(), context, "file", file, immediateFlush,
                encoder);
        appender.start();
        return appender;
    }

    /** The settings both Logback file peers share: a new file each trial, the workload's encoder. */
    private static <A extends FileAppender<ILoggingEvent>> A fileSettings(A appender, LoggerContext context, String name,
            Path file, boolean immediateFlush, Encoder<ILoggingEvent> encoder) {
        appender.setContext(context);
        appender.setName(name);
        appender.setFile(file.toString());
        appender.setAppend(false);
        appender.setImmediateFlush(immediateFlush);
        appender.setEncoder(encoder);
        return appender;
    }

    private static Appender<ILoggingEvent> asyncAppender(LoggerContext context, Appender<ILoggingEvent> delegate) {
        AsyncAppender appender = new AsyncAppender();
        appender.setContext(context);
        appender.setName("async");
        appender.addAppender(delegate);
        appender.start();
        return appender;
    }

    private static Appender<ILoggingEvent> disruptorAppender(LoggerContext context, Appender<ILoggingEvent> delegate) {
        LoggingEventAsyncDisruptorAppender appender = new LoggingEventAsyncDisruptorAppender();
        appender.setContext(context);
        appender.setName("disruptor");
        appender.addAppender(delegate);
        appender.start();
        return appender;
    }

    /** Warnings and errors in the context's status: how many, and the last one (appenders that drop say so there). */
    private static String errors(LoggerContext context) {
        int count = 0;
        String last = "";
        for (Status status : context.getStatusManager().getCopyOfStatusList()) {
            if (status.getLevel() >= Status.WARN) {
                count++;
                last = status.getMessage();
            }
        }
        return count == 0 ? "" : count + " status warnings, last: " + last;
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
    AppenderStatistics lockFreeStatistics() {
        return appender instanceof LockFreeAppenderBase lockFree ? lockFree.getStatistics() : null;
    }

    @Override
    public String details() {
        String warnings = errors(context);
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
