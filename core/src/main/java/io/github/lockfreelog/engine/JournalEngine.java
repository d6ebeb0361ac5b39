package io.github.lockfreelog.engine;

import static io.github.lockfreelog.term.JournalDescriptor.*;

import io.github.lockfreelog.diagnostics.AppenderStatistics;
import io.github.lockfreelog.diagnostics.DropReason;
import io.github.lockfreelog.diagnostics.StatusReporter;
import io.github.lockfreelog.drain.ActiveJournal;
import io.github.lockfreelog.drain.DrainOutput;
import io.github.lockfreelog.drain.Drainer;
import io.github.lockfreelog.drain.EngineState;
import io.github.lockfreelog.drain.JournalCounters;
import io.github.lockfreelog.files.Uninterruptible;
import io.github.lockfreelog.sink.FileLogSink;
import io.github.lockfreelog.sink.LogSink;
import io.github.lockfreelog.sink.RecordSink;
import io.github.lockfreelog.term.Journal;
import io.github.lockfreelog.term.TermAppender;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.UnaryOperator;

/**
 * The lock-free engine's façade and the caller's path: callers {@link #append} encoded events into
 * the mapped journal through a {@link TermAppender} (one fetch-and-add reserves their space); a
 * {@link Drainer} thread moves committed bytes to the log file. When the active buffer is full, a
 * caller rotates to the next one if the drainer has cleaned it, else follows the
 * {@link Backpressure} policy ({@link NextBufferWait}). Start-up is {@link EngineStart}'s, stop {@link EngineStop}'s,
 * statistics {@link EngineStatistics}'; callers and the drainer share an {@link EngineState}.
 */
public final class JournalEngine {

    static final byte[] TRUNCATION_MARKER = (" [lockfreelog: event truncated]" + System.lineSeparator())
            .getBytes(StandardCharsets.US_ASCII);

    static {
        // Classes the caller's path needs are loaded here, with the engine: a class first loaded inside
        // append holds the class loader's monitor there, which pins a virtual caller to its carrier.
        VirtualThreads.isCurrent();
        BackOff.pause(0, 0);
        TermAppender.Commit.values();
        TermAppender.Rotation.values();
    }

    private final EngineState state;
    private final JournalCounters counters;
    /** The two counters every call writes, held here so that a call that neither swaps nor drops never reads {@link JournalCounters}. */
    private final LongAdder appended;
    private final LongAdder exited;
    private final int maxEventSize;
    private final Drainer drainer;
    private final Thread drainerThread;
    private final EngineStop stop;
    private final EngineStatistics statistics;
    private final NextBufferWait nextBuffer;

    JournalEngine(EngineConfig config, EngineState state, DrainOutput.Factory outputs, EngineStop.SinkClose sink,
            StatusReporter status, EngineStart replacer) throws IOException {
        this(config, state, outputs, DrainOutput.Backlog.NONE, sink, status, replacer);
    }

    JournalEngine(EngineConfig config, EngineState state, DrainOutput.Factory outputs, DrainOutput.Backlog backlog,
            EngineStop.SinkClose sink, StatusReporter status, EngineStart replacer) throws IOException {
        this.state = state;
        this.counters = state.counters;
        this.appended = counters.appended;
        this.exited = counters.exited;
        this.maxEventSize = config.effectiveMaxEventSize();
        this.stop = new EngineStop(config, state, sink, status);
        this.drainer = new Drainer(state, outputs, backlog, status, config.flushIntervalNanos(), config.unblockTimeoutNanos(),
                replacer == null ? gone -> {
                    throw new IOException("this engine has no files to replace its journal with");
                } : replacer, stop::drainerExited);
        this.drainerThread = new Thread(drainer, "lockfreelog-drainer-" + config.name());
        drainerThread.setDaemon(true);
        this.stop.attach(drainer, drainerThread);
        this.statistics = new EngineStatistics(config, state, drainer);
        this.nextBuffer = new NextBufferWait(config, state, drainerThread);
    }

    /**
     * Starts an engine writing to the log file of {@code config}; see {@link #start(EngineConfig, StatusReporter, LogSink.Factory)}.
     *
     * @param sinkDecorator wraps the log file sink (tests use it to slow down or fail writes)
     */
    public static JournalEngine start(EngineConfig config, StatusReporter status, UnaryOperator<LogSink> sinkDecorator)
            throws IOException {
        return start(config, status, () -> sinkDecorator.apply(new FileLogSink(config.logFile(), status)));
    }

    /**
     * Takes the journal (with several {@link EngineConfig#journalSlots}, the first free slot), recovers
     * into the sink what a previous process left in it (and in free slots that processes which died
     * left behind), creates a fresh journal, and starts the drainer. An interrupt of the calling
     * thread does not make it fail: the JDK closes a channel that an interrupted thread uses, so the
     * interrupt is held back until start returns, and a start that one interrupts anyway is begun
     * again (recovery records its progress in the old journal, so it never writes an event twice).
     */
    public static JournalEngine start(EngineConfig config, StatusReporter status, LogSink.Factory sinkFactory)
            throws IOException {
        return Uninterruptible.call(() -> EngineStart.start(config, status, sinkFactory));
    }

