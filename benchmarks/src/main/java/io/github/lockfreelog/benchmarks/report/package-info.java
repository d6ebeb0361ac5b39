/**
 * The tables and charts of a run, from its results: throughput ({@code Report}), cost and the OTLP set's delivery
 * ({@code CostReport}, {@code OtlpCostReport}), latency ({@code LatencyReport}), virtual threads ({@code VirtualReport}),
 * and the PNG charts ({@code Charts}, whose lines {@code ChartLines} works out).
 */
package io.github.lockfreelog.benchmarks.report;
