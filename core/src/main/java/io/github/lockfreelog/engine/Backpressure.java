package io.github.lockfreelog.engine;

/** What a caller does when the buffer it needs next has not been drained yet. */
public enum Backpressure {

    /** Spin briefly, then park, for at most {@code maxBlockTime}; then drop the event with reason {@code timeout}. */
    BLOCK,
    /** Drop the event at once with reason {@code buffer-full} (events at or above {@code dropBelowLevel} block instead). */
    DROP
}
