package io.github.lockfreelog.diagnostics;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An immutable snapshot of one appender's counters. The endpoint, the metrics and the tests all
 * read these numbers. At any moment {@code appended = eventsWritten + dropped + inFlight}.
 *
 * @param name appender name
 * @param target where the lines go: {@code file} or {@code console}
 * @param file log file; for the console, the stream ({@code stdout} or {@code stderr})
 * @param journal journal file in use (when the journal is not set, the slot this appender took)
 * @param started whether the appender is running
 * @param bufferSize bytes per buffer
 * @param bufferCount number of buffers
 * @param activeBuffer index of the buffer writers reserve in now
 * @param activeBufferFill bytes reserved in the active buffer
 * @param appended events handed to the appender since start (drops included)
 * @param eventsWritten events written to the log file since start (recovered ones not included)
 * @param bytesWritten bytes written to the log file since start (recovered ones not included)
 * @param inFlight events accepted into the journal and not yet in the log file
 * @param dropped events dropped, all reasons together
 * @param drops events dropped by reason ({@code buffer-full}, {@code timeout}, {@code io}, {@code stopped},
 *        {@code encoding}, {@code too-large})
 * @param truncated events cut to {@code maxEventSize}
 * @param swaps buffer swaps (an active buffer filled and the next became active)
 * @param waits appends that had to wait for a clean buffer
 * @param waitTotalNanos time spent in those waits
 * @param waitMaxNanos longest wait
 * @param recoveredFrames events recovered from the journal at start (left by a process that died)
 * @param recoveredBytes bytes of those events
 * @param skippedFrames damaged or unfinished frames skipped at start, and stalled reservations padded over
 * @param drainLagBytes bytes reserved in the journal and not yet written to the log file
 * @param drainerErrors errors the drainer met (I/O errors, a full disk)
 * @param lastError message of the latest drainer error, or {@code null}
 * @param failingSinceEpochMillis when the drainer's writes began to fail, in milliseconds since the epoch, while
 *        its latest attempt failed (the first failure of the episode: retries do not move it); {@code 0} while
 *        its latest write succeeded or it has met no error
 * @param pageFaults page faults since start
 */
public record AppenderStatistics(String name, String target, String file, String journal, boolean started, int bufferSize,
        int bufferCount, int activeBuffer, long activeBufferFill, long appended, long eventsWritten,
        long bytesWritten, long inFlight, long dropped, Map<String, Long> drops, long truncated, long swaps,
        long waits, long waitTotalNanos, long waitMaxNanos, long recoveredFrames, long recoveredBytes, long skippedFrames,
        long drainLagBytes, long drainerErrors, String lastError, long failingSinceEpochMillis,
        PageFaults pageFaults) {

    public AppenderStatistics {
        drops = Collections.unmodifiableMap(new LinkedHashMap<>(drops)); // in the order of DropReason
    }

    /**
     * The statistics of an appender that is not running: its names and settings, and the events
     * that arrived meanwhile, {@code stoppedDrops}, all dropped with reason {@code stopped}.
     */
    public static AppenderStatistics notStarted(String name, String target, String file, String journal,
            int bufferSize, int bufferCount, long stoppedDrops) {
        Map<String, Long> drops = new LinkedHashMap<>();
        for (DropReason reason : DropReason.values()) {
            drops.put(reason.id(), reason == DropReason.STOPPED ? stoppedDrops : 0L);
        }
        return new AppenderStatistics(name, target, file, journal, false, bufferSize, bufferCount, -1, 0, stoppedDrops, 0, 0, 0,
                stoppedDrops, drops, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, null, 0, PageFaults.UNAVAILABLE);
    }
}
