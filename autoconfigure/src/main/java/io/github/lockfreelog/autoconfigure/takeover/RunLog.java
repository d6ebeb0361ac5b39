package io.github.lockfreelog.autoconfigure.takeover;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a take-over reports what it made of a run (a file left as configured, a refused setting, a sink not started):
 * the runtime's logger, so that every line the starter writes about a run is under one name, the one
 * docs/spring-boot.md shows.
 */
final class RunLog {

    /** The runtime's class name ({@code LockFreeLogRuntime}, which runs the take-overs). */
    static final String NAME = "io.github.lockfreelog.autoconfigure.logging.LockFreeLogRuntime";

    private RunLog() {
    }

    static Logger get() {
        return LoggerFactory.getLogger(NAME);
    }
}
