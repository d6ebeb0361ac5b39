package io.github.lockfreelog.engine;

import static io.github.lockfreelog.term.JournalDescriptor.tailOffset;

import io.github.lockfreelog.diagnostics.AppenderStatistics;
import io.github.lockfreelog.diagnostics.DropReason;
import io.github.lockfreelog.diagnostics.PageFaults;
import io.github.lockfreelog.diagnostics.ProcStat;
import io.github.lockfreelog.drain.ActiveJournal;
import io.github.lockfreelog.drain.Drainer;
import io.github.lockfreelog.drain.EngineState;
import io.github.lockfreelog.drain.JournalCounters;
import io.github.lockfreelog.term.Journal;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Builds an engine's {@link AppenderStatistics}, the one place that does: counters, drops by
 * reason, the active buffer's fill and the drainer's lag read from the mapping, page faults.
 */
final class EngineStatistics {

    private final EngineConfig config;
    private final EngineState state;
    private final Drainer drainer;
    private final long[] processFaultsAtStart = ProcStat.processFaults();

    EngineStatistics(EngineConfig config, EngineState state, Drainer drainer) {
        this.config = config;
        this.state = state;
        this.drainer = drainer;
    }

    AppenderStatistics snapshot() {
        JournalCounters c = state.counters;
        // written and dropped before appended, so that inFlight is never negative
        long written = c.eventsWritten();
        long bytes = c.bytesWritten();
        Map<String, Long> drops = new LinkedHashMap<>();
        long dropped = 0;
        for (DropReason reason : DropReason.values()) {
            long n = c.drops[reason.ordinal()].sum() + (reason == DropReason.IO ? c.lateIoDrops() : 0);
            drops.put(reason.id(), n);
            dropped += n;
        }
        long appended = c.appended.sum();
        int activeBuffer = -1;
        long fill = 0;
        long lag = 0;
        state.enterMapping();
        ActiveJournal current = state.active(); // read after counting in: see EngineState.nobodyInside()
        try {
            if (state.isMapped()) {
                Journal journal = current.journal;
                long term = journal.activeTermCountAcquire();
                activeBuffer = (int) (term % config.bufferCount());
                fill = Math.min(tailOffset(journal.rawTailVolatile(activeBuffer)), journal.bufferSize()); // past the end: full
                lag = drainer.lag(current, term, fill);
            }
        } catch (Throwable e) {
            activeBuffer = -1; // a fault in mapped memory: the drainer reports it
        } finally {
            state.exitMapping();
        }
        Path journalPath = current.journal.path() != null ? current.journal.path() : config.journalFile();
        return new AppenderStatistics(config.name(), config.target().id(), config.logFile().toString(),
                journalPath.toString(),
                state.isRunning(), config.bufferSize(), config.bufferCount(), activeBuffer, fill, appended, written, bytes,
                appended - written - dropped, dropped, drops, c.truncated.sum(), c.swaps.sum(), c.waits.sum(),
                c.waitTotalNanos.sum(), c.waitMaxNanos.get(), c.recoveredFrames(), c.recoveredBytes(),
                c.skippedFrames(), lag, c.drainerErrors(), c.lastError(), c.failingSinceEpochMillis(), pageFaults());
    }

    private PageFaults pageFaults() {
        long[] now = ProcStat.processFaults();
        if (now == null || processFaultsAtStart == null) {
            return PageFaults.UNAVAILABLE;
        }
        long[] drainerFaults = drainer.faultsSinceStart();
        return new PageFaults(true, now[0] - processFaultsAtStart[0], now[1] - processFaultsAtStart[1],
                drainerFaults == null ? 0 : drainerFaults[0], drainerFaults == null ? 0 : drainerFaults[1]);
    }
}
