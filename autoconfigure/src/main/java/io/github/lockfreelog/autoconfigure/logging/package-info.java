/**
 * The starter's logging integration, at work before any application context exists:
 * {@link io.github.lockfreelog.autoconfigure.logging.LockFreeLogApplicationListener} hands each run's environment to
 * the {@link io.github.lockfreelog.autoconfigure.logging.LockFreeLogRuntime} kept in the Logback context, which owns the
 * lock-free appender and its engine across runs. It binds {@code lockfreelog.*}
 * ({@link io.github.lockfreelog.autoconfigure.logging.LockFreeLogProperties}), replaces Spring Boot's own {@code FILE}
 * appender and takes its encoder, filters and rolling from it; a file appender of the user's own is left as
 * configured, and an INFO line says so. What others may ask of it is
 * {@link io.github.lockfreelog.autoconfigure.logging.StarterAppender}. It depends on no other package of the starter.
 */
package io.github.lockfreelog.autoconfigure.logging;

