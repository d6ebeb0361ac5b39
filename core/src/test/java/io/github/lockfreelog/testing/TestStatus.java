package io.github.lockfreelog.testing;

import io.github.lockfreelog.diagnostics.StatusReporter;

/** Status reporters for tests that start an engine without a Logback appender. */
public final class TestStatus {

    /** Reports nothing. */
    public static final StatusReporter QUIET = new StatusReporter() {
        @Override
        public void info(String message) {
        }

        @Override
        public void warn(String message, Throwable cause) {
        }

        @Override
        public void error(String message, Throwable cause) {
        }
    };

    private TestStatus() {
    }
}
