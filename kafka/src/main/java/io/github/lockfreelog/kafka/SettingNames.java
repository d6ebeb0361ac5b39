package io.github.lockfreelog.kafka;

import java.util.Map;

/**
 * How the user sets each of the appender's settings, for the messages that say what to change: in
 * {@code logback.xml} the element ({@code <topic>}), and in an owner that sets the appender from settings of its
 * own (the Spring Boot starter) the name it gives ({@link LockFreeKafkaAppender#setSettingNames}). The module knows
 * no other naming scheme.
 */
final class SettingNames {

    /** The names as {@code logback.xml} spells them. */
    static final SettingNames LOGBACK = new SettingNames(Map.of());

    /** Producer settings, and where they are set. */
    static final String PRODUCER = "producerConfig";
    /** The producer's security settings, and where they are set. */
    static final String SECURITY = "security";

    private final Map<String, String> names;

    SettingNames(Map<String, String> names) {
        this.names = Map.copyOf(names);
    }

    /** How the user gives {@code setting} the value {@code value}: {@code <name>value</name>}, or {@code name=value}. */
    String assignment(String setting, String value) {
        String name = names.get(setting);
        return name == null ? "<" + setting + ">" + value + "</" + setting + ">" : name + "=" + value;
    }

    /** How the user sets {@code setting} (an appender setting's name, or {@link #PRODUCER}, {@link #SECURITY}). */
    String of(String setting) {
        String name = names.get(setting);
        if (name != null) {
            return name;
        }
        switch (setting) {
            case PRODUCER:
                return "<producerConfig> in logback.xml";
            case SECURITY:
                return "the producer's sasl.*, ssl.* and security.protocol (<producerConfig>)";
            default:
                return "<" + setting + ">";
        }
    }
}
