/**
 * The JMH benchmarks, and only they: throughput ({@code AppenderBenchmark}), CPU per line ({@code CostBenchmark}),
 * paced latency ({@code LatencyBenchmark}) and a virtual thread per event ({@code VirtualBenchmark}). JMH's annotation
 * processor writes their stubs beside them; the {@code cli} package runs them.
 */
package io.github.lockfreelog.benchmarks.jmh;
