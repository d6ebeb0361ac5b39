/**
 * The OTLP peers: their sink ({@code OtlpSink}, which the peers package opens by name), the run's OTLP/HTTP receiver
 * ({@code OtlpReceiver}, started in the runner's JVM) and the otlp-kill mode, the Kafka package's kill test against
 * that receiver. {@code OtlpCommands} is what the command line loads by name.
 */
package io.github.lockfreelog.benchmarks.otlp;
