package io.github.lockfreelog.autoconfigure.takeover;

import ch.qos.logback.classic.Level;
import ch.qos.logback.core.util.Duration;
import ch.qos.logback.core.util.FileSize;
import io.github.lockfreelog.autoconfigure.properties.LockFreeLogEngineProperties;
import io.github.lockfreelog.autoconfigure.properties.LockFreeLogProperties;
import io.github.lockfreelog.engine.SettingProblem;
import io.github.lockfreelog.logback.LockFreeAppenderBase;
import io.github.lockfreelog.logback.LockFreeFileAppender;
import java.util.List;
import java.util.Objects;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.springframework.boot.logging.LogLevel;
import org.springframework.util.unit.DataSize;

/**
 * The one table of the appender's settings the starter sets: each setting (as in {@code logback.xml}), the property it
 * comes from, and how its value reaches the appender. The engine's settings are each target's own: the file's under
 * {@value #FILE}, the console's under {@value #CONSOLE}. What the starter does with a setting reads this table: setting
 * the appender, telling whether a run asks for another engine, and naming the property in a report of a bad value.
 */
final class AppenderSettings {

    /** Prefix of the file's engine settings. */
    static final String FILE = LockFreeLogProperties.PREFIX + ".file.";

    /** Prefix of the console's engine settings. */
    static final String CONSOLE = LockFreeLogProperties.PREFIX + ".console.";

    /** Prefix of the Kafka sink's engine settings. */
    static final String KAFKA = LockFreeLogProperties.PREFIX + ".kafka.";

    private static final String ROLLING = "logging.logback.rollingpolicy.";

    /** The engine's settings, each under the prefix of its target. */
    static final List<Setting<?>> ENGINE = List.of(
            engine("journal", "journal", LockFreeLogEngineProperties::getJournal, LockFreeAppenderBase::setJournal),
            engine("bufferSize", "buffer-size", LockFreeLogEngineProperties::getBufferSize,
                    (a, v) -> ifSet(v, a, (x, s) -> x.setBufferSize(size(s)))),
            engine("bufferCount", "buffer-count", LockFreeLogEngineProperties::getBufferCount,
                    LockFreeAppenderBase::setBufferCount),
            engine("backpressure", "backpressure", LockFreeLogEngineProperties::getBackpressure,
                    LockFreeAppenderBase::setBackpressure),
            engine("maxBlockTime", "max-block-time", LockFreeLogEngineProperties::getMaxBlockTime,
                    (a, v) -> a.setMaxBlockTime(duration(v))),
            engine("maxEventSize", "max-event-size", LockFreeLogEngineProperties::getMaxEventSize,
                    (a, v) -> ifSet(v, a, (x, s) -> x.setMaxEventSize(size(s)))),
            engine("flushInterval", "flush-interval", LockFreeLogEngineProperties::getFlushInterval,
                    (a, v) -> a.setFlushInterval(duration(v))),
            engine("dropBelowLevel", "drop-below-level", LockFreeLogEngineProperties::getDropBelowLevel,
                    (a, v) -> a.setDropBelowLevel(level(v))));

    /** Spring Boot's rolling, which the file alone has; each property is Spring Boot's full name. */
    static final List<Setting<?>> FILE_ROLLING = List.of(
            rolling("fileNamePattern", "file-name-pattern", FileFormat.Rolling::fileNamePattern,
                    (a, v) -> file(a).setFileNamePattern(v)),
            rolling("maxFileSize", "max-file-size", FileFormat.Rolling::maxFileSize,
                    (a, v) -> ifSet(v > 0 ? v : null, a, (x, s) -> file(x).setMaxFileSize(new FileSize(s)))),
            rolling("maxHistory", "max-history", FileFormat.Rolling::maxHistory, (a, v) -> file(a).setMaxHistory(v)),
            rolling("totalSizeCap", "total-size-cap", FileFormat.Rolling::totalSizeCap,
                    (a, v) -> ifSet(v > 0 ? v : null, a, (x, s) -> file(x).setTotalSizeCap(new FileSize(s)))),
            rolling("cleanHistoryOnStart", "clean-history-on-start", FileFormat.Rolling::cleanHistoryOnStart,
                    (a, v) -> file(a).setCleanHistoryOnStart(v)));

    private AppenderSettings() {
    }

