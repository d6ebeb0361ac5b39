package io.github.lockfreelog.logback;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.core.util.Duration;
import ch.qos.logback.core.util.FileSize;
import io.github.lockfreelog.diagnostics.AppenderStatistics;
import io.github.lockfreelog.sink.ForwardingLogSink;
import io.github.lockfreelog.testing.TestAppenders;
import io.github.lockfreelog.testsupport.AckFile;
import io.github.lockfreelog.testsupport.TestLogback;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.locks.LockSupport;

/**
 * The process that {@link CrashRecoveryTest} kills with SIGKILL. Arguments: log file, ack file,
 * run number, buffer size, mode ({@code log} or {@code recover}), and optionally a
 * rolling file name pattern (the file then rolls every 256 KB).
 *
 * <p>In {@code log} mode four threads log numbered lines as fast as they can; after each
 * {@code doAppend} returns, the thread stores the number in its slot of a memory-mapped ack file
 * with a volatile store, so that the parent can read, after the kill, which events had been
 * acknowledged. In {@code recover} mode the appender starts (recovering), stops, and the process exits.
 * In {@code undrained} mode every write to the log file fails: one thread logs until the journal's
 * buffers are all full (its first drop), acknowledging as above, and the process halts, leaving a
 * journal with {@code bufferCount} terms that never reached the log.
 */
public final class CrashChild {

    static final int THREADS = 4;

    private CrashChild() {
    }

    public static void main(String[] args) throws Exception {
        Path log = Path.of(args[0]);
        Path ackFile = Path.of(args[1]);
        int run = Integer.parseInt(args[2]);
        String bufferSize = args[3];
        boolean recoverOnly = args[4].equals("recover");
        boolean undrained = args[4].equals("undrained");
        String rollingPattern = args.length > 5 ? args[5] : null;
        LoggerContext context = TestLogback.newContext();
        LockFreeFileAppender appender = TestAppenders.create(context, log, a -> {
            a.setBufferSize(FileSize.valueOf(bufferSize));
            a.setMaxBlockTime(Duration.valueOf("60 seconds"));
            a.setFlushInterval(Duration.valueOf("20 milliseconds"));
            if (undrained) {
                a.setMaxBlockTime(Duration.valueOf("20 milliseconds"));
                a.setSinkDecorator(sink -> new ForwardingLogSink(sink) {
                    @Override
                    public int write(ByteBuffer src) throws IOException {
                        throw new IOException("No space left on device (simulated)");
                    }
                });
            }
            if (rollingPattern != null) {
                a.setFileNamePattern(rollingPattern);
                a.setMaxFileSize(FileSize.valueOf("256KB"));
            }
        });
        appender.start();
        if (!appender.isStarted()) {
            System.out.println("FAILED " + TestLogback.statuses(context));
            System.exit(2);
        }
        AppenderStatistics start = appender.getStatistics();
        System.out.println("RECOVERED " + start.recoveredFrames() + " SKIPPED " + start.skippedFrames());
        if (recoverOnly) {
            appender.stop();
            System.out.println("STOPPED");
            System.out.flush();
            return;
        }
        AckFile acks = AckFile.create(ackFile, THREADS);
        if (undrained) {
            for (long n = 0;; n++) {
                appender.doAppend(TestLogback.event(context, Level.INFO, line(run, 0, n)));
                if (appender.getStatistics().dropped() > 0) {
                    break; // this one was dropped: the journal is full
                }
                acks.acknowledge(0, n);
            }
            System.out.println("FILLED");
            System.out.flush();
            Runtime.getRuntime().halt(0);
        }
        for (int t = 0; t < THREADS; t++) {
            int id = t;
            Thread thread = new Thread(() -> {
                for (long n = 0;; n++) {
                    appender.doAppend(TestLogback.event(context, Level.INFO, line(run, id, n)));
                    acks.acknowledge(id, n);
                    if (n % 64 == 63) {
                        LockSupport.parkNanos(50_000);
                    }
                }
            }, "crash-writer-" + t);
            thread.setDaemon(true);
            thread.start();
        }
        System.out.println("READY");
        System.out.flush();
        Thread.sleep(60_000); // the parent kills us long before this
    }

    static String line(int run, int thread, long n) {
        return "R" + run + " T" + thread + " " + n + " check=" + (n * 31 + thread) + " ......................";
    }
}
