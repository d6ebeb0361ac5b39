package io.github.lockfreelog.logback;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.core.status.Status;
import io.github.lockfreelog.testing.TestAppenders;
import io.github.lockfreelog.testsupport.TestLogback;

/**
 * The process {@link JournalFolderTest} runs as another user: a {@link LockFreeFileAppender} writing
 * {@code <log file>} with its journal set to {@code <journal>}; it logs {@code <lines>} numbered lines, stops, and
 * prints {@code STARTED}, {@code JOURNAL}, {@code WRITTEN} and each status as {@code STATUS <level> <message>}.
 * Arguments: log file, journal, lines.
 */
public final class JournalFolderChild {

    private JournalFolderChild() {
    }

    public static void main(String[] args) {
        LoggerContext context = TestLogback.newContext();
        LockFreeFileAppender appender = TestAppenders.create(context, java.nio.file.Path.of(args[0]), a -> {
            a.setName("CHILD");
            a.setJournal(args[1]);
        });
        appender.start();
        System.out.println("STARTED " + appender.isStarted());
        if (appender.isStarted()) {
            int lines = Integer.parseInt(args[2]);
            for (int i = 0; i < lines; i++) {
                appender.doAppend(new LoggingEvent("child", context.getLogger("child"), Level.INFO, "line " + i, null, null));
            }
            System.out.println("JOURNAL " + appender.getStatistics().journal());
            appender.stop();
            System.out.println("WRITTEN " + appender.getStatistics().eventsWritten());
        }
        String[] levels = {"INFO", "WARN", "ERROR"};
        for (Status status : context.getStatusManager().getCopyOfStatusList()) {
            System.out.println("STATUS " + levels[status.getLevel()] + " " + status.getMessage());
        }
    }
}
