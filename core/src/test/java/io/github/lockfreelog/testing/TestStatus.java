package io.github.lockfreelog.testing;

import io.github.lockfreelog.diagnostics.StatusReporter;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Status reporters for tests that start an engine, or a part of one, without a Logback appender. */
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

    /** A reporter that keeps what it is told, for the test to read. */
    public static Recording recording() {
        return new Recording();
    }

    /** What a {@link #recording()} reporter was told, by level, each list in the order told; safe across threads. */
    public static final class Recording implements StatusReporter {
        private final List<String> said = new CopyOnWriteArrayList<>();
        private final List<String> problems = new CopyOnWriteArrayList<>();
        private final List<String> warnings = new CopyOnWriteArrayList<>();
        private final List<String> errors = new CopyOnWriteArrayList<>();

        private Recording() {
        }

        @Override
        public void info(String message) {
            said.add(message);
        }

        @Override
        public void warn(String message, Throwable cause) {
            said.add(withCause(message, cause));
            problems.add(message);
            warnings.add(message);
        }

        @Override
        public void error(String message, Throwable cause) {
            said.add(withCause(message, cause));
            problems.add(message);
            errors.add(message);
        }

        private static String withCause(String message, Throwable cause) {
            return cause == null ? message : message + ": " + cause;
        }

        /** Every message, a WARN's or an ERROR's followed by its cause. */
        public List<String> said() {
            return said;
        }

        /** The messages of the WARNs and ERRORs. */
        public List<String> problems() {
            return problems;
        }

        public List<String> warnings() {
            return warnings;
        }

        public List<String> errors() {
            return errors;
        }
    }
}
