package io.github.lockfreelog.autoconfigure;

import io.github.lockfreelog.autoconfigure.properties.InvalidLockFreeLogPropertyException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.Ordered;

/**
 * Reports a property the lock-free log file cannot use as Spring Boot reports its own binding errors: the property,
 * the value as written, where it was written, and what is allowed. Ordered before Spring Boot's analyzer of the
 * same exception type, which cannot see the environment this early in start-up.
 */
public class LockFreeLogFailureAnalyzer extends AbstractFailureAnalyzer<InvalidLockFreeLogPropertyException>
        implements Ordered {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, InvalidLockFreeLogPropertyException cause) {
        StringBuilder description = new StringBuilder("The lock-free log file could not be set up.\n\n");
        description.append("    Property: ").append(cause.getProperty()).append('\n');
        description.append("    Value: ").append(cause.getValue() == null ? "(not set)" : "\"" + cause.getValue() + "\"")
                .append('\n');
        if (cause.getOrigin() != null) {
            description.append("    Origin: ").append(cause.getOrigin()).append('\n');
        }
        description.append("    Reason: ").append(cause.getAllowed());
        String action = "Update your application's configuration: set '" + cause.getProperty() + "' to "
                + cause.getAllowed() + ", or remove it to use the default.";
        return new FailureAnalysis(description.toString(), action, cause);
    }

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE;
    }
}
