/**
 * The starter's auto-configurations: what the application context gets (the appenders for the endpoint, metrics and
 * health, each backing off without its library), the report of a value that cannot be used
 * ({@link io.github.lockfreelog.autoconfigure.LockFreeLogFailureAnalyzer}) and the native-image hints. It sits on top:
 * it uses the logging integration ({@code logging}, which binds {@code lockfreelog.*} and attaches the appender while
 * logging starts) and the actuator parts ({@code actuate}); neither uses it.
 */
package io.github.lockfreelog.autoconfigure;

