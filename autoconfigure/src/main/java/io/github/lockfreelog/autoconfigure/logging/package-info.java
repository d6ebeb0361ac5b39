/**
 * The starter's logging integration, at work before any application context exists:
 * {@link io.github.lockfreelog.autoconfigure.logging.LockFreeLogApplicationListener} hands each run's environment to
 * the {@link io.github.lockfreelog.autoconfigure.logging.LockFreeLogRuntime} kept in the Logback context, which owns the
 * starter's appenders and their engines across runs: for each run it reads the settings ({@code properties}), has each
 * target's take-over start, keep or end its appender ({@code takeover}), and attaches what they started so that each
 * line arrives once ({@link io.github.lockfreelog.autoconfigure.logging.AttachPoints}). What others may ask of it is
 * {@link io.github.lockfreelog.autoconfigure.logging.StarterAppender}. Spring Boot's own pattern converters and
 * structured formats, as the allocation-free encoding finds them (its {@code ConverterShapes} and
 * {@code EncoderTexts} services), are here too. It uses {@code properties} and {@code takeover}, and neither uses it.
 */
package io.github.lockfreelog.autoconfigure.logging;
