/**
 * The fast path for Logback's own pattern encoders: an event encoded straight into the caller's thread's buffer,
 * the same bytes as {@code encoder.encode(event)} without its allocations
 * ({@link io.github.lockfreelog.logback.encoding.PatternEncoding}). The layout's converter chain is read once into a
 * plan of segments, and what a segment writes is kept per thread while the value it depends on is unchanged. The
 * Spring Boot starter adds its converters and structured formats through two service interfaces,
 * {@link io.github.lockfreelog.logback.encoding.ConverterShapes} and
 * {@link io.github.lockfreelog.logback.encoding.EncoderTexts}.
 *
 * <p>Public only what the appenders and those providers use; an encoder this package does not take goes through
 * its own {@code encode} (package {@code encoder}).
 */
package io.github.lockfreelog.logback.encoding;
