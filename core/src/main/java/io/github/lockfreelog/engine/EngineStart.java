package io.github.lockfreelog.engine;

import io.github.lockfreelog.diagnostics.StatusReporter;
import io.github.lockfreelog.drain.ActiveJournal;
import io.github.lockfreelog.drain.DrainOutput;
import io.github.lockfreelog.drain.Drainer;
import io.github.lockfreelog.drain.EngineState;
import io.github.lockfreelog.drain.JournalCounters;
import io.github.lockfreelog.drain.JournalReplacer;
import io.github.lockfreelog.journal.JournalLock;
import io.github.lockfreelog.journal.JournalSlots;
import io.github.lockfreelog.journal.WriteLedger;
import io.github.lockfreelog.records.RecordBacklog;
import io.github.lockfreelog.records.RecordLog;
import io.github.lockfreelog.records.RecordRecovery;
import io.github.lockfreelog.recovery.Recovery;
import io.github.lockfreelog.sink.LogSink;
import io.github.lockfreelog.sink.LogTarget;
import io.github.lockfreelog.sink.RecordSink;
import io.github.lockfreelog.term.Journal;
import io.github.lockfreelog.term.JournalFiles;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Brings a journal into use, at start and when the drainer finds the one in use gone from disk:
 * takes a free slot and its locks, opens the log file's write ledger, recovers into the sink what
 * a process that died left in the slot (and, at start, in other free slots), and creates the
 * journal anew. The sink is a log file (or the console), or a record sink: each is a {@link Target}.
 * A record sink may be out of reach (a broker down), so its start asks it nothing: what a process left in
 * the slot is set aside as a pending journal, and the drainer delivers it, and other free slots, before the new
 * journal's events ({@link RecordBacklog}); a log file is local and recovered here, at once.
 */
final class EngineStart implements JournalReplacer {

    private final EngineConfig config;
    /** The first slot and the slot count asked for: where a replacement journal is taken. */
    private final Path firstSlot;
    private final int slots;
    private final Target sink;
    private final StatusReporter status;
    private final JournalCounters counters;

    private EngineStart(EngineConfig config, Path firstSlot, int slots, Target sink, StatusReporter status,
            JournalCounters counters) {
        this.counters = counters;
        this.config = config;
        this.firstSlot = firstSlot;
        this.slots = slots;
        this.sink = sink;
        this.status = status;
    }

    /** Takes a slot, recovers, creates the journal and starts an engine on it; once (the caller retries an interrupted start). */
    static JournalEngine start(EngineConfig requested, StatusReporter status, LogSink.Factory sinkFactory)
            throws IOException {
        return start(requested, status, slot -> new FileTarget(sinkFactory.open()));
    }

    /** As {@link #start(EngineConfig, StatusReporter, LogSink.Factory)}, draining into the record sinks of {@code sinks}. */
    static JournalEngine startRecords(EngineConfig requested, StatusReporter status, RecordSink.Factory sinks)
            throws IOException {
        return start(requested, status, slot -> new RecordTarget(sinks.open(slot), sinks, requested.stopTimeoutNanos()));
    }

