package io.github.lockfreelog.autoconfigure;

import ch.qos.logback.classic.Level;
import ch.qos.logback.core.spi.PropertyContainer;
import ch.qos.logback.core.spi.ScanException;
import io.github.lockfreelog.journal.Backpressure;
import io.github.lockfreelog.journal.JournalDescriptor;
import io.github.lockfreelog.logback.LockFreeFileAppender;
import java.nio.charset.Charset;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.StandardCharsets;
import java.nio.charset.UnsupportedCharsetException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.logging.LogFile;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.PropertyResolver;
import org.springframework.util.StringUtils;
import org.springframework.util.unit.DataSize;

/**
 * The appender's settings once {@code lockfreelog.*} and the {@code logging.*} fallbacks are
 * resolved and checked. Equal settings mean the same appender: it is reused, not rebuilt.
 *
 * @param file absolute path of the log file
 * @param journal absolute path of the journal, or {@code null} for the appender's default
 * @param pattern Logback pattern of each line, its {@code ${...}} variables substituted, or {@code null} when
 *        {@code structuredFormat} is set
 * @param patternProperty property the pattern came from (for error messages)
 * @param structuredFormat Spring Boot structured log format ({@code ecs}, {@code gelf}, {@code logstash} or a class
 *        name), or {@code null} for a pattern
 * @param structuredFormatProperty property the structured format came from (for error messages)
 * @param structuredProperties {@code logging.structured.*} and {@code spring.application.*} as they were when the
 *        settings were resolved (the structured formatters read them once, at start), empty without a structured format
 * @param charset charset of the log file
 * @param bufferSize bytes per buffer
 * @param bufferCount number of buffers
 * @param backpressure what a caller does when the next buffer is not drained
 * @param maxBlockTime longest wait under {@code BLOCK}
 * @param maxEventSize largest event kept whole, or {@code null} for the appender's default
 * @param flushInterval period of the drainer's flush of the active buffer
 * @param dropBelowLevel level name, upper case, or {@code null}
 * @param loggers loggers to attach to
 * @param replaceBootFileAppender whether Spring Boot's file appender for {@code bootLogFile} is removed
 * @param bootLogFile absolute path of Spring Boot's log file ({@code logging.file.*}), or {@code null}
 * @param rolling rolling of the log file, or {@code null} when it never rolls
 * @param threshold level name from {@code logging.threshold.file} below which events are not written, or
 *        {@code null} when every level is written
 */
