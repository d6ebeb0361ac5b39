/**
 * The Logback appenders: {@link io.github.lockfreelog.logback.LockFreeFileAppender} (a log file, rolled or not) and
 * {@link io.github.lockfreelog.logback.LockFreeConsoleAppender} (standard output or error), with the life cycle they
 * share and that the record sinks' appenders (Kafka, OTLP) extend
 * ({@link io.github.lockfreelog.logback.LockFreeAppenderBase}: settings checked at start, the engine started, stop,
 * statistics); where the journal lives and who may use its folder
 * ({@link io.github.lockfreelog.logback.AppenderFiles}); and the caller's path
 * ({@link io.github.lockfreelog.logback.EventWriter}: encode on the caller's thread, then one reservation in the
 * journal), with the envelope a record sink wraps each event in
 * ({@link io.github.lockfreelog.logback.EventEnvelope}).
 *
 * <p>Logback's types stop here and in the packages below ({@code encoding}, {@code encoder}, {@code rolling}): the
 * engine's packages never import them.
 */
package io.github.lockfreelog.logback;
