package io.github.lockfreelog.benchmarks.kafka;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.core.status.Status;
import ch.qos.logback.core.util.FileSize;
import io.github.lockfreelog.diagnostics.AppenderStatistics;
import io.github.lockfreelog.engine.Backpressure;
import io.github.lockfreelog.kafka.LockFreeKafkaAppender;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The process the kafka-journal mode measures: the Kafka sink on a journal of the given size, the broker out of reach
 * (a closed port). It prints its resident memory ({@code /proc/self/status}) at each step, one line each:
 * {@code RSS <step> <VmRSS> <RssAnon> <RssFile> <RssShmem>} in kB, and {@code START <ms> <started>} for the time
 * {@code start()} took.
 *
 * <p>Arguments: journal, buffer size ({@code -}: the default), buffer count ({@code -}), bootstrap servers, percent of
 * the journal to fill, idle seconds, phase. Phase {@code fresh}: start, idle, fill that share of the journal, fill it up
 * (until the first event is dropped: {@code backpressure} is {@code DROP} here), then halt as a crash would, leaving a
 * full journal of undelivered events. Phase {@code restart}: start on that journal, idle, print the journal folder's
 * files, halt.
 */
public final class KafkaJournalChild {

    /** Each event's message: 1,000 bytes. */
    static final String MESSAGE = "j".repeat(1000);

    private KafkaJournalChild() {
    }

    public static void main(String[] args) throws Exception {
        Path journal = Path.of(args[0]);
        String bufferSize = args[1];
        String bufferCount = args[2];
        String bootstrap = args[3];
        int fillPercent = Integer.parseInt(args[4]);
        int idleSeconds = Integer.parseInt(args[5]);
        boolean restart = args[6].equals("restart");
        // the Kafka client's own logging (SLF4J, into Logback's default context): errors only (the broker is out of
        // reach on purpose: its warnings say so every few hundred milliseconds)
        ((LoggerContext) org.slf4j.LoggerFactory.getILoggerFactory()).getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME)
                .setLevel(Level.ERROR);

        LoggerContext context = new LoggerContext();
        context.setName("kafka-journal");
        LockFreeKafkaAppender appender = new LockFreeKafkaAppender();
        appender.setContext(context);
        appender.setName("KAFKA");
        appender.setTopic("journal-size");
        appender.setJournal(journal.toString());
        appender.addProducerConfig("bootstrap.servers=" + bootstrap);
        appender.setTransactionalIdPrefix("journal-size");
        if (!bufferSize.equals("-")) {
            appender.setBufferSize(FileSize.valueOf(bufferSize));
        }
        if (!bufferCount.equals("-")) {
            appender.setBufferCount(Integer.parseInt(bufferCount));
        }
        appender.setBackpressure(Backpressure.DROP); // a full journal drops: how the fill knows it is full
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(context);
        encoder.setPattern("%msg");
        encoder.start();
        appender.setEncoder(encoder);
        Logger logger = context.getLogger("journal");
        logger.setAdditive(false);
        logger.addAppender(appender);

        rss("before-start");
        long started = System.nanoTime();
        appender.start();
        long startNanos = System.nanoTime() - started;
        rss("after-start");
        System.out.printf(Locale.ROOT, "START %.1f %s%n", startNanos / 1e6, appender.isStarted());
        if (!appender.isStarted()) {
            System.out.println("FAILED " + context.getStatusManager().getCopyOfStatusList().stream().map(Status::toString)
                    .collect(Collectors.joining(" | ")));
            System.exit(2);
        }
        AppenderStatistics statistics = appender.getStatistics();
        long journalBytes = (long) statistics.bufferSize() * statistics.bufferCount();
        System.out.println("JOURNAL " + statistics.bufferSize() + " " + statistics.bufferCount() + " " + journalBytes);
        Thread.sleep(idleSeconds * 1000L);
        rss("after-idle");
        if (restart) {
            System.out.println("RECOVERED " + appender.getStatistics().recoveredFrames());
            files(journal.getParent());
        } else {
            fill(logger, appender, journalBytes * fillPercent / 100, "after-fill");
            fill(logger, appender, Long.MAX_VALUE, "full");
        }
        System.out.println("HALT");
        System.out.flush();
        Runtime.getRuntime().halt(0); // as a crash: the journal stays as it is, its events undelivered
    }

    /** Logs events until {@code bytes} are in the journal undelivered, or until one is dropped (the journal is full). */
    private static void fill(Logger logger, LockFreeKafkaAppender appender, long bytes, String step) throws IOException {
        long started = System.nanoTime();
        long events = 0;
        AppenderStatistics statistics = appender.getStatistics();
        while (statistics.drainLagBytes() < bytes && statistics.dropped() == 0) {
            for (int i = 0; i < 100; i++) {
                logger.info(MESSAGE);
            }
            events += 100;
            statistics = appender.getStatistics();
        }
        System.out.printf(Locale.ROOT, "FILL %s %d %d %.1f %d%n", step, events, statistics.drainLagBytes(),
                (System.nanoTime() - started) / 1e6, statistics.dropped());
        rss(step);
    }

    /** {@code RSS <step> VmRSS RssAnon RssFile RssShmem} (kB), from {@code /proc/self/status}; -1 where absent. */
    static void rss(String step) throws IOException {
        long[] kb = {-1, -1, -1, -1};
        String[] names = {"VmRSS:", "RssAnon:", "RssFile:", "RssShmem:"};
        Path status = Path.of("/proc/self/status");
        if (Files.isReadable(status)) {
            for (String line : Files.readAllLines(status)) {
                for (int i = 0; i < names.length; i++) {
                    if (line.startsWith(names[i])) {
                        kb[i] = Long.parseLong(line.substring(names[i].length()).trim().split("\\s+")[0]);
                    }
                }
            }
        }
        System.out.printf(Locale.ROOT, "RSS %s %d %d %d %d%n", step, kb[0], kb[1], kb[2], kb[3]);
    }

    /** {@code FILES name=bytes ...}: what the journal's folder holds (the journal, a pending copy, its lock). */
    private static void files(Path folder) throws IOException {
        try (Stream<Path> files = Files.list(folder)) {
            System.out.println("FILES " + files.sorted().map(f -> {
                try {
                    return f.getFileName() + "=" + Files.size(f);
                } catch (IOException e) {
                    return f.getFileName() + "=?";
                }
            }).collect(Collectors.joining(" ")));
        }
    }
}
