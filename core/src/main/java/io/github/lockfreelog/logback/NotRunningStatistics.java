package io.github.lockfreelog.logback;

import io.github.lockfreelog.diagnostics.AppenderStatistics;
import io.github.lockfreelog.diagnostics.DropReason;
import io.github.lockfreelog.diagnostics.PageFaults;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts the events that arrive while an appender has no engine (its start failed, or was never called) and
 * reports them as that appender's statistics: each one dropped, reason {@code stopped}.
 */
final class NotRunningStatistics {

    private final LongAdder dropped = new LongAdder();

    /** Counts one event dropped for want of an engine; allocates nothing once warm. */
    void countDropped() {
        dropped.increment();
    }

    /** A snapshot for an appender without an engine, with the settings it would start with. */
    AppenderStatistics snapshot(String name, String file, String journal, int bufferSize, int bufferCount) {
        Map<String, Long> drops = new LinkedHashMap<>();
        for (DropReason reason : DropReason.values()) {
            drops.put(reason.id(), 0L);
        }
        long count = dropped.sum();
        drops.put(DropReason.STOPPED.id(), count);
        return new AppenderStatistics(name, file, journal, false, bufferSize, bufferCount, -1, 0, count, 0, 0, 0,
                count, drops, 0, 0, 0, 0, 0, 0, 0, 0, 0, null, 0, PageFaults.UNAVAILABLE);
    }
}
