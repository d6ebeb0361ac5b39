package io.github.lockfreelog.autoconfigure.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.core.util.Duration;
import ch.qos.logback.core.util.FileSize;
import io.github.lockfreelog.engine.SettingProblem;
import io.github.lockfreelog.logback.LockFreeAppenderBase;
import io.github.lockfreelog.logback.LockFreeFileAppender;
import java.util.List;
import java.util.Objects;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.springframework.boot.logging.LogLevel;
import org.springframework.util.unit.DataSize;

/**
 * The one table of the appender's settings the starter sets: each setting (as in {@code logback.xml}), the property it
 * comes from, and how its value reaches the appender. What the starter does with a setting reads this table: setting
 * the appender, telling whether a run asks for another engine, and naming the property in a report of a bad value.
 */
final class AppenderSettings {

    private static final String P = LockFreeLogProperties.PREFIX + ".";

    private static final String ROLLING = "logging.logback.rollingpolicy.";

    /** Every setting the starter sets; the engine's ({@code lockfreelog.*}) first, then Spring Boot's rolling. */
    static final List<Setting<?>> TABLE = List.of(
            engine("journal", "journal", LockFreeLogProperties::getJournal, LockFreeAppenderBase::setJournal),
            engine("bufferSize", "buffer-size", LockFreeLogProperties::getBufferSize,
                    (a, v) -> ifSet(v, a, (x, s) -> x.setBufferSize(size(s)))),
            engine("bufferCount", "buffer-count", LockFreeLogProperties::getBufferCount,
                    LockFreeAppenderBase::setBufferCount),
            engine("backpressure", "backpressure", LockFreeLogProperties::getBackpressure,
                    LockFreeAppenderBase::setBackpressure),
            engine("maxBlockTime", "max-block-time", LockFreeLogProperties::getMaxBlockTime,
                    (a, v) -> a.setMaxBlockTime(duration(v))),
            engine("maxEventSize", "max-event-size", LockFreeLogProperties::getMaxEventSize,
                    (a, v) -> ifSet(v, a, (x, s) -> x.setMaxEventSize(size(s)))),
            engine("flushInterval", "flush-interval", LockFreeLogProperties::getFlushInterval,
                    (a, v) -> a.setFlushInterval(duration(v))),
            engine("dropBelowLevel", "drop-below-level", LockFreeLogProperties::getDropBelowLevel,
                    (a, v) -> a.setDropBelowLevel(level(v))),
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

    /** Sets every setting of the table on the appender, from the engine's properties and Spring Boot's rolling. */
    static void apply(LockFreeFileAppender appender, LockFreeLogProperties properties, FileFormat.Rolling rolling) {
        Sources sources = new Sources(properties, rolling);
        TABLE.forEach(setting -> setting.apply(appender, sources));
    }

    /**
     * Sets the engine's settings but the journal on an appender without a file (the console, whose journal is
     * {@code lockfreelog.console.journal}).
     */
    static void applyEngine(LockFreeAppenderBase appender, LockFreeLogProperties properties) {
        Sources sources = new Sources(properties, null);
        TABLE.stream().filter(s -> s.isEngine() && !"journal".equals(s.name)).forEach(s -> s.apply(appender, sources));
    }

    /** The rolling settings are the file appender's alone; the table sets them only on one. */
    private static LockFreeFileAppender file(LockFreeAppenderBase appender) {
        return (LockFreeFileAppender) appender;
    }

    /** The engine's settings as one string: equal strings need no new engine. */
    static String engineIdentity(LockFreeLogProperties properties) {
        Sources sources = new Sources(properties, null);
        return TABLE.stream().filter(Setting::isEngine).map(s -> Objects.toString(s.value.apply(sources)))
                .collect(Collectors.joining("|"));
    }

    /** The property a problem of the appender's {@code checkSettings()} is about; {@code file} is the caller's. */
    static String propertyOf(SettingProblem problem, String fileProperty) {
        if ("file".equals(problem.setting())) {
            return fileProperty;
        }
        return TABLE.stream().filter(s -> s.name.equals(problem.setting())).map(Setting::property).findFirst()
                .orElse(P + problem.setting());
    }

    /** Text as core words it, with its setting names replaced by the starter's property names. */
    static String inPropertyNames(String text) {
        String result = text;
        for (Setting<?> setting : TABLE) {
            result = result.replaceAll("\\b" + setting.name + "\\b", setting.property);
        }
        return result;
    }

    private static <T> Setting<T> engine(String name, String property, Function<LockFreeLogProperties, T> value,
            BiConsumer<LockFreeAppenderBase, T> setter) {
        return new Setting<>(name, P + property, s -> value.apply(s.properties()), setter);
    }

    private static <T> Setting<T> rolling(String name, String property, Function<FileFormat.Rolling, T> value,
            BiConsumer<LockFreeAppenderBase, T> setter) {
        return new Setting<>(name, ROLLING + property, s -> value.apply(s.rolling()), setter);
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

    /** Where the values come from: the engine's properties and the rolling Spring Boot's file would have. */
    record Sources(LockFreeLogProperties properties, FileFormat.Rolling rolling) {
    }

    /**
     * One row: the appender's setting, the property it comes from, its value and how it is set.
     *
     * @param <T> type of the value as the starter holds it
     */
    record Setting<T>(String name, String property, Function<Sources, T> value,
            BiConsumer<LockFreeAppenderBase, T> setter) {

        /** Whether it is a setting of the engine ({@code lockfreelog.*}), rather than of Spring Boot's rolling. */
        boolean isEngine() {
            return property.startsWith(P);
        }

        void apply(LockFreeAppenderBase appender, Sources sources) {
            setter.accept(appender, value.apply(sources));
        }
    }
}
