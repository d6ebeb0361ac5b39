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
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * One instance of an application, for {@link SharedLogFileTest}: a process that writes the same
 * log file as others. Arguments: log file, instance number, mode, then {@code key=value} options
 * ({@code lines}, {@code pauseMicros}, {@code ack}, {@code pattern}, {@code maxFileSize}, {@code journal},
 * {@code same}: {@code true} to write the very lines instance 0 writes, {@code tick}: {@code true} to
 * write the one line {@code tick} again and again, {@code failAfterMillis}: every
 * write to the log file fails once that long has passed since {@code GO}, {@code stallAfterMillis}: the
 * drainer's next write to the log file once that long has passed since {@code GO} prints {@code STALLED}
 * and never returns, so that acknowledged events wait in the journal when the process is killed).
 *
 * <ul>
 *   <li>{@code write}: starts the appender, prints {@code STARTED journal=<journal in use>
 *       recovered=<n>}, waits for {@code GO} on standard input, then four threads log
 *       {@link CrashChild#line numbered lines} ({@code lines} each, or until {@code STOP} arrives
 *       on standard input, or until the process is killed), each storing the number of its latest
 *       acknowledged line in its slot of the memory-mapped {@code ack} file (as {@link CrashChild}
 *       does), and pausing {@code pauseMicros} (default 50) after every 64 lines; then the
 *       appender stops and the process prints {@code DONE dropped=<n>}.</li>
 *   <li>{@code recover}: starts the appender (recovering), prints {@code STARTED ...}, stops it.</li>
 *   <li>{@code hold}: starts the appender, prints {@code STARTED ...}, and stops it once standard
 *       input closes.</li>
 * </ul>
 */
public final class SharedLogChild {


    /** When {@code GO} arrived ({@link System#nanoTime()}), 0 before. */
    private static volatile long goNanos;

    private SharedLogChild() {
    }

    public static void main(String[] args) throws Exception {
        Path log = Path.of(args[0]);
        int instance = Integer.parseInt(args[1]);
        String mode = args[2];
        Map<String, String> options = new HashMap<>();
        for (int i = 3; i < args.length; i++) {
            int eq = args[i].indexOf('=');
            options.put(args[i].substring(0, eq), args[i].substring(eq + 1));
        }
        LoggerContext context = TestLogback.newContext();
        LockFreeFileAppender appender = TestAppenders.create(context, log, a -> {
            a.setName("SHARED-" + instance);
            a.setMaxBlockTime(Duration.valueOf("60 seconds"));
            a.setFlushInterval(Duration.valueOf("20 milliseconds"));
            if (options.containsKey("journal")) {
                a.setJournal(options.get("journal"));
            }
            if (options.containsKey("failAfterMillis") || options.containsKey("stallAfterMillis")) {
                long failAfter = afterGo(options, "failAfterMillis");
                long stallAfter = afterGo(options, "stallAfterMillis");
                a.setSinkDecorator(sink -> new ForwardingLogSink(sink) {
                    @Override
                    public int write(ByteBuffer src) throws IOException {
                        long go = goNanos;
                        if (go != 0 && System.nanoTime() - go > failAfter) {
                            throw new IOException("File too large (simulated EFBIG)");
                        }
                        if (go != 0 && System.nanoTime() - go > stallAfter) {
                            System.out.println("STALLED"); // holding acknowledged events that are not in the log
                            System.out.flush();
                            for (;;) {
                                LockSupport.park(); // a drainer stuck in its write until the process is killed
                            }
                        }
                        return super.write(src);
                    }
                });
            }
            if (options.containsKey("pattern")) {
                a.setFileNamePattern(options.get("pattern"));
                a.setMaxFileSize(FileSize.valueOf(options.getOrDefault("maxFileSize", "64KB")));
            }
        });
        appender.start();
        if (!appender.isStarted()) {
            System.out.println("FAILED " + TestLogback.statuses(context).replace('\n', '|'));
            System.exit(2);
        }
        AppenderStatistics start = appender.getStatistics();
        System.out.println("STARTED journal=" + start.journal() + " recovered=" + start.recoveredFrames());
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        switch (mode) {
            case "recover" -> appender.stop();
            case "hold" -> {
                while (in.readLine() != null) {
                    // until standard input closes
                }
                appender.stop();
            }
            case "write" -> write(appender, context, instance, options, in);
            default -> throw new IllegalArgumentException(mode);
        }
        System.out.println("STOPPED");
        System.out.flush();
    }

    /** The option {@code key}, in milliseconds, as nanoseconds; {@link Long#MAX_VALUE} when it is not given. */
    private static long afterGo(Map<String, String> options, String key) {
        return options.containsKey(key) ? TimeUnit.MILLISECONDS.toNanos(Long.parseLong(options.get(key))) : Long.MAX_VALUE;
    }

    private static void write(LockFreeFileAppender appender, LoggerContext context, int instance,
            Map<String, String> options, BufferedReader in) throws Exception {
        long lines = Long.parseLong(options.getOrDefault("lines", String.valueOf(Long.MAX_VALUE)));
        long pauseNanos = Long.parseLong(options.getOrDefault("pauseMicros", "50")) * 1000; // after every 64 lines
        AckFile acks = options.containsKey("ack") ? AckFile.create(Path.of(options.get("ack")), CrashChild.THREADS) : null;
        System.out.println("READY");
        System.out.flush();
        if (!"GO".equals(in.readLine())) {
            throw new IllegalStateException("expected GO");
        }
        goNanos = System.nanoTime();
        int writer = Boolean.parseBoolean(options.get("same")) ? 0 : instance;
        boolean tick = Boolean.parseBoolean(options.get("tick"));
        AtomicBoolean stop = new AtomicBoolean();
        AckFile ackSlots = acks;
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < CrashChild.THREADS; t++) {
            int id = t;
            Thread thread = new Thread(() -> {
                for (long n = 0; n < lines && !stop.get(); n++) {
                    appender.doAppend(TestLogback.event(context, Level.INFO, tick ? "tick" : CrashChild.line(writer, id, n)));
                    if (ackSlots != null) {
                        ackSlots.acknowledge(id, n);
                    }
                    if (n % 64 == 63) {
                        LockSupport.parkNanos(pauseNanos);
                    }
                }
            }, "shared-writer-" + t);
            thread.setDaemon(true);
            threads.add(thread);
            thread.start();
        }
        Thread stopper = new Thread(() -> {
            try {
                for (String line; (line = in.readLine()) != null;) {
                    if (line.equals("STOP")) {
                        stop.set(true);
                        return;
                    }
                }
            } catch (java.io.IOException e) {
                // the parent went away
            }
        });
        stopper.setDaemon(true);
        stopper.start();
        for (Thread thread : threads) {
            thread.join();
        }
        appender.stop();
        System.out.println("DONE dropped=" + appender.getStatistics().dropped());
    }
}
