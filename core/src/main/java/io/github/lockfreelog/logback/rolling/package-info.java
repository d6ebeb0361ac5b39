/**
 * The rolled log file: the live file written by the drainer and rolled by size and time between whole events
 * ({@link io.github.lockfreelog.logback.rolling.RollingLogSink}), archives named after Logback's
 * {@code fileNamePattern}, compressed and swept on a thread of their own so that draining never waits for them,
 * and a roll or compression that a crash interrupted finished at the next start. Several processes may share one
 * log: a lock file decides which of them rolls ({@link io.github.lockfreelog.logback.rolling.RollLock}).
 */
package io.github.lockfreelog.logback.rolling;
