/**
 * The drainer: its loop ({@link io.github.lockfreelog.drain.Drainer}), the drain of one term
 * ({@link io.github.lockfreelog.drain.TermDrain}) in batches ({@link io.github.lockfreelog.drain.Batch}),
 * every write to the log with its intent and drain record ({@link io.github.lockfreelog.drain.DrainLog}),
 * frames left unfinished ({@link io.github.lockfreelog.drain.UnfinishedFrames}), failures
 * ({@link io.github.lockfreelog.drain.DrainFailures}), the watch over the journal's file
 * ({@link io.github.lockfreelog.drain.JournalWatch}), and the state callers and drainer share
 * ({@link io.github.lockfreelog.drain.EngineState}, {@link io.github.lockfreelog.drain.ActiveJournal},
 * {@link io.github.lockfreelog.drain.JournalCounters}).
 *
 * <p>The drainer never calls the engine: what it needs from start-up comes in as a
 * {@link io.github.lockfreelog.drain.JournalReplacer}.
 */
package io.github.lockfreelog.drain;