record LockFreeLogSettings(String file, String journal, String pattern, String patternProperty,
        String structuredFormat, String structuredFormatProperty, Map<String, Object> structuredProperties,
        Charset charset, long bufferSize, int bufferCount, Backpressure backpressure, Duration maxBlockTime,
        Long maxEventSize, Duration flushInterval, String dropBelowLevel, List<String> loggers,
        boolean replaceBootFileAppender, String bootLogFile, LockFreeLogRolling rolling, String threshold) {

    /** Where the default pattern's variables come from, for error messages. */
    static final String DEFAULT_PATTERN_PROPERTIES = "logging.pattern.dateformat / logging.pattern.level / "
            + "logging.pattern.correlation / logging.exception-conversion-word";

    /** Spring Boot's property for the threshold of its log file. */
    static final String BOOT_THRESHOLD = "logging.threshold.file";

    /** Spring Boot's property for the structured format of its log file. */
    static final String BOOT_STRUCTURED_FORMAT = "logging.structured.format.file";

    private static final Set<String> LEVELS = Set.of("TRACE", "DEBUG", "INFO", "WARN", "ERROR", "OFF");
    private static final String P = LockFreeLogProperties.PREFIX + ".";

    /**
     * Resolves and checks the settings.
     *
     * @return the settings, or {@code null} when no log file is set anywhere (then no appender is attached)
     * @throws InvalidLockFreeLogPropertyException naming the first property whose value cannot be used
     */
    static LockFreeLogSettings resolve(LockFreeLogProperties properties, PropertyResolver environment,
            PropertyContainer loggerContext) {
        LogFile bootLog = LogFile.get(environment);
        String bootLogFile = (bootLog != null) ? absolute(bootLog.toString()) : null;
        String file = StringUtils.hasText(properties.getFile()) ? absolute(properties.getFile()) : bootLogFile;
        if (file == null) {
            return null;
        }
        if (!properties.isReplaceBootFileAppender() && file.equals(bootLogFile)) {
            throw new InvalidLockFreeLogPropertyException(P + "file", file,
                    "a file other than Spring Boot's log file (logging.file.name / logging.file.path) while "
                            + P + "replace-boot-file-appender=false, so that no file is written by two appenders");
        }
        String journal = StringUtils.hasText(properties.getJournal()) ? absolute(properties.getJournal()) : null;
        if (file.equals(journal)) {
            throw new InvalidLockFreeLogPropertyException(P + "journal", journal, "a path other than the log file");
        }

        long bufferSize = checkBufferSize(properties.getBufferSize());
        int bufferCount = properties.getBufferCount();
        if (JournalDescriptor.checkBufferCount(bufferCount) != null) {
            throw new InvalidLockFreeLogPropertyException(P + "buffer-count", bufferCount,
                    "an integer from " + JournalDescriptor.MIN_BUFFER_COUNT + " to " + JournalDescriptor.MAX_BUFFER_COUNT);
        }
        if (JournalDescriptor.checkGeometry(bufferCount, bufferSize) != null) {
            throw new InvalidLockFreeLogPropertyException(P + "buffer-size", properties.getBufferSize(),
                    P + "buffer-size x " + P + "buffer-count must stay under 2GB (buffer-count is " + bufferCount + ")");
        }
        Long maxEventSize = null;
        if (properties.getMaxEventSize() != null) {
            maxEventSize = properties.getMaxEventSize().toBytes();
            long maxAllowed = Math.min(bufferSize / 2, LockFreeFileAppender.MAX_MAX_EVENT_SIZE);
            if (maxEventSize < LockFreeFileAppender.MIN_MAX_EVENT_SIZE || maxEventSize > maxAllowed) {
                throw new InvalidLockFreeLogPropertyException(P + "max-event-size", properties.getMaxEventSize(),
                        "a size from " + LockFreeFileAppender.MIN_MAX_EVENT_SIZE + "B to half of " + P
                                + "buffer-size, at most 16MB (" + maxAllowed + "B here), or unset for a quarter of it");
            }
        }
        if (properties.getBackpressure() == null) {
            throw new InvalidLockFreeLogPropertyException(P + "backpressure", "", "BLOCK or DROP");
        }
        Duration maxBlockTime = checkDuration("max-block-time", properties.getMaxBlockTime());
        Duration flushInterval = checkDuration("flush-interval", properties.getFlushInterval());
        String dropBelowLevel = null;
        if (StringUtils.hasText(properties.getDropBelowLevel())) {
            dropBelowLevel = properties.getDropBelowLevel().trim().toUpperCase(Locale.ROOT);
            if (!LEVELS.contains(dropBelowLevel)) {
                throw new InvalidLockFreeLogPropertyException(P + "drop-below-level", properties.getDropBelowLevel(),
                        "one of TRACE, DEBUG, INFO, WARN, ERROR, OFF");
            }
        }
        List<String> loggers = (properties.getLoggers() != null) ? properties.getLoggers().stream().map(String::trim).toList()
                : List.of();
        if (loggers.isEmpty() || loggers.stream().anyMatch(String::isEmpty)) {
            throw new InvalidLockFreeLogPropertyException(P + "loggers", properties.getLoggers(),
                    "one or more logger names, e.g. ROOT or com.example");
        }

        // Patterns are read as written and their ${...} substituted by Logback, as Spring Boot's file appender
        // leaves unresolvable ones to Logback: ${NOPE} becomes NOPE_IS_UNDEFINED, ${NAME:-default} works.
        String pattern = (properties.getPattern() != null)
                ? LockFreeLogRolling.rawOr(environment, P + "pattern", properties.getPattern()) : null;
        String patternProperty = P + "pattern";
        String structuredFormat = null;
        String structuredFormatProperty = null;
        String bootStructuredFormat = property(environment, BOOT_STRUCTURED_FORMAT);
        if (StringUtils.hasText(properties.getStructuredFormat())) {
            structuredFormat = properties.getStructuredFormat().trim();
            structuredFormatProperty = P + "structured-format";
            if (pattern != null) {
                throw new InvalidLockFreeLogPropertyException(structuredFormatProperty, structuredFormat,
                        "unset while " + P + "pattern is set: each line is either a pattern or a structured document");
            }
        } else if (pattern == null && StringUtils.hasText(bootStructuredFormat)) {
            // As in Spring Boot's own file appender, a structured format wins over logging.pattern.file.
            structuredFormat = bootStructuredFormat.trim();
            structuredFormatProperty = BOOT_STRUCTURED_FORMAT;
        }
        LockFreeLogVariables variables = new LockFreeLogVariables(environment);
        if (structuredFormat == null) {
            if (pattern == null) {
                pattern = LockFreeLogRolling.rawOr(environment, "logging.pattern.file", null);
                patternProperty = "logging.pattern.file";
            }
            if (pattern == null) {
                pattern = LockFreeLogVariables.FILE_LOG_PATTERN;
                patternProperty = DEFAULT_PATTERN_PROPERTIES;
            }
            if (!StringUtils.hasText(pattern)) {
                throw new InvalidLockFreeLogPropertyException(patternProperty, pattern, "a Logback pattern, e.g. %d %5p [%t] %logger : %m%n");
            }
            pattern = substitute(variables, pattern, loggerContext, patternProperty, "a Logback pattern");
        } else {
            pattern = null;
        }
        String threshold = substitute(variables, LockFreeLogVariables.FILE_LOG_THRESHOLD, loggerContext, BOOT_THRESHOLD,
                "a level").trim();
        Level thresholdLevel = Level.toLevel(threshold, null);
        if (thresholdLevel == null) {
            throw new InvalidLockFreeLogPropertyException(BOOT_THRESHOLD, threshold,
                    "one of TRACE, DEBUG, INFO, WARN, ERROR, OFF (or false, which Spring Boot reads as OFF)");
        }
        threshold = (thresholdLevel.toInt() <= Level.TRACE_INT) ? null : thresholdLevel.toString();
        Charset charset = properties.getCharset();
        if (charset == null) {
            charset = charset(property(environment, "logging.charset.file"));
        }
        LockFreeLogRolling rolling = LockFreeLogRolling.resolve(properties.getRolling(), environment, file);
        return new LockFreeLogSettings(file, journal, pattern, patternProperty, structuredFormat,
                structuredFormatProperty, (structuredFormat != null) ? structuredProperties(environment) : Map.of(),
                charset, bufferSize, bufferCount, properties.getBackpressure(), maxBlockTime, maxEventSize,
                flushInterval, dropBelowLevel, loggers, properties.isReplaceBootFileAppender(), bootLogFile, rolling,
                threshold);
    }

    /** Logback's substitution of {@code ${...}}; what it cannot parse is reported against {@code property}. */
    private static String substitute(LockFreeLogVariables variables, String template, PropertyContainer loggerContext,
            String property, String what) {
        try {
            return variables.substitute(template, loggerContext);
        } catch (ScanException | RuntimeException ex) {
            throw new InvalidLockFreeLogPropertyException(property, template,
                    what + " whose ${...} variables Logback can substitute (" + ex.getMessage() + ")");
        }
    }

    /**
     * A Spring property; one whose placeholders cannot be resolved is reported against its name rather than
     * failing start-up with a stack trace.
     */
    private static String property(PropertyResolver environment, String name) {
        try {
            return environment.getProperty(name);
        } catch (IllegalArgumentException ex) {
            throw new InvalidLockFreeLogPropertyException(name, LockFreeLogRolling.rawOr(environment, name, null),
                    "a value whose ${...} placeholders can be resolved (" + ex.getMessage() + ")");
        }
    }

    /** What the structured formatters read from the environment, so that other values make another appender. */
    private static Map<String, Object> structuredProperties(PropertyResolver environment) {
        if (!(environment instanceof ConfigurableEnvironment configurable)) {
            return Map.of();
        }
        Binder binder = Binder.get(configurable);
        Map<String, Object> result = new TreeMap<>();
        for (String prefix : List.of("logging.structured", "spring.application")) {
            binder.bind(prefix, Bindable.mapOf(String.class, Object.class)).ifBound(map -> result.put(prefix, map));
        }
        return result;
    }

    private static long checkBufferSize(DataSize size) {
        String allowed = "a multiple of " + JournalDescriptor.PAGE_SIZE / 1024 + "KB from "
                + JournalDescriptor.MIN_BUFFER_SIZE / 1024 + "KB to " + JournalDescriptor.MAX_BUFFER_SIZE / (1024 * 1024) + "MB";
        if (size == null || JournalDescriptor.checkBufferSize(size.toBytes()) != null) {
            throw new InvalidLockFreeLogPropertyException(P + "buffer-size", size, allowed);
        }
        return size.toBytes();
    }

    private static Duration checkDuration(String name, Duration value) {
        // Logback counts durations in whole milliseconds.
        if (value == null || value.toMillis() < 1) {
            throw new InvalidLockFreeLogPropertyException(P + name, value, "a positive duration of at least 1ms, e.g. 500ms or 2s");
        }
        return value;
    }

    private static Charset charset(String name) {
        if (!StringUtils.hasText(name)) {
            return StandardCharsets.UTF_8;
        }
        try {
            return Charset.forName(name.trim());
        } catch (IllegalCharsetNameException | UnsupportedCharsetException ex) {
            throw new InvalidLockFreeLogPropertyException("logging.charset.file", name,
                    "a charset name this JVM supports, e.g. UTF-8 or ISO-8859-1");
        }
    }

    static String absolute(String path) {
        Path p = Paths.get(path.trim());
        return p.toAbsolutePath().normalize().toString();
    }
}
