/**
 * The starter's logging integration: {@link io.github.lockfreelog.autoconfigure.logging.LockFreeLogRuntime} owns
 * the lock-free appender and its engine for the life of the JVM, attached once Spring Boot has initialised Logback
 * ({@link io.github.lockfreelog.autoconfigure.logging.LockFreeLogApplicationListener}). It replaces Spring Boot's own
 * {@code FILE} appender and takes its encoder, filters and rolling from it; a file appender of the user's own is left
 * as configured, and an INFO line says so.
 */
package io.github.lockfreelog.autoconfigure.logging;

