package io.github.lockfreelog.kafka;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.core.status.Status;
import ch.qos.logback.core.util.Duration;
import ch.qos.logback.core.util.FileSize;
import io.github.lockfreelog.testsupport.AckFile;
import io.github.lockfreelog.testsupport.TestLogback;
import java.nio.file.Path;
import java.util.concurrent.locks.LockSupport;

/**
 * The process that {@link KafkaCrashTest} halts at a crash point or kills with SIGKILL. Arguments: bootstrap
 * servers, topic, journal, ack file, run, mode ({@code burst}, {@code steady}, {@code paced:<events a second per
 * thread>} or {@code recover}), and optionally
 * {@code transactional} ({@code true}, the default, or {@code false}); a crash point comes as the system property
 * {@code lockfreelog.crashPoint}.
 *
 * <p>In {@code burst} and {@code steady} modes four threads log numbered events ({@link Events#event} of thread
 * {@code run * THREADS + t}), {@code burst} as fast as the journal takes them, {@code steady} about two a
 * millisecond each; after each {@code doAppend} returns, the thread says so in its slot of an {@link AckFile} (the page
 * cache outlives the process), so the parent can tell after the death which events were acknowledged. A thread only logs event {@code n + 1} after it acknowledged
 * {@code n}: no event beyond the acknowledged one and the next was ever attempted. In {@code recover} mode the
 * appender starts (recovering what the dead process left), stops, and the process exits.
 */
public final class KafkaCrashChild {

    static final int THREADS = 4;
    /** No thread logs more than this many events (a run that is never halted still ends). */
    static final int MAX_EVENTS = 25_000;
    static final String MARKER_PREFIX = "restart marker ";
    /** Bytes of each journal buffer: a batch, delivered from one term, holds at most this many bytes of frames. */
    static final int BUFFER_SIZE = 64 * 1024;

    private KafkaCrashChild() {
    }

    public static void main(String[] args) throws Exception {
        String bootstrap = args[0];
        String topic = args[1];
        Path journal = Path.of(args[2]);
        Path ackFile = Path.of(args[3]);
        int run = Integer.parseInt(args[4]);
        String mode = args[5];
        boolean transactional = args.length < 7 || Boolean.parseBoolean(args[6]);
        LoggerContext context = TestLogback.newContext();
        if (Boolean.getBoolean("lockfreelog.printStatus")) {
            // the appender's warnings and errors, each as it comes, for a test that reports what the sink went through
            long born = System.currentTimeMillis();
            context.getStatusManager().add(status -> {
                if (status.getLevel() >= ch.qos.logback.core.status.Status.WARN) {
                    System.out.println("STATUS " + (status.getTimestamp() - born) + " ms "
                            + status.getMessage().replace('\n', ' '));
                }
            });
        }
        LockFreeKafkaAppender appender = appender(context, bootstrap, topic, journal, transactional);
        long startNanos = System.nanoTime();
        appender.start();
        if (!appender.isStarted()) {
            System.out.println("FAILED " + TestLogback.statuses(context).replace('\n', '|'));
            System.exit(2);
        }
        System.out.println("RECOVERED " + appender.getStatistics().recoveredFrames() + " (start took "
                + (System.nanoTime() - startNanos) / 1_000_000 + " ms)");
        if (mode.equals("recover")) {
            appender.stop();
            System.out.println("STOPPED");
            System.out.flush();
            return;
        }
        boolean steady = mode.equals("steady");
        // paced:<n>: each thread logs n events a second, on a schedule (a load that a cluster test keeps up for a while)
        long paceNanos = mode.startsWith("paced:") ? 1_000_000_000L / Integer.parseInt(mode.substring(6)) : 0;
        AckFile acks = AckFile.create(ackFile, THREADS);
        Logger logger = LockFreeKafkaAppenderTest.logger(context, appender);
        for (int t = 0; t < THREADS; t++) {
            int slot = t;
            int id = run * THREADS + t;
            Thread thread = new Thread(() -> {
                long start = System.nanoTime();
                for (int n = 0; n < MAX_EVENTS; n++) {
                    logger.info(Events.event(id, n));
                    acks.acknowledge(slot, n);
                    if (steady && n % 2 == 1) {
                        LockSupport.parkNanos(1_000_000);
                    } else if (paceNanos > 0) {
                        LockSupport.parkNanos(start + (n + 1) * paceNanos - System.nanoTime());
                    }
                }
            }, "crash-caller-" + t);
            thread.setDaemon(true);
            thread.start();
        }
        System.out.println("READY");
        System.out.flush();
        Thread.sleep(paceNanos > 0 ? 300_000 : 60_000); // the parent kills us, or a crash point halts us, long before this
        System.out.println("NOT HALTED " + appender.getStatistics());
        System.exit(3);
    }

    /**
     * The appender every run of a case uses: the case's journal and, {@code transactional}, transactional id prefix
     * (so that a restart fences the producer of the process it replaces), else transactions off; small buffers
     * ({@link #BUFFER_SIZE}), frequent drains, callers that wait for room rather than drop.
     */
    static LockFreeKafkaAppender appender(LoggerContext context, String bootstrap, String topic, Path journal,
            boolean transactional) {
        LockFreeKafkaAppender appender = new LockFreeKafkaAppender();
        appender.setContext(context);
        appender.setName("KAFKA");
        appender.setTopic(topic);
        appender.setJournal(journal.toString());
        appender.addProducerConfig("bootstrap.servers=" + bootstrap);
        if (transactional) {
            appender.setTransactionalIdPrefix("crash-" + topic);
        } else {
            appender.setTransactional(false);
        }
        appender.setBufferSize(new FileSize(BUFFER_SIZE));
        appender.setBufferCount(3);
        appender.setFlushInterval(Duration.valueOf("20 milliseconds"));
        appender.setMaxBlockTime(Duration.valueOf("60 seconds"));
        appender.setEncoder(LockFreeKafkaAppenderTest.encoder(context));
        return appender;
    }

    static String marker(int run) {
        return MARKER_PREFIX + run;
    }
}
