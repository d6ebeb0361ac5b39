package io.github.lockfreelog.diagnostics;

/** Why an event was not written. Every drop is counted under exactly one reason. */
public enum DropReason {

    /** The next buffer was not clean and the backpressure policy is {@code DROP}. */
    BUFFER_FULL("buffer-full"),
    /** The policy is {@code BLOCK} and the next buffer did not become clean within {@code maxBlockTime}. */
    TIMEOUT("timeout"),
    /** The drainer could not write to the log file (disk full, I/O error), so there was no room to keep the event. */
    IO("io"),
    /** The appender was stopped (or never started) when the event arrived. */
    STOPPED("stopped"),
    /** The encoder, or one of its converters, threw while encoding the event, so there were no bytes to keep. */
    ENCODING("encoding"),
    /**
     * The record sink refused the event as too large for it (a Kafka topic's {@code max.message.bytes}, say) and left
     * it out of its delivery. Counted for the events of this run; a sink names, in its own report, any event of a
     * recovered journal that it leaves out so.
     */
    TOO_LARGE("too-large");

    private final String id;

    DropReason(String id) {
        this.id = id;
    }

    /** Name used in statistics, the endpoint and metric tags. */
    public String id() {
        return id;
    }
}