    /**
     * Starts an engine whose drainer delivers events to a record sink, one record per event, each batch
     * committed with its journal position ({@link RecordSink}); recovery starts after what the sink of the slot
     * taken says it holds. Nothing at start asks the sink, so one out of reach never fails or delays the start:
     * what a process that died left is set aside and delivered by the drainer first, retried while the sink
     * fails, events gathering in the journal meanwhile. Otherwise as
     * {@link #start(EngineConfig, StatusReporter, LogSink.Factory)}.
     */
    public static JournalEngine startRecords(EngineConfig config, StatusReporter status, RecordSink.Factory sinks)
            throws IOException {
        return Uninterruptible.call(() -> EngineStart.startRecords(config, status, sinks));
    }

    /** Starts the drainer's thread; the engine takes events from now on. */
    void startDrainer() {
        drainerThread.start();
    }

    // ---- the caller's path ------------------------------------------------------------------

    /**
     * Appends one encoded event. Never throws, never blocks longer than {@code maxBlockTime}, and
     * counts the event as written later or as dropped now. Allocates nothing.
     *
     * @param payload the encoded event
     * @param mayDrop whether the {@code DROP} policy applies to this event (else it blocks)
     * @return whether the event went into the journal (it reaches the log file); {@code false}
     *         when it was dropped (and counted so)
     */
    public boolean append(byte[] payload, boolean mayDrop) {
        return append(payload, payload.length, mayDrop);
    }

    /**
     * Appends the encoded event held in {@code payload[0..length)}; see {@link #append(byte[], boolean)}.
     *
     * <p>From the claim of a frame to its commit, a {@code finally} makes sure that the frame is
     * settled (committed as padding) and the event counted, whatever {@code Error} arrives
     * (a second stack overflow, a fault in mapped memory delivered at a safepoint): a frame left
     * claimed would otherwise hold the drainer until the unblock timeout.
     */
    public boolean append(byte[] payload, int length, boolean mayDrop) {
        appended.increment();
        ActiveJournal active = null;
        int pendingAt = -1; // a reservation this call has not settled yet
        int pendingTerm = 0;
        int reserved = 0;
        int frameLength = 0;
        boolean counted = false;
        try {
            if (!state.isRunning()) {
                counters.drop(DropReason.STOPPED);
                counted = true;
                return false;
            }
            active = state.active(); // read after counting in: see EngineState.nobodyInside()
            final boolean truncate = length > maxEventSize;
            final int kept = truncate ? utf8Boundary(payload, maxEventSize - TRUNCATION_MARKER.length) : length;
            frameLength = HEADER_LENGTH + kept + (truncate ? TRUNCATION_MARKER.length : 0);
            final int aligned = align(frameLength);
            long waitStart = NextBufferWait.NOT_WAITING;
            for (;;) {
                final Journal journal = active.journal;
                final TermAppender appender = active.appender;
                final long termCount = journal.activeTermCountAcquire();
                final int bufferSize = journal.bufferSize();
                final long reservation = appender.reserve(termCount, aligned);
                if (reservation != TermAppender.FULL) {
                    // decoded with plain arithmetic (TermAppender.position, termIdOf and restOf written out), the
                    // position last: no call between the add and the finally's knowing of the reservation, where a
                    // stack overflow would leave it to the drainer to pad over once the unblock timeout passed
                    final boolean padToEnd = (reservation & TermAppender.PAD_TO_END) != 0;
                    final int at = (int) (reservation & ~TermAppender.PAD_TO_END);
                    reserved = padToEnd ? bufferSize - (at - METADATA_LENGTH) % bufferSize : aligned;
                    pendingTerm = (int) (reservation >>> 32);
                    pendingAt = at;
                    if (padToEnd) {
                        TermAppender.writePadding(journal, pendingAt, reserved, pendingTerm);
                        pendingAt = -1;
                    } else {
                        if (!TermAppender.claim(journal, reservation, frameLength)) {
                            pendingAt = -1;
                            continue; // the drainer padded over this reservation while we stalled: reserve again
                        }
                        final TermAppender.Commit outcome = TermAppender.copyAndCommit(journal, pendingAt, frameLength, payload, kept,
                                truncate ? TRUNCATION_MARKER : null);
                        pendingAt = -1;
                        if (outcome == TermAppender.Commit.ABANDONED) {
                            continue; // we stalled so long that the drainer left our frame out: write the event again
                        }
                        // decided before any call, which an Error could strike: a committed event is the
                        // drainer's to count, a failed copy the finally's (as a drop, reason io)
                        counted = outcome == TermAppender.Commit.COMMITTED;
                        if (counted && truncate) {
                            counters.truncated.increment();
                        }
                        if (waitStart != NextBufferWait.NOT_WAITING) {
                            counters.recordWait(System.nanoTime() - waitStart);
                        }
                        return counted;
                    }
                }
                waitStart = nextBuffer.await(active, termCount, mayDrop, waitStart);
                if (waitStart == NextBufferWait.DROPPED) {
                    counted = true;
                    return false;
                }
                if (active.isRetired()) {
                    active = state.active(); // the drainer replaced the journal: go on in the new one
                }
            }
        } catch (StackOverflowError e) {
            throw e; // the application's own recursion: its error, not the engine's (settled and counted below)
        } catch (Throwable e) {
            // A fault in mapped memory is delivered as an InternalError at a later safepoint, anywhere
            // on this path; no Error of the engine reaches the application: the event is counted
            // below, as dropped with reason io unless its frame was committed before the fault.
            return false;
        } finally {
            // Only an Error gets here with work left. It may strike again at any call made here (a
            // stack overflow does, from this frame), so plain stores, which call nothing, come first.
            if (pendingAt >= 0) {
                active.orphans[(pendingAt >>> 3) & (ActiveJournal.ORPHAN_HINTS - 1)] = ((long) pendingTerm << 32) | pendingAt;
                active.orphansLeft = true; // before the frame can change: a drainer that sees it settled sees this too
                try {
                    boolean written = TermAppender.settle(active.journal, pendingAt, pendingTerm, reserved, frameLength);
                    // the drainer may have taken the hint (and counted the event) meanwhile
                    counted |= written | !active.takeOrphan(pendingAt, pendingTerm);
                } catch (Throwable again) {
                    counted = true; // the drainer settles it from the hint, and counts it
                }
            }
            boolean dropCounted = counted;
            try {
                if (!dropCounted) {
                    counters.drop(DropReason.IO);
                    dropCounted = true;
                }
                exited.increment();
            } catch (Throwable again) {
                if (!dropCounted) {
                    counters.lateIoDrops++;
                }
                counters.lateExits++;
            }
        }
    }

