/**
 * The benchmarks: JMH benchmarks of the appender against its peers (Logback's and Log4j2's appenders, the Kafka
 * and OpenTelemetry appenders), and the runners of the command line's modes (throughput, CPU per line, latency at
 * a paced rate, scaling, one drainer's ceiling, kill tests), with their reports and charts. docs/benchmarks.md says
 * how to run each mode and shows the latest results.
 */
package io.github.lockfreelog.benchmarks;
