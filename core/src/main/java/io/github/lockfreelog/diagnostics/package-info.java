/**
 * What the engine reports and how it is observed: status messages
 * ({@link io.github.lockfreelog.diagnostics.StatusReporter}), statistics
 * ({@link io.github.lockfreelog.diagnostics.AppenderStatistics}, drops by
 * {@link io.github.lockfreelog.diagnostics.DropReason}, {@link io.github.lockfreelog.diagnostics.PageFaults}
 * read by {@link io.github.lockfreelog.diagnostics.ProcStat}), and the crash tests' halting points
 * ({@link io.github.lockfreelog.diagnostics.CrashPoint}).
 */
package io.github.lockfreelog.diagnostics;
