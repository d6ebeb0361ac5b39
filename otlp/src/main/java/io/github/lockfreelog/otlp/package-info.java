/**
 * An OpenTelemetry collector as a record sink: {@link io.github.lockfreelog.otlp.LockFreeOtlpAppender} encodes each
 * event on the caller's thread as an OTLP {@code LogRecord} into its journal, and the drainer sends export requests
 * built by copying those bytes over OTLP/HTTP, moving the journal's position only after the collector's answer:
 * at least once, each record carrying a {@code log.record.uid} that is stable across resends (docs/otlp.md).
 * Depends on core alone (the JDK's HTTP client, protobuf written by hand).
 */
package io.github.lockfreelog.otlp;
