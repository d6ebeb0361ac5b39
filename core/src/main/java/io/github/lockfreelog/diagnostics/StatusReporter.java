package io.github.lockfreelog.diagnostics;

/** Where the engine reports what it does; the Logback appender routes this to Logback's status manager. */
public interface StatusReporter {

    void info(String message);

    void warn(String message, Throwable cause);

    void error(String message, Throwable cause);
}