    private static JournalEngine start(EngineConfig requested, StatusReporter status, TargetFactory targets)
            throws IOException {
        JournalSlots.Taken taken = JournalSlots.take(requested.journalFile(), requested.journalSlots(), status);
        EngineConfig config = requested.withJournal(taken.journal());
        // Locks on the journal slot, taken once here at start and held for the engine's life
        // (released when the engine closes); append never touches them.
        JournalLock lock = taken.lock(); // file locks of start-up, never taken or waited for on append
        int entry = WriteLedger.entryOf(taken.slot(), taken.journal());
        Target sink = null;
        Journal journal = null;
        WriteLedger ledger = null;
        try {
            ledger = openLedger(config, requested.journalFile(), requested.journalSlots(), status);
            sink = targets.open(taken.slot());
            Recovery.Result recovered = sink.atStart(lock, ledger == null ? null : ledger.entry(entry), status);
            if (requested.journalSlots() > 1) {
                recovered = recovered.plus(sink.recoverLeftovers(requested.journalFile(), requested.journalSlots(),
                        config.journalFile(), ledger, status));
            }
            journal = JournalFiles.create(config.journalFile(), lock.journalChannel(), config.bufferCount(), config.bufferSize());
            EngineState state = new EngineState(new ActiveJournal(journal, lock, ledger, entry));
            EngineStart replacer = new EngineStart(config, requested.journalFile(), requested.journalSlots(), sink, status,
                    state.counters);
            replacer.count(recovered);
            DrainOutput.Backlog backlog = sink.backlog(config.journalFile(), journal.journalId(), requested.journalFile(),
                    requested.journalSlots(), status, state.counters);
            JournalEngine engine = new JournalEngine(config, state, sink.outputs(), backlog, sink::close, status,
                    replacer);
            engine.startDrainer();
            return engine;
        } catch (IOException | RuntimeException | Error e) {
            if (journal != null) {
                journal.close();
            }
            if (sink != null) {
                sink.closeNow();
            }
            if (ledger != null) {
                ledger.close();
            }
            lock.close();
            throw e;
        }
    }

    /**
     * The log file's write ledger, for an instance of the {@code slots} slots of {@code firstSlot}; without one
     * (it cannot be made) recovery searches as before, and a WARN says so. The console has none: nothing is
     * read back from it.
     */
    private static WriteLedger openLedger(EngineConfig config, Path firstSlot, int slots, StatusReporter status) {
        if (config.target() != LogTarget.FILE) {
            return null;
        }
        Path logFile = config.logFile();
        try {
            return WriteLedger.open(logFile, firstSlot, slots);
        } catch (IOException | RuntimeException e) {
            status.warn("the write ledger " + WriteLedger.fileOf(logFile) + " could not be opened (" + e + "); a write"
                    + " that a crash cuts off is searched for in the log without regard to other instances' writes", null);
            return null;
        }
    }

    private void count(Recovery.Result recovered) {
        counters.countRecovered(recovered.recoveredFrames(), recovered.recoveredBytes(), recovered.skippedFrames());
    }

    /**
     * Builds a journal in place of {@code gone}, whose file is gone from disk (its folder was
     * deleted, or the name now stands for another file). The drainer calls this, then makes it the
     * active one, retires {@code gone} and drains what it still holds. The new journal takes a free
     * slot as at start (most often the same name).
     */
    @Override
    public ActiveJournal replace(ActiveJournal gone) throws IOException {
        gone.lock.releaseLockFile(); // its file is gone too, or is the slot's to take again
        // File locks of the new slot, taken here by the drainer (as at start), held until the engine
        // closes; callers never take or wait for them.
        JournalSlots.Taken taken = JournalSlots.take(firstSlot, slots, status);
        JournalLock lock = taken.lock(); // the drainer's, taken here; callers never take or wait for it
        WriteLedger ledger = openLedger(config, firstSlot, slots, status); // the old one went with its folder, most likely
        int entry = WriteLedger.entryOf(taken.slot(), taken.journal());
        try {
            // the slot taken may hold what a killed instance left: recovered before it is made anew,
            // as at start (the drainer, which calls this, owns the sink)
            count(sink.recover(lock, ledger == null ? null : ledger.entry(entry), status));
            Journal journal = JournalFiles.create(taken.journal(), lock.journalChannel(), config.bufferCount(),
                    config.bufferSize());
            return new ActiveJournal(journal, lock, ledger, entry);
        } catch (IOException | RuntimeException | Error e) {
            if (ledger != null) {
                ledger.close();
            }
            lock.close(); // releases the file locks just taken; no caller holds or waits for them
            throw e;
        }
    }

    /** Opens the target of the slot taken. */
    @FunctionalInterface
    private interface TargetFactory {
        Target open(int slot) throws IOException;
    }

