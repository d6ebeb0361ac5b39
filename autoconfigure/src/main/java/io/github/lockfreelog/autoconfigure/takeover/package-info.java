/**
 * Each target's take-over, as a run's settings ask: the file's
 * ({@link io.github.lockfreelog.autoconfigure.takeover.FileTakeOver}: Spring Boot's {@code FILE} appender replaced,
 * its encoder, filters and rolling taken over, a file appender of the user's own left as configured with an INFO line),
 * the console's ({@link io.github.lockfreelog.autoconfigure.takeover.ConsoleTakeOver}), the Kafka sink's
 * ({@link io.github.lockfreelog.autoconfigure.takeover.KafkaTakeOver}, its producer configs from {@code spring.kafka.*})
 * and the OTLP sink's ({@link io.github.lockfreelog.autoconfigure.takeover.StarterOtlpAppender}). Each starts, keeps
 * (same settings: same engine, same counters) or ends its appender through a
 * {@link io.github.lockfreelog.autoconfigure.takeover.ManagedAppender}, and sets it from one table of settings
 * ({@code AppenderSettings}) that names the property of a bad value. The Kafka and OTLP classes are loaded only where
 * their module is on the class path. It uses {@code properties}; the runtime ({@code logging}) uses it.
 */
package io.github.lockfreelog.autoconfigure.takeover;