    /** The largest cut point at or below {@code limit} that does not split a UTF-8 sequence. */
    static int utf8Boundary(byte[] bytes, int limit) {
        int cut = limit;
        while (cut > 0 && (bytes[cut] & 0xC0) == 0x80) {
            cut--;
        }
        return cut;
    }

    /**
     * Counts an event that never reached {@link #append}: it arrived while the appender was not running
     * ({@code stopped}), or its encoding failed ({@code encoding}).
     */
    public void countDropped(DropReason reason) {
        counters.appended.increment();
        counters.drop(reason);
        counters.exited.increment();
    }

    /**
     * Stops taking events, waits for callers inside {@code append} to leave, drains everything
     * committed to the log file, then unmaps the journal and leaves it empty; see {@link EngineStop}.
     */
    public void stop() {
        stop.stop();
    }

    /** A snapshot of every number the engine reports. */
    public AppenderStatistics statistics() {
        return statistics.snapshot();
    }

    /**
     * An engine over {@code journal} whose drainer has no thread: the model-checking test calls
     * the drainer's steps ({@link #drainer()}) itself. Nothing is recovered or locked; it is not
     * to be stopped.
     */
    public static JournalEngine withoutDrainerThread(EngineConfig config, Journal journal, LogSink sink,
            StatusReporter status) throws IOException {
        return new JournalEngine(config, new EngineState(new ActiveJournal(journal, null, null, 0)),
                Drainer.fileOutputs(sink), sink::close, status, null);
    }

    /**
     * As {@link #withoutDrainerThread(EngineConfig, Journal, LogSink, StatusReporter)}, the drainer writing
     * through the outputs of {@code outputs} (the record path's model check gives it a record sink's).
     */
    public static JournalEngine withoutDrainerThread(EngineConfig config, Journal journal, DrainOutput.Factory outputs,
            StatusReporter status) throws IOException {
        return new JournalEngine(config, new EngineState(new ActiveJournal(journal, null, null, 0)), outputs,
                timeoutNanos -> { }, status, null);
    }

    /** For the model-checking test, which runs the drainer's steps itself. */
    public Drainer drainer() {
        return drainer;
    }

    /** For tests: the callers waiting for a clean buffer now. */
    int waitingCallers() {
        return nextBuffer.waitingCallers();
    }

    /** For tests that retire the journal in use. */
    ActiveJournal activeJournal() {
        return state.active();
    }

    /** For tests that play a stalled writer. */
    public Journal journal() {
        return state.active().journal;
    }

    /** For tests that play a stalled writer. */
    TermAppender appender() {
        return state.active().appender;
    }
}
