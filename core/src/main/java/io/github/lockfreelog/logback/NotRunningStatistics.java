package io.github.lockfreelog.logback;

import io.github.lockfreelog.diagnostics.AppenderStatistics;
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
    AppenderStatistics snapshot(String name, String target, String file, String journal, int bufferSize,
            int bufferCount) {
        return AppenderStatistics.notStarted(name, target, file, journal, bufferSize, bufferCount, dropped.sum());
    }
}
