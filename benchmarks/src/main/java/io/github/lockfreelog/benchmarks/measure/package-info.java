/**
 * What a fork measures with: a peer's {@code Trial} (its folder, its sink, its line check), the paced callers of the
 * latency points ({@code PacedLoop}), CPU and allocation meters ({@code Meters}) and the slow-call diagnosis
 * ({@code SlowCalls}). Used by the JMH benchmarks and the Kafka forks alike.
 */
package io.github.lockfreelog.benchmarks.measure;
