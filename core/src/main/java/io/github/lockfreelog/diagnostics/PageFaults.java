package io.github.lockfreelog.diagnostics;

/**
 * Page faults since the appender started: for the whole process and for its drainer thread
 * (which also pre-touches the buffers). {@code available} is false where {@code /proc} is absent.
 */
public record PageFaults(boolean available, long processMinor, long processMajor, long drainerMinor,
        long drainerMajor) {

    public static final PageFaults UNAVAILABLE = new PageFaults(false, 0, 0, 0, 0);
}
