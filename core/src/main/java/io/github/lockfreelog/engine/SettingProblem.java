package io.github.lockfreelog.engine;

/**
 * One setting whose value cannot be used, as {@link EngineConfig#problems()} or an appender's
 * {@code checkSettings()} finds it. The Logback appender turns it into a status error; the Spring
 * Boot starter turns it into a start-up failure report naming the property the value came from.
 *
 * @param setting the setting's name as in {@code logback.xml}, e.g. {@code bufferSize}
 * @param value the value as the appender holds it, or {@code null} when the setting is missing
 * @param allowed what is allowed, as a sentence fragment, e.g. {@code "BLOCK or DROP"}
 */
public record SettingProblem(String setting, String value, String allowed) {

    /** The status message for the appender named {@code appender}. */
    public String message(String appender) {
        String where = " for the appender named \"" + appender + "\"";
        if (value == null) {
            return "No <" + setting + "> set" + where + ": set " + allowed;
        }
        return "Invalid " + setting + "=" + value + where + ": use " + allowed;
    }
}
