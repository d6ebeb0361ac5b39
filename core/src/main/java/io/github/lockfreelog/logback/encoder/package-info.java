/**
 * The user's encoder on its own path, where the fast path of {@code encoding} does not apply: whether it may be
 * called by many threads at once ({@link io.github.lockfreelog.logback.encoder.EncoderSafety}), the charset it
 * writes, checked at start ({@link io.github.lockfreelog.logback.encoder.EncoderCharset}), and the events whose
 * encoding threw, counted and reported ({@link io.github.lockfreelog.logback.encoder.EncodingFailures}).
 */
package io.github.lockfreelog.logback.encoder;
