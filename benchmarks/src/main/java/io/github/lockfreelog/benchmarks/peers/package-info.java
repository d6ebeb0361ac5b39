/**
 * The peers: the appenders measured side by side ({@code Peer}), each configured in a fork of its own behind one
 * {@code Sink} (Logback's, Log4j2's, a console pipe; the OTLP peers' sink is loaded by name from the {@code otlp}
 * package), the workload they log ({@code Workload}, Spring Boot's formats through {@code BootLogging}) and how their
 * lines are counted. A new file or console peer is a constant of {@code Peer} and its set-up in its framework's sink.
 */
package io.github.lockfreelog.benchmarks.peers;
