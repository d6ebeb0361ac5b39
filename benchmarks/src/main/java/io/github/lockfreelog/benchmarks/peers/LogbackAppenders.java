package io.github.lockfreelog.benchmarks.peers;

import ch.qos.logback.classic.AsyncAppender;
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
import io.github.lockfreelog.engine.Backpressure;
import io.github.lockfreelog.logback.LockFreeConsoleAppender;
import io.github.lockfreelog.logback.LockFreeFileAppender;
import io.github.lockfreelog.sink.ConsoleLogSink;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import net.logstash.logback.appender.LoggingEventAsyncDisruptorAppender;

/** The Logback peers' appenders, each started as its peer says, for {@link LogbackSink} to attach. */
final class LogbackAppenders {

    private LogbackAppenders() {
    }

    /** The classic workload's encoder: {@link Workload#LOGBACK_PATTERN}, UTF-8. */
    static PatternLayoutEncoder classicEncoder(LoggerContext context) {
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(context);
        encoder.setPattern(Workload.LOGBACK_PATTERN);
        encoder.setCharset(StandardCharsets.UTF_8);
        encoder.start();
        return encoder;
    }

    /** What both rolling peers archive to: Spring Boot's pattern, under a size limit no run reaches. */
    static final String ROLLED_SUFFIX = ".%d{yyyy-MM-dd}.%i.gz";
    static final String NO_ROLL_SIZE = "100GB";
    static final int ROLLED_HISTORY = 7;

    static Appender<ILoggingEvent> lockFreeRolling(LoggerContext context, Path file, Path directory,
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
    static Appender<ILoggingEvent> lockFreeAsTheStarter(LoggerContext context, Path file, Path directory,
            Encoder<ILoggingEvent> encoder, BootLogging boot, String bootAppender) {
        BootLogging.Rolling rolling = boot.rolling();
        List<Filter<ILoggingEvent>> filters = boot.filters(bootAppender);
        return lockFree(context, file, directory, encoder, "8MB", 0, appender -> {
            appender.setFileNamePattern(rolling.fileNamePattern());
            appender.setMaxFileSize(rolling.maxFileSize());
            appender.setMaxHistory(rolling.maxHistory());
            appender.setTotalSizeCap(rolling.totalSizeCap());
            appender.setCleanHistoryOnStart(rolling.cleanHistoryOnStart());
            filters.forEach(appender::addFilter);
        });
    }

    static Appender<ILoggingEvent> rollingAppender(LoggerContext context, Path file, Encoder<ILoggingEvent> encoder) {
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

    static Appender<ILoggingEvent> lockFree(LoggerContext context, Path file, Path directory,
            Encoder<ILoggingEvent> encoder, String bufferSize, int bufferCount) {
        return lockFree(context, file, directory, encoder, bufferSize, bufferCount, appender -> { });
    }

    static Appender<ILoggingEvent> lockFree(LoggerContext context, Path file, Path directory,
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
    static Appender<ILoggingEvent> lockFreeConsole(LoggerContext context, ConsolePipe pipe, Path directory,
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
    static ConsoleAppender<ILoggingEvent> consoleAppender(LoggerContext context, Encoder<ILoggingEvent> encoder) {
        ConsoleAppender<ILoggingEvent> appender = new ConsoleAppender<>();
        appender.setContext(context);
        appender.setName("console");
        appender.setTarget("System.out");
        appender.setEncoder(encoder);
        appender.start();
        return appender;
    }

    static Appender<ILoggingEvent> encodeOnly(LoggerContext context, Encoder<ILoggingEvent> encoder) {
        EncodeOnlyAppender appender = new EncodeOnlyAppender();
        appender.setContext(context);
        appender.setName("encode-only");
        appender.setEncoder(encoder);
        appender.start();
        return appender;
    }

    static Appender<ILoggingEvent> nop(LoggerContext context) {
        NopAppender appender = new NopAppender();
        appender.setContext(context);
        appender.setName("nop");
        appender.start();
        return appender;
    }

    static FileAppender<ILoggingEvent> fileAppender(LoggerContext context, Path file, boolean immediateFlush,
            Encoder<ILoggingEvent> encoder) {
        FileAppender<ILoggingEvent> appender = fileSettings(new FileAppender<>(), context, "file", file, immediateFlush,
                encoder);
        appender.start();
        return appender;
    }

    /** The settings both Logback file peers share: a new file each trial, the workload's encoder. */
    static <A extends FileAppender<ILoggingEvent>> A fileSettings(A appender, LoggerContext context, String name,
            Path file, boolean immediateFlush, Encoder<ILoggingEvent> encoder) {
        appender.setContext(context);
        appender.setName(name);
        appender.setFile(file.toString());
        appender.setAppend(false);
        appender.setImmediateFlush(immediateFlush);
        appender.setEncoder(encoder);
        return appender;
    }

    static Appender<ILoggingEvent> asyncAppender(LoggerContext context, Appender<ILoggingEvent> delegate) {
        AsyncAppender appender = new AsyncAppender();
        appender.setContext(context);
        appender.setName("async");
        appender.addAppender(delegate);
        appender.start();
        return appender;
    }

    static Appender<ILoggingEvent> disruptorAppender(LoggerContext context, Appender<ILoggingEvent> delegate) {
        LoggingEventAsyncDisruptorAppender appender = new LoggingEventAsyncDisruptorAppender();
        appender.setContext(context);
        appender.setName("disruptor");
        appender.addAppender(delegate);
        appender.start();
        return appender;
    }

    /** Warnings and errors in the context's status: how many, and the last one (appenders that drop say so there). */
    static String errors(LoggerContext context) {
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
}
