/**
 * Where drained bytes go: the {@link io.github.lockfreelog.sink.LogSink} contract, the plain log file
 * that follows its name ({@link io.github.lockfreelog.sink.FileLogSink}), a decorator base for tests and
 * benchmarks ({@link io.github.lockfreelog.sink.ForwardingLogSink}), and the content check that tells
 * how much of a write landed ({@link io.github.lockfreelog.sink.LandedBytes}); and the record sink's contract
 * ({@link io.github.lockfreelog.sink.RecordSink}: deliver a {@link io.github.lockfreelog.sink.RecordBatch},
 * say what is committed, as a {@link io.github.lockfreelog.sink.JournalPosition}) for sinks outside core.
 */
package io.github.lockfreelog.sink;
