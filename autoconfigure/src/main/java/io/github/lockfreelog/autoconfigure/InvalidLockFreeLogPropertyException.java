package io.github.lockfreelog.autoconfigure;

/**
 * Thrown at start-up when a {@code lockfreelog.*} property has a value the appender cannot use.
 * {@link LockFreeLogFailureAnalyzer} turns it into a start-up report naming the property.
 */
public class InvalidLockFreeLogPropertyException extends RuntimeException {

    private final String property;
    private final transient Object value;
    private final String allowed;

    /**
     * @param property full name of the property, e.g. {@code lockfreelog.buffer-size}
     * @param value the value that was set
     * @param allowed the values that are allowed, as a sentence fragment
     */
    public InvalidLockFreeLogPropertyException(String property, Object value, String allowed) {
        super("Invalid value '" + value + "' for property '" + property + "': " + allowed);
        this.property = property;
        this.value = value;
        this.allowed = allowed;
    }

    public String getProperty() {
        return property;
    }

    public Object getValue() {
        return value;
    }

    public String getAllowed() {
        return allowed;
    }
}
