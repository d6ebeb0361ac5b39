/**
 * Auto-configuration of the lock-free log file and its settings: {@code lockfreelog.*}
 * ({@link io.github.lockfreelog.autoconfigure.LockFreeLogProperties}), the report of a value that cannot be used
 * ({@link io.github.lockfreelog.autoconfigure.LockFreeLogFailureAnalyzer}), and the auto-configurations of the
 * endpoint, health and metrics. The logging integration lives in {@code logging}, the actuator parts in
 * {@code actuate}.
 */
package io.github.lockfreelog.autoconfigure;

