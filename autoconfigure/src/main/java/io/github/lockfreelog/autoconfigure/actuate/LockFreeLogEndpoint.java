package io.github.lockfreelog.autoconfigure.actuate;

import io.github.lockfreelog.journal.DropReason;
import io.github.lockfreelog.journal.AppenderStatistics;
import io.github.lockfreelog.logback.LockFreeFileAppender;
import io.github.lockfreelog.journal.PageFaults;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;

/**
 * {@code /actuator/lockfreelog}: the counters of every lock-free appender attached to a Logback
 * logger, or, when there is none, why ({@code "logFile": "none"} and a {@code reason});
 * {@code /actuator/lockfreelog/{name}} for one (404 when there is no appender of that name).
 * Field names are part of the project's API (see README).
 */
@Endpoint(id = "lockfreelog")
public class LockFreeLogEndpoint {

    private final LockFreeLogAppenders appenders;

    public LockFreeLogEndpoint(LockFreeLogAppenders appenders) {
        this.appenders = appenders;
    }

    @ReadOperation
    public AppendersDescriptor appenders() {
        List<AppenderDescriptor> result = new ArrayList<>();
        appenders.attachments().forEach((appender, loggers) -> result.add(AppenderDescriptor.of(appenders, appender, loggers)));
        if (result.isEmpty()) {
            return new AppendersDescriptor(result, AppendersDescriptor.NO_LOG_FILE, appenders.whyNone());
        }
        return new AppendersDescriptor(result, null, null);
    }

    @ReadOperation
    public AppenderDescriptor appender(@Selector String name) {
        for (Map.Entry<LockFreeFileAppender, List<String>> entry : appenders.attachments().entrySet()) {
            if (name.equals(entry.getKey().getName())) {
                return AppenderDescriptor.of(appenders, entry.getKey(), entry.getValue());
            }
        }
        return null;
    }

    /**
     * Every lock-free appender, sorted by name; when there is none, why.
     *
     * @param appenders the appenders
     * @param logFile {@value #NO_LOG_FILE} when there is no appender, else {@code null} (left out of the JSON)
     * @param reason why there is no appender ({@link LockFreeLogAppenders#absence()}), else {@code null}
     */
    public record AppendersDescriptor(List<AppenderDescriptor> appenders, String logFile, String reason)
            implements OperationResponseBody {

        /** {@link #logFile()} when no lock-free appender writes a log file. */
        public static final String NO_LOG_FILE = "none";
    }

    /**
     * One appender's settings and counters; counters run from the appender's start.
     *
     * @param name appender name
     * @param autoConfigured whether the starter attached it ({@code false}: declared in the Logback configuration)
     * @param loggers loggers it is attached to
     * @param file log file
     * @param journal journal file in use (this instance's own where several share a log folder; {@code null}
     * when the appender's default is used and it has not started)
     * @param started whether it is running
     * @param bufferSize bytes per buffer
     * @param bufferCount number of buffers
     * @param activeBuffer index of the buffer being filled
     * @param activeBufferFill bytes reserved in the active buffer
     * @param appended events handed to the appender
     * @param eventsWritten events written to the log file
     * @param bytesWritten bytes written to the log file
     * @param inFlight events in the journal, not yet in the log file
     * @param dropped events dropped, all reasons
     * @param drops events dropped by reason: buffer-full, timeout, io, stopped
     * @param truncated events cut to the maximum event size
     * @param swaps buffer swaps
     * @param waits appends that waited for a drained buffer
     * @param waitTotalNanos total time of those waits
     * @param waitMaxNanos longest wait
     * @param recoveredFrames events recovered from the journal at start
     * @param skippedFrames damaged or unfinished frames skipped
     * @param drainLagBytes bytes in the journal not yet in the log file
     * @param drainerErrors errors met by the background thread
     * @param lastError latest of those errors, or {@code null}
     * @param pageFaults page faults since start
     */
    public record AppenderDescriptor(String name, boolean autoConfigured, List<String> loggers, String file,
            String journal, boolean started, int bufferSize, int bufferCount, int activeBuffer, long activeBufferFill,
            long appended, long eventsWritten, long bytesWritten, long inFlight, long dropped, Map<String, Long> drops,
            long truncated, long swaps, long waits, long waitTotalNanos, long waitMaxNanos, long recoveredFrames,
            long skippedFrames, long drainLagBytes, long drainerErrors, String lastError,
            PageFaultsDescriptor pageFaults) implements OperationResponseBody {

        static AppenderDescriptor of(LockFreeLogAppenders appenders, LockFreeFileAppender appender, List<String> loggers) {
            AppenderStatistics s = appender.getStatistics();
            Map<String, Long> drops = new LinkedHashMap<>();
            for (DropReason reason : DropReason.values()) {
                drops.put(reason.id(), s.drops().getOrDefault(reason.id(), 0L));
            }
            return new AppenderDescriptor(appender.getName(), appenders.isAutoConfigured(appender), loggers,
                    s.file(), s.journal(), s.started(), s.bufferSize(), s.bufferCount(), s.activeBuffer(),
                    s.activeBufferFill(), s.appended(), s.eventsWritten(), s.bytesWritten(), s.inFlight(), s.dropped(),
                    drops, s.truncated(), s.swaps(), s.waits(), s.waitTotalNanos(), s.waitMaxNanos(),
                    s.recoveredFrames(), s.skippedFrames(), s.drainLagBytes(), s.drainerErrors(), s.lastError(),
                    PageFaultsDescriptor.of(s.pageFaults()));
        }
    }

    /**
     * Page faults since the appender started.
     *
     * @param available whether the numbers could be read ({@code /proc} present)
     * @param processMinor minor faults of the whole process
     * @param processMajor major faults of the whole process
     * @param drainerMinor minor faults of the appender's background thread
     * @param drainerMajor major faults of the appender's background thread
     */
    public record PageFaultsDescriptor(boolean available, long processMinor, long processMajor, long drainerMinor,
            long drainerMajor) {

        static PageFaultsDescriptor of(PageFaults p) {
            return (p != null) ? new PageFaultsDescriptor(p.available(), p.processMinor(), p.processMajor(),
                    p.drainerMinor(), p.drainerMajor()) : new PageFaultsDescriptor(false, 0, 0, 0, 0);
        }
    }
}
