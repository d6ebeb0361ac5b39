/**
 * What the starter shows of its appenders while the application runs: the {@code lockfreelog}
 * actuator endpoint, their health (one Spring-free
 * {@link io.github.lockfreelog.autoconfigure.actuate.LockFreeLogHealth} that the health indicator
 * of each Spring Boot generation reports alike) and the {@code lockfreelog.*} Micrometer meters.
 * All of them find the lock-free appenders attached to loggers of the Logback context, the
 * starter's own and those a Logback configuration declares, through
 * {@link io.github.lockfreelog.autoconfigure.actuate.LockFreeLogAppenders} each time they are read,
 * and keep no appender and no state of their own between reads: an appender that is stopped,
 * detached, attached again or replaced is shown as it is now, and when there is none they say why.
 * Of the starter's own appender they know only what
 * {@link io.github.lockfreelog.autoconfigure.logging.StarterAppender} says.
 * The auto-configurations that create them, with their conditions, stay in
 * {@code io.github.lockfreelog.autoconfigure}.
 */
package io.github.lockfreelog.autoconfigure.actuate;

