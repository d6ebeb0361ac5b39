/**
 * The command line: {@code BenchmarkRunner} (the jar's {@code main}) parses {@code Arguments}, plans a mode
 * ({@code Plan}) and runs the file modes (quick, latency, full, console, cost, scaling, virtual, drain) through
 * their runners, which start JMH forks of the {@code jmh} package and save what they measured; {@code report} and
 * {@code chart} read a saved run again. The Kafka, OTLP and Spring Boot modes are found by class name
 * ({@code Modes}, each a {@link io.github.lockfreelog.benchmarks.cli.Mode}), so that nothing here refers to them and
 * the file modes run without their jars.
 */
package io.github.lockfreelog.benchmarks.cli;
