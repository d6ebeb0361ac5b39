package io.github.lockfreelog.engine;

import io.github.lockfreelog.diagnostics.StatusReporter;
import io.github.lockfreelog.drain.ActiveJournal;
import io.github.lockfreelog.drain.Drainer;
import io.github.lockfreelog.drain.EngineState;
import io.github.lockfreelog.drain.EngineState.RunState;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * Ends an engine: stops taking events, waits for callers inside {@code append} to leave, has the
 * drainer write everything committed, then unmaps the journal and leaves it empty, all within
 * {@code stopTimeout}. If a caller or the drainer is still busy then, the journal is left mapped
 * and on disk (the next start recovers what it holds) and a warning says so.
 */
final class EngineStop {

    private final EngineConfig config;
    private final EngineState state;
    private final SinkClose sink;
    private final StatusReporter status;
    private Drainer drainer;
    private Thread drainerThread;
    /** Stop and the drainer's exit each set one of these and read the other, so one of them closes the journal. */
    private volatile boolean closeWhenDrainerExits;
    private volatile boolean drainerExited;
    private final AtomicBoolean closed = new AtomicBoolean();

    /** Closes the engine's sink, waiting at most the nanoseconds given for its background work. */
    @FunctionalInterface
    interface SinkClose {
        void close(long timeoutNanos) throws IOException;
    }

    EngineStop(EngineConfig config, EngineState state, SinkClose sink, StatusReporter status) {
        this.config = config;
        this.state = state;
        this.sink = sink;
        this.status = status;
    }

    /** Gives the drainer to stop; before the engine is used. */
    void attach(Drainer drainer, Thread drainerThread) {
        this.drainer = drainer;
        this.drainerThread = drainerThread;
    }

    /** Stops the engine; only the first call does anything. */
    void stop() {
        if (!state.isRunning()) {
            return;
        }
        state.runState(RunState.STOPPING);
        long deadline = System.nanoTime() + config.stopTimeoutNanos();
        boolean callersLeft = awaitCallers(deadline);
        drainer.requestStop();
        LockSupport.unpark(drainerThread);
        try {
            drainerThread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        boolean drained = !drainerThread.isAlive() && drainer.finishedCleanly();
        state.runState(RunState.STOPPED);
        try {
            sink.close(deadline - System.nanoTime());
        } catch (IOException e) {
            status.warn("closing log file " + config.logFile() + " failed", e);
        }
        if (!callersLeft) {
            // a caller may still touch the mapping: it stays mapped, and the journal stays locked
            status.warn("stop timed out after " + TimeUnit.NANOSECONDS.toMillis(config.stopTimeoutNanos())
                    + " ms with callers still inside append: the journal " + state.active().journal.path()
                    + " stays mapped; the next start of this process cannot use it, a restart recovers it", null);
            return;
        }
        if (drainerThread.isAlive()) {
            // it may be waiting to retry a failed write: woken now, it finds the log closed and exits
            LockSupport.unpark(drainerThread);
            try {
                drainerThread.join(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (drainerThread.isAlive()) {
            status.warn("stop timed out after " + TimeUnit.NANOSECONDS.toMillis(config.stopTimeoutNanos())
                    + " ms before everything reached the log file, which is closed now and written no more: the journal "
                    + state.active().journal.path() + " keeps the rest, and the next start recovers it", null);
            closeWhenDrainerExits = true;
            if (drainerExited) {
                closeOnce(false);
            }
            return;
        }
        closeOnce(drained);
    }

    /** Run by the drainer as it exits; closes the journal if a timed-out stop left that to it. */
    void drainerExited() {
        drainerExited = true;
        if (closeWhenDrainerExits) {
            closeOnce(false);
        }
    }

    private void closeOnce(boolean drained) {
        if (closed.compareAndSet(false, true)) {
            close(drained);
        }
    }

    private boolean awaitCallers(long deadline) {
        boolean interrupted = false;
        try {
            for (int tries = 0; state.counters.inside() != 0; tries++) {
                if (System.nanoTime() - deadline > 0) {
                    return false;
                }
                interrupted |= BackOff.pause(tries, deadline - System.nanoTime());
            }
            return true;
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt(); // the interrupt belongs to the thread calling stop
            }
        }
    }

    private void close(boolean drained) {
        state.unmapping();
        ActiveJournal current = state.active();
        drainer.closeReplaced(current);
        Path path = current.journal.path();
        try {
            current.close(drained);
            if (!drained) {
                status.warn("the journal " + path + " was not fully drained at stop; the next start recovers it", null);
            }
        } catch (IOException e) {
            status.warn("closing journal " + path + " failed", e);
        }
    }
}
