/**
 * Recovery: what a process that died left in a journal reaches the log exactly once, before any new
 * event ({@link io.github.lockfreelog.recovery.Recovery}).
 */
package io.github.lockfreelog.recovery;
