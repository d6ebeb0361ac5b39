/**
 * The journal drained into a {@link io.github.lockfreelog.sink.RecordSink}: the drainer's output that delivers
 * each batch of events with its position and records it in the journal only once committed
 * ({@link io.github.lockfreelog.records.RecordLog}), and the recovery that starts after what the sink says it
 * holds ({@link io.github.lockfreelog.records.RecordRecovery}); and the buffer a caller writes a record's frame
 * into ({@link io.github.lockfreelog.records.FrameBuffer}).
 */
package io.github.lockfreelog.records;
