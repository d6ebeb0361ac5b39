package io.github.lockfreelog.logback;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.core.spi.ContextAware;
import io.github.lockfreelog.diagnostics.AppenderStatistics;
import io.github.lockfreelog.diagnostics.Printable;
import java.util.function.Consumer;

/**
 * Tells what recovery found at start: after recovering events from the journal of an unclean stop, the first line
 * the appender writes says so, as one INFO event encoded like every other, so that whoever reads the log sees where
 * the recovered lines end and why they are there; a status says it too, and says when unfinished events were skipped.
 */
final class RecoveryReport {

    private RecoveryReport() {
    }

    /**
     * @param recovered the statistics of the engine just started
     * @param appender where the statuses go, and whose context holds the logger {@link LockFreeAppenderBase#RECOVERY_LOGGER}
     * @param name the appender's name, for the statuses
     * @param log writes an event past any filter (the appender's {@code append})
     */
    static void report(AppenderStatistics recovered, ContextAware appender, String name, Consumer<ILoggingEvent> log) {
        String journalFile = Printable.text(recovered.journal()); // a name in the log: shown, never a line of its own
        if (recovered.recoveredFrames() == 0) {
            if (recovered.skippedFrames() > 0) {
                appender.addInfo("Skipped " + recovered.skippedFrames() + " unfinished event(s) in the journal " + journalFile
                        + " of an unclean stop (appender \"" + name + "\")");
            }
            return;
        }
        String message = "Recovered " + recovered.recoveredFrames() + " event(s) from the journal(s) of an unclean stop"
                + (recovered.skippedFrames() > 0
                        ? "; skipped " + recovered.skippedFrames() + " unfinished event(s) that no caller had finished"
                        : "") + "; journal in use: " + journalFile;
        appender.addInfo(message + " (appender \"" + name + "\")");
        if (appender.getContext() instanceof LoggerContext loggerContext) {
            Logger logger = loggerContext.getLogger(LockFreeAppenderBase.RECOVERY_LOGGER);
            log.accept(new LoggingEvent(Logger.FQCN, logger, Level.INFO, message, null, null)); // past any filter: always written
        }
    }
}