    /** Where an engine's events go, as start-up and the drainer need it: the log file (or console), or records. */
    private interface Target {
        /** Recovers what a process that died left in the slot taken, now: the drainer calls this when it replaces a journal. */
        Recovery.Result recover(JournalLock lock, WriteLedger.Entry ledger, StatusReporter status) throws IOException;

        /** What start does with what a process that died left in the slot taken: recovers it, or sets it aside. */
        default Recovery.Result atStart(JournalLock lock, WriteLedger.Entry ledger, StatusReporter status)
                throws IOException {
            return recover(lock, ledger, status);
        }

        /** What start does with other free slots: recovers them, or leaves them to the backlog. */
        Recovery.Result recoverLeftovers(Path first, int slots, Path own, WriteLedger ledger, StatusReporter status)
                throws IOException;

        /** What the drainer sends before the new journal's events; nothing unless recovery was left to it. */
        default DrainOutput.Backlog backlog(Path journal, long journalId, Path first, int slots, StatusReporter status,
                JournalCounters counters) {
            return DrainOutput.Backlog.NONE;
        }

        DrainOutput.Factory outputs();

        void close(long timeoutNanos) throws IOException;

        /** Closes the sink after a start that failed. */
        void closeNow() throws IOException;
    }

    /** A log file or the console: bytes written through a {@code DrainLog}, recovered by content. */
    private record FileTarget(LogSink sink) implements Target {
        @Override
        public Recovery.Result recover(JournalLock lock, WriteLedger.Entry ledger, StatusReporter status)
                throws IOException {
            return Recovery.recover(lock, sink, ledger, status);
        }

        @Override
        public Recovery.Result recoverLeftovers(Path first, int slots, Path own, WriteLedger ledger,
                StatusReporter status) throws IOException {
            return Recovery.recoverLeftovers(first, slots, own, sink, ledger, status);
        }

        @Override
        public DrainOutput.Factory outputs() {
            return Drainer.fileOutputs(sink);
        }

        @Override
        public void close(long timeoutNanos) throws IOException {
            sink.close(timeoutNanos);
        }

        @Override
        public void closeNow() throws IOException {
            sink.close();
        }
    }

    /**
     * A record sink: batches delivered with their position, recovered after what the sink holds. Its sink may be
     * out of reach (a broker down) for as long as it likes, so nothing at start asks it: the slot's journal is set
     * aside as a pending copy, and the drainer delivers the copies and free slots first ({@link RecordBacklog}).
     */
    private record RecordTarget(RecordSink sink, RecordSink.Factory sinks, long closeTimeoutNanos) implements Target {
        @Override
        public Recovery.Result recover(JournalLock lock, WriteLedger.Entry ledger, StatusReporter status)
                throws IOException {
            return RecordRecovery.recoverWithPending(lock, sink, status);
        }

        @Override
        public Recovery.Result atStart(JournalLock lock, WriteLedger.Entry ledger, StatusReporter status)
                throws IOException {
            RecordRecovery.setAside(lock, status);
            return Recovery.Result.NONE;
        }

        @Override
        public Recovery.Result recoverLeftovers(Path first, int slots, Path own, WriteLedger ledger,
                StatusReporter status) {
            return Recovery.Result.NONE; // the backlog's
        }

        @Override
        public DrainOutput.Backlog backlog(Path journal, long journalId, Path first, int slots, StatusReporter status,
                JournalCounters counters) {
            return new RecordBacklog(journal, journalId, sink, sinks, first, slots, closeTimeoutNanos, status,
                    counters);
        }

        @Override
        public DrainOutput.Factory outputs() {
            return RecordLog.factory(sink);
        }

        @Override
        public void close(long timeoutNanos) throws IOException {
            sink.close(timeoutNanos);
        }

        @Override
        public void closeNow() throws IOException {
            sink.close(0);
        }
    }
}
