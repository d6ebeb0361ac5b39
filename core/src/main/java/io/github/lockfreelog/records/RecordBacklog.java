package io.github.lockfreelog.records;

import io.github.lockfreelog.diagnostics.StatusReporter;
import io.github.lockfreelog.drain.DrainOutput;
import io.github.lockfreelog.drain.Drainer;
import io.github.lockfreelog.drain.JournalCounters;
import io.github.lockfreelog.recovery.Recovery;
import io.github.lockfreelog.sink.RecordSink;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * What a record sink must hold before the first event of a new journal, sent by the drainer (never by the start,
 * which therefore never waits for a sink that cannot be reached): first the slot's pending copies, oldest first
 * ({@link RecordRecovery#setAside}), then what processes that died left in other free slots, then one question to
 * the sink (how far it holds the new journal) so that a sink down at start is said at once, by the drainer's one
 * WARN, rather than by the first failed delivery.
 *
 * <p>Why the order: the sink keeps one position per slot (for Kafka, one record per transactional id in the
 * position topic). A delivery of the new journal would replace the position of the journal a pending copy holds;
 * a copy recovered after that would find no position of its own journal and deliver again, from its drain
 * record, a batch that committed just before a crash. So nothing of a later journal goes out while an earlier one
 * of the same slot is pending.
 */
public final class RecordBacklog implements DrainOutput.Backlog {

    private final Path journal;
    private final long journalId;
    private final RecordSink sink;
    private final RecordSink.Factory sinks;
    private final Path firstSlot;
    private final int slots;
    private final long closeTimeoutNanos;
    private final StatusReporter status;
    private final JournalCounters counters;
    private boolean leftoversDone;

    /**
     * The backlog of the slot whose journal is {@code journal} (the new one, of id {@code journalId}), drained into
     * {@code sink}; with several {@code slots} from {@code firstSlot}, free slots are recovered too, each into the
     * sink {@code sinks} opens for it. What is recovered is counted in {@code counters}.
     */
    public RecordBacklog(Path journal, long journalId, RecordSink sink, RecordSink.Factory sinks, Path firstSlot,
            int slots, long closeTimeoutNanos, StatusReporter status, JournalCounters counters) {
        this.journal = journal;
        this.journalId = journalId;
        this.sink = sink;
        this.sinks = sinks;
        this.firstSlot = firstSlot;
        this.slots = slots;
        this.closeTimeoutNanos = closeTimeoutNanos;
        this.status = status;
        this.counters = counters;
    }

    @Override
    public boolean sendNext() throws IOException {
        List<Path> pending = RecordRecovery.pendingOf(journal);
        if (!pending.isEmpty()) {
            count(RecordRecovery.recoverPending(pending.get(0), sink, status));
            return false;
        }
        if (!leftoversDone && slots > 1) {
            count(RecordRecovery.recoverLeftovers(firstSlot, slots, journal, sinks, closeTimeoutNanos, status));
            leftoversDone = true;
            return false;
        }
        sink.committed(journalId); // the sink is there: the journal's own events may go
        return true;
    }

    private void count(Recovery.Result recovered) {
        counters.countRecovered(recovered.recoveredFrames(), recovered.recoveredBytes(), recovered.skippedFrames());
    }
}