    /** Sets every setting of the table on the file's appender, from its engine's properties and Spring Boot's rolling. */
    static void apply(LockFreeFileAppender appender, LockFreeLogProperties.File properties, FileFormat.Rolling rolling) {
        Sources sources = new Sources(properties, rolling);
        ENGINE.forEach(setting -> setting.apply(appender, sources));
        FILE_ROLLING.forEach(setting -> setting.apply(appender, sources));
    }

    /** Sets the engine's settings on an appender (the console's: it has no rolling). */
    static void applyEngine(LockFreeAppenderBase appender, LockFreeLogEngineProperties properties) {
        Sources sources = new Sources(properties, null);
        ENGINE.forEach(setting -> setting.apply(appender, sources));
    }

    /** The rolling settings are the file appender's alone; the table sets them only on one. */
    private static LockFreeFileAppender file(LockFreeAppenderBase appender) {
        return (LockFreeFileAppender) appender;
    }

    /** The engine's settings as one string: equal strings need no new engine. */
    static String engineIdentity(LockFreeLogEngineProperties properties) {
        Sources sources = new Sources(properties, null);
        return ENGINE.stream().map(s -> Objects.toString(s.value.apply(sources))).collect(Collectors.joining("|"));
    }

    /**
     * The property a problem of the appender's {@code checkSettings()} is about: an engine setting under
     * {@code prefix} (the target's, {@link #FILE} or {@link #CONSOLE}), Spring Boot's rolling, or {@code file} (the
     * caller's {@code fileProperty}).
     */
    static String propertyOf(SettingProblem problem, String prefix, String fileProperty) {
        if ("file".equals(problem.setting())) {
            return fileProperty;
        }
        if ("charset".equals(problem.setting())) { // the encoder's, from Spring Boot's own property
            return CONSOLE.equals(prefix) ? "logging.charset.console" : "logging.charset.file";
        }
        return all().filter(s -> s.name.equals(problem.setting())).map(s -> s.property(prefix)).findFirst()
                .orElse(prefix + problem.setting());
    }

    /** Text as core words it, with its setting names replaced by the target's property names. */
    static String inPropertyNames(String text, String prefix) {
        String result = text;
        for (Setting<?> setting : all().toList()) {
            result = result.replaceAll("\\b" + setting.name + "\\b", setting.property(prefix));
        }
        return result;
    }

    private static Stream<Setting<?>> all() {
        return Stream.concat(ENGINE.stream(), FILE_ROLLING.stream());
    }

    private static <T> Setting<T> engine(String name, String property, Function<LockFreeLogEngineProperties, T> value,
            BiConsumer<LockFreeAppenderBase, T> setter) {
        return new Setting<>(name, property, false, s -> value.apply(s.properties()), setter);
    }

    private static <T> Setting<T> rolling(String name, String property, Function<FileFormat.Rolling, T> value,
            BiConsumer<LockFreeAppenderBase, T> setter) {
        return new Setting<>(name, ROLLING + property, true, s -> value.apply(s.rolling()), setter);
    }

    private static <T> void ifSet(T value, LockFreeAppenderBase appender, BiConsumer<LockFreeAppenderBase, T> setter) {
        if (value != null) {
            setter.accept(appender, value);
        }
    }

    private static FileSize size(DataSize value) {
        return new FileSize(value.toBytes());
    }

    private static Duration duration(java.time.Duration value) {
        return (value != null) ? Duration.buildByMilliseconds(value.toMillis()) : null;
    }

    /** Spring Boot's level as Logback names it (Logback has no FATAL: it is ERROR there, as in Spring Boot's system). */
    private static String level(LogLevel level) {
        if (level == null) {
            return null;
        }
        return (level == LogLevel.FATAL) ? Level.ERROR.toString() : level.name();
    }

    /** Where the values come from: one target's engine properties and the rolling Spring Boot's file would have. */
    record Sources(LockFreeLogEngineProperties properties, FileFormat.Rolling rolling) {
    }

    /**
     * One row: the appender's setting, the property it comes from, its value and how it is set.
     *
     * @param <T> type of the value as the starter holds it
     * @param property the property's name under its target's prefix, or its full name where {@code absolute}
     * @param absolute whether {@code property} is a full name (Spring Boot's rolling) rather than one under a target
     */
    record Setting<T>(String name, String property, boolean absolute, Function<Sources, T> value,
            BiConsumer<LockFreeAppenderBase, T> setter) {

        /** The property's full name, for a target whose engine settings are under {@code prefix}. */
        String property(String prefix) {
            return absolute ? property : prefix + property;
        }

        void apply(LockFreeAppenderBase appender, Sources sources) {
            setter.accept(appender, value.apply(sources));
        }
    }
}
