package io.github.lockfreelog.otlp;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import io.github.lockfreelog.testsupport.AckFile;
import io.github.lockfreelog.testsupport.TestLogback;
import java.nio.file.Path;
import java.util.concurrent.locks.LockSupport;

/**
 * The process {@link OtlpCrashTest} kills with SIGKILL or halts at a crash point, as the Kafka module's crash child
 * does: arguments endpoint, journal, ack file, run, mode ({@code burst}, {@code steady}, or {@code recover}: start on
 * the journal and log nothing, for a halt in the recovery). Four threads log numbered
 * events ({@code t<id> e<n>}, {@code id = run * 4 + t}); after each {@code doAppend} returns, the thread says so in its
 * slot of an {@link AckFile} (the page cache outlives the process), so the parent knows which events were
 * acknowledged.
 */
public final class OtlpCrashChild {

    static final int THREADS = 4;
    static final int MAX_EVENTS = 25_000;

    private OtlpCrashChild() {
    }

    static String event(int thread, int number) {
        return "t" + thread + " e" + number + " " + "x".repeat(number % 40);
    }

    public static void main(String[] args) throws Exception {
        String endpoint = args[0];
        Path journal = Path.of(args[1]);
        Path ackFile = Path.of(args[2]);
        int run = Integer.parseInt(args[3]);
        boolean steady = args[4].equals("steady");
        boolean recover = args[4].equals("recover"); // only starts on the journal (its recovery halts at a crash point)
        LoggerContext context = TestLogback.newContext();
        LockFreeOtlpAppender appender = LockFreeOtlpAppenderTest.appender(context, endpoint, journal, a -> { });
        appender.start();
        if (!appender.isStarted()) {
            System.out.println("FAILED " + TestLogback.statuses(context).replace('\n', '|'));
            System.exit(2);
        }
        if (recover) {
            Thread.sleep(60_000);
            System.out.println("NOT HALTED " + appender.getStatistics());
            System.exit(3);
        }
        AckFile acks = AckFile.create(ackFile, THREADS);
        Logger logger = TestLogback.logger(context, "crash", appender);
        for (int t = 0; t < THREADS; t++) {
            int slot = t;
            int id = run * THREADS + t;
            Thread thread = new Thread(() -> {
                for (int n = 0; n < MAX_EVENTS; n++) {
                    logger.info(event(id, n));
                    acks.acknowledge(slot, n);
                    if (steady && n % 2 == 1) {
                        LockSupport.parkNanos(1_000_000);
                    }
                }
            }, "crash-caller-" + t);
            thread.setDaemon(true);
            thread.start();
        }
        System.out.println("READY");
        System.out.flush();
        Thread.sleep(60_000);
        System.out.println("NOT KILLED " + appender.getStatistics());
        System.exit(3);
    }
}
