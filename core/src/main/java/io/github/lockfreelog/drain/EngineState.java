package io.github.lockfreelog.drain;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * What the callers of one engine, its drainer and its statistics share: whether it runs, the
 * journal callers write into, the counters, and whether the log file can be written. One object
 * given to both sides, read one way: the engine writes the run state and reads the rest, the
 * drainer writes the journal in use (when it replaces one) and {@link #ioFailing}; neither calls
 * into the other's class.
 */
public final class EngineState {

    /** Where an engine is in its life; callers read it on every append. */
    public enum RunState { RUNNING, STOPPING, STOPPED }

    public final JournalCounters counters = new JournalCounters();
    private volatile RunState runState = RunState.RUNNING;
    /** The journal callers write into; another one once the drainer replaced a journal gone from disk. */
    private volatile ActiveJournal active;
    /** Set by the drainer while the log file cannot be written; callers name their drops after it. */
    private volatile boolean ioFailing;
    /**
     * Set by the drainer for a park longer than a busy pass's (it is idle), cleared when it wakes: a caller that
     * swaps buffers or drops meanwhile wakes it. Written only around idle parks, never under load.
     */
    private volatile boolean drainerSleeping;
    /** Threads reading the mapping for statistics; the close waits for them. */
    private final AtomicInteger mappingReaders = new AtomicInteger();
    /** Cleared once the journal is to be unmapped: statistics readers then leave the mapping alone. */
    private volatile boolean mapped = true;

    public EngineState(ActiveJournal active) {
        this.active = active;
    }

    public RunState runState() {
        return runState;
    }

    public boolean isRunning() {
        return runState == RunState.RUNNING;
    }

    public void runState(RunState state) {
        this.runState = state;
    }

    public ActiveJournal active() {
        return active;
    }

    /** Makes {@code next} the journal callers write into (the drainer, once it replaced one). */
    void activate(ActiveJournal next) {
        this.active = next;
    }

    /** Whether the drainer is in a park longer than a busy pass's; see {@link #drainerSleeping}. */
    public boolean drainerSleeping() {
        return drainerSleeping;
    }

    void drainerSleeping(boolean sleeping) {
        this.drainerSleeping = sleeping;
    }

    public boolean ioFailing() {
        return ioFailing;
    }

    void ioFailing(boolean failing) {
        this.ioFailing = failing;
    }

    /** Counts in a thread about to read the mapping for statistics; it reads {@link #active()} after this. */
    public void enterMapping() {
        mappingReaders.incrementAndGet();
    }

    public void exitMapping() {
        mappingReaders.decrementAndGet();
    }

    /** Whether the journal in use is still mapped; read after {@link #enterMapping()}. */
    public boolean isMapped() {
        return mapped;
    }

    /** Marks the journal as about to be unmapped, then waits until no statistics reader is in it. */
    public void unmapping() {
        mapped = false;
        while (mappingReaders.get() != 0) {
            Thread.onSpinWait();
        }
    }

    /**
     * Whether no caller and no statistics reader can still touch a journal that was replaced before
     * this call: each of them counted itself in before it read {@link #active()}.
     */
    public boolean nobodyInside() {
        return mappingReaders.get() == 0 && counters.inside() == 0;
    }
}
