package io.github.lockfreelog.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Reports an invalid {@code lockfreelog.*} property at start-up with the property's name and its allowed values. */
public class LockFreeLogFailureAnalyzer extends AbstractFailureAnalyzer<InvalidLockFreeLogPropertyException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, InvalidLockFreeLogPropertyException cause) {
        String description = "The lock-free log file could not be set up.\n\n"
                + "    Property: " + cause.getProperty() + "\n"
                + "    Value: " + cause.getValue() + "\n"
                + "    Reason: " + cause.getAllowed();
        String action = "Update your application's configuration: set '" + cause.getProperty() + "' to a value that "
                + "is allowed (" + cause.getAllowed() + "), or remove it to use the default.";
        return new FailureAnalysis(description, action, cause);
    }
}
