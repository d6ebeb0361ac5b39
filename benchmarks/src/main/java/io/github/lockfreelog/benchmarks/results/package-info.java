/**
 * What a run measured, as records saved one row each in a run's {@code .tsv} ({@code Tsv}) and read back: throughput,
 * cost, latency points with their histograms, virtual-thread forks; the line check of every trial ({@code LineCheck});
 * the disturbances seen during a point; and how figures are written ({@code Format}).
 */
package io.github.lockfreelog.benchmarks.results;
