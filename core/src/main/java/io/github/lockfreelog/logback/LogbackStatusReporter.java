package io.github.lockfreelog.logback;

import ch.qos.logback.core.spi.ContextAware;
import io.github.lockfreelog.diagnostics.StatusReporter;

/** Routes the engine's reports to Logback's status manager, each message ending with the name of its appender. */
public final class LogbackStatusReporter implements StatusReporter {

    private final ContextAware appender;
    private final String suffix;

    /**
     * @param appender the origin of every status, as if it had reported it itself
     * @param suffix appended to every message, e.g. {@code  for the appender named "FILE"}
     */
    public LogbackStatusReporter(ContextAware appender, String suffix) {
        this.appender = appender;
        this.suffix = suffix;
    }

    @Override
    public void info(String message) {
        appender.addInfo(message + suffix);
    }

    @Override
    public void warn(String message, Throwable cause) {
        appender.addWarn(message + suffix, cause);
    }

    @Override
    public void error(String message, Throwable cause) {
        appender.addError(message + suffix, cause);
    }
}
