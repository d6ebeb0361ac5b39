package io.github.lockfreelog.logback;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.core.util.Duration;
import ch.qos.logback.core.util.FileSize;
import io.github.lockfreelog.diagnostics.AppenderStatistics;
import io.github.lockfreelog.engine.Backpressure;
import io.github.lockfreelog.testsupport.AckFile;
import io.github.lockfreelog.testsupport.TestLogback;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The process whose standard output {@link ConsoleAppenderTest} reads through a pipe: a
 * {@link LockFreeConsoleAppender} on its standard output; it speaks to the parent on standard error.
 * Arguments: journal, ack file, run number, mode, then {@code key=value} options.
 * <ul>
 *   <li>{@code write}: {@link CrashChild#THREADS} threads log {@code lines} numbered lines each
 *       (after {@code GO} on standard input) while a printer thread writes {@code printed} lines with
 *       {@code System.out.println}; then the appender stops and the child prints {@code DONE} and
 *       its statistics;</li>
 *   <li>{@code burst}: the threads log until killed, each storing the number of its last
 *       acknowledged line in its slot of the mapped ack file;</li>
 *   <li>{@code recover}: the appender starts (writing what a killed run left), stops, and the process exits.</li>
 * </ul>
 * Options: {@code lines}, {@code printed}, {@code backpressure}, {@code maxBlockTime} (milliseconds).
 */
public final class ConsoleChild {


    private ConsoleChild() {
    }

    /** The line of printer line {@code n}: long enough to need a write of its own. */
    static String printed(long n) {
        return "PRINTED " + n + " " + "=".repeat(200);
    }

    public static void main(String[] args) throws Exception {
        Path journal = Path.of(args[0]);
        Path ackFile = Path.of(args[1]);
        int run = Integer.parseInt(args[2]);
        String mode = args[3];
        long lines = option(args, "lines", 10_000);
        long printedLines = option(args, "printed", 0);
        long maxBlockMillis = option(args, "maxBlockTime", 60_000);
        Backpressure backpressure = Backpressure.valueOf(optionText(args, "backpressure", "BLOCK"));

        LoggerContext context = TestLogback.newContext();
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(context);
        encoder.setPattern("%m%n");
        encoder.start();
        LockFreeConsoleAppender appender = new LockFreeConsoleAppender();
        appender.setContext(context);
        appender.setName("CONSOLE");
        appender.setEncoder(encoder);
        appender.setJournal(journal.toString());
        appender.setBufferSize(FileSize.valueOf("64KB"));
        appender.setBufferCount(3);
        appender.setFlushInterval(Duration.valueOf("20 milliseconds"));
        appender.setBackpressure(backpressure);
        appender.setMaxBlockTime(Duration.buildByMilliseconds(maxBlockMillis));
        appender.setUnblockTimeout(Duration.buildByMilliseconds(Math.max(1, maxBlockMillis / 2)));
        appender.setStopTimeout(Duration.valueOf("3 seconds")); // a reader that went away never takes the rest
        appender.start();
        if (!appender.isStarted()) {
            System.err.println("FAILED " + TestLogback.statuses(context));
            System.exit(2);
        }
        System.err.println("STARTED recovered=" + appender.getStatistics().recoveredFrames());
        if (mode.equals("recover")) {
            appender.stop();
            System.err.println("STOPPED " + TestLogback.statuses(context).replace('\n', ' '));
            return;
        }
        AckFile acks = AckFile.create(ackFile, CrashChild.THREADS);
        boolean burst = mode.equals("burst");
        AtomicLong longestAppendNanos = new AtomicLong();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < CrashChild.THREADS; t++) {
            int id = t;
            threads.add(new Thread(() -> {
                for (long n = 0; burst || n < lines; n++) {
                    long begin = System.nanoTime();
                    appender.doAppend(TestLogback.event(context, Level.INFO, CrashChild.line(run, id, n)));
                    longestAppendNanos.accumulateAndGet(System.nanoTime() - begin, Math::max);
                    acks.acknowledge(id, n);
                }
            }, "console-writer-" + t));
        }
        threads.add(new Thread(() -> {
            for (long n = 0; n < printedLines; n++) {
                System.out.println(printed(n));
            }
        }, "console-printer"));
        threads.forEach(thread -> thread.setDaemon(true));
        System.err.println("READY");
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine(); // GO
        threads.forEach(Thread::start);
        for (Thread thread : threads) {
            thread.join();
        }
        appender.stop();
        AppenderStatistics s = appender.getStatistics();
        System.err.println("DONE appended=" + s.appended() + " written=" + s.eventsWritten() + " dropped=" + s.dropped()
                + " drops=" + s.drops() + " longestAppendMillis=" + longestAppendNanos.get() / 1_000_000 + " statuses="
                + TestLogback.statuses(context).replace('\n', ' '));
    }

    private static long option(String[] args, String key, long otherwise) {
        return Long.parseLong(optionText(args, key, Long.toString(otherwise)));
    }

    private static String optionText(String[] args, String key, String otherwise) {
        for (int i = 4; i < args.length; i++) {
            if (args[i].startsWith(key + "=")) {
                return args[i].substring(key.length() + 1);
            }
        }
        return otherwise;
    }
}
