/**
 * The starter's auto-configurations: what the application context gets (the appenders for the endpoint, metrics and
 * health, each backing off without its library), the report of a value that cannot be used
 * ({@link io.github.lockfreelog.autoconfigure.LockFreeLogFailureAnalyzer}) and the native-image hints. It sits on top:
 * it uses the logging integration ({@code logging}, which attaches the appenders while logging starts), the settings
 * ({@code properties}) and the actuator parts ({@code actuate}); none of them uses it.
 */
package io.github.lockfreelog.autoconfigure;

