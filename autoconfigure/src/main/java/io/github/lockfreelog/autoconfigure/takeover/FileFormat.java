package io.github.lockfreelog.autoconfigure.takeover;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.filter.ThresholdFilter;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.encoder.Encoder;
import ch.qos.logback.core.filter.Filter;
import ch.qos.logback.core.rolling.RollingFileAppender;
import ch.qos.logback.core.rolling.SizeAndTimeBasedRollingPolicy;
import ch.qos.logback.core.rolling.TimeBasedRollingPolicy;
import ch.qos.logback.core.spi.PropertyContainer;
import ch.qos.logback.core.spi.ScanException;
import ch.qos.logback.core.status.Status;
import ch.qos.logback.core.util.FileSize;
import ch.qos.logback.core.util.OptionHelper;
import io.github.lockfreelog.autoconfigure.properties.InvalidLockFreeLogPropertyException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.springframework.boot.logging.logback.StructuredLogEncoder;
import org.springframework.core.env.Environment;
import org.springframework.util.StringUtils;

/**
 * What the lock-free file's lines look like and how it rolls: taken from Spring Boot's file appender being replaced
 * (its encoder, filters and rolling policy), or, when there is none, built from what Spring Boot's configuration put
 * in the Logback context ({@code FILE_LOG_PATTERN}, {@code FILE_LOG_STRUCTURED_FORMAT}, {@code FILE_LOG_CHARSET},
 * {@code FILE_LOG_THRESHOLD}, {@code LOGBACK_ROLLINGPOLICY_*}), exactly as Spring Boot builds its own file appender.
 * Nothing is re-derived from Spring properties.
 *
 * @param encoder the encoder of each line
 * @param filters the filters events pass before they are written
 * @param rolling how the file rolls
 * @param identity what the format is made of; equal identities make equal files, so a running appender is kept
 */
record FileFormat(Encoder<ILoggingEvent> encoder, List<Filter<ILoggingEvent>> filters, Rolling rolling, String identity) {

    /**
     * Rolling of the file.
     * @param fileNamePattern names of rolled files
     * @param maxFileSize bytes before the file rolls, 0 to roll by time only
     * @param maxHistory periods of rolled files kept, 0 for all
     * @param totalSizeCap bytes of rolled files kept, 0 for no cap
     * @param cleanHistoryOnStart whether the limits apply at start too
     */
    record Rolling(String fileNamePattern, long maxFileSize, int maxHistory, long totalSizeCap, boolean cleanHistoryOnStart) {
    }

    // Spring Boot's own defaults, as its file appender resolves them against the context (file-appender.xml).
    private static final String FILE_NAME_PATTERN = "${LOGBACK_ROLLINGPOLICY_FILE_NAME_PATTERN:-${LOG_FILE}.%d{yyyy-MM-dd}.%i.gz}";
    private static final String CLEAN_HISTORY_ON_START = "${LOGBACK_ROLLINGPOLICY_CLEAN_HISTORY_ON_START:-false}";
    private static final String MAX_FILE_SIZE = "${LOGBACK_ROLLINGPOLICY_MAX_FILE_SIZE:-10MB}";
    private static final String TOTAL_SIZE_CAP = "${LOGBACK_ROLLINGPOLICY_TOTAL_SIZE_CAP:-0}";
    private static final String MAX_HISTORY = "${LOGBACK_ROLLINGPOLICY_MAX_HISTORY:-7}";
    private static final String THRESHOLD = "${FILE_LOG_THRESHOLD:-TRACE}";
    private static final String ROLLING = "logging.logback.rollingpolicy.";

    /** Spring Boot's file appender's format, for the lock-free appender that replaces it. */
    static FileFormat of(RollingFileAppender<ILoggingEvent> bootFile, LoggerContext context, Environment environment) {
        Encoder<ILoggingEvent> encoder = bootFile.getEncoder();
        Rolling defaults = rolling(context, Path.of(bootFile.getFile()), environment);
        Rolling rolling = defaults;
        if (bootFile.getRollingPolicy() instanceof TimeBasedRollingPolicy<?> policy) {
            rolling = new Rolling(policy.getFileNamePattern(),
                    (policy instanceof SizeAndTimeBasedRollingPolicy<?>) ? defaults.maxFileSize() : 0,
                    policy.getMaxHistory(), defaults.totalSizeCap(), policy.isCleanHistoryOnStart());
        }
        String format = (encoder instanceof PatternLayoutEncoder pattern)
                ? "pattern:" + pattern.getPattern() + "|" + pattern.getCharset()
                : "encoder:" + System.identityHashCode(encoder);
        return new FileFormat(encoder, bootFile.getCopyOfAttachedFiltersList(), rolling,
                format + "|" + resolve(context, THRESHOLD, Map.of()) + "|" + rolling);
    }

    /** The format Spring Boot's file appender would have for {@code file}, built from the context. */
    static FileFormat of(LoggerContext context, Path file, Environment environment) {
        Charset charset = charset(context, environment);
        String structured = context.getProperty("FILE_LOG_STRUCTURED_FORMAT");
        Encoder<ILoggingEvent> encoder;
        String format;
        if (StringUtils.hasText(structured)) {
            StructuredLogEncoder structuredEncoder = new StructuredLogEncoder();
            structuredEncoder.setContext(context);
            structuredEncoder.setFormat(structured);
            structuredEncoder.setCharset(charset);
            try {
                structuredEncoder.start();
            } catch (RuntimeException ex) {
                throw InvalidLockFreeLogPropertyException.of(environment, "logging.structured.format.file", structured,
                        "ecs, gelf, logstash, or the fully-qualified name of a StructuredLogFormatter class ("
                                + ex.getMessage() + ")");
            }
            encoder = structuredEncoder;
            format = "encoder:" + System.identityHashCode(encoder);
        } else {
            String pattern = LogFileWriters.bootFilePattern(context);
            if (!StringUtils.hasText(pattern)) {
                throw InvalidLockFreeLogPropertyException.of(environment, "logging.pattern.file", null,
                        "a Logback pattern: the Logback configuration defines no FILE_LOG_PATTERN for the lock-free"
                                + " file (include Spring Boot's defaults.xml in it, or set logging.pattern.file)");
            }
            encoder = patternEncoder(context, pattern, charset, environment);
            format = "pattern:" + pattern + "|" + charset;
        }
        String threshold = resolve(context, THRESHOLD, Map.of()).trim();
        Level level = Level.toLevel(threshold, null);
        if (level == null) {
            throw InvalidLockFreeLogPropertyException.of(environment, "logging.threshold.file", threshold,
                    "one of TRACE, DEBUG, INFO, WARN, ERROR, OFF");
        }
        List<Filter<ILoggingEvent>> filters = List.of();
        if (level.toInt() > Level.TRACE_INT) {
            ThresholdFilter filter = new ThresholdFilter();
            filter.setContext(context);
            filter.setLevel(level.toString());
            filter.start();
            filters = List.of(filter);
        }
        Rolling rolling = rolling(context, file, environment);
        return new FileFormat(encoder, filters, rolling, format + "|" + level + "|" + rolling);
    }

    private static Encoder<ILoggingEvent> patternEncoder(LoggerContext context, String pattern, Charset charset,
            Environment environment) {
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(context);
        encoder.setPattern(pattern);
        encoder.setCharset(charset);
        long startedAt = System.currentTimeMillis();
        encoder.start();
        List<String> errors = context.getStatusManager().getCopyOfStatusList().stream()
                .filter(s -> s.getLevel() == Status.ERROR && s.getTimestamp() >= startedAt)
                .map(Status::getMessage).collect(Collectors.toList());
        if (!encoder.isStarted() || !errors.isEmpty()) {
            throw InvalidLockFreeLogPropertyException.of(environment, "logging.pattern.file", pattern,
                    "a valid Logback pattern (" + String.join("; ", errors) + ")");
        }
        return encoder;
    }

    private static Charset charset(LoggerContext context, Environment environment) {
        String name = context.getProperty("FILE_LOG_CHARSET");
        if (!StringUtils.hasText(name)) {
            return StandardCharsets.UTF_8;
        }
        try {
            return Charset.forName(name.trim());
        } catch (RuntimeException ex) {
            throw InvalidLockFreeLogPropertyException.of(environment, "logging.charset.file", name,
                    "the name of a charset this JVM supports, e.g. UTF-8");
        }
    }

    private static Rolling rolling(LoggerContext context, Path file, Environment environment) {
        Map<String, String> logFile = Map.of("LOG_FILE", file.toString());
        String pattern = resolve(context, FILE_NAME_PATTERN, logFile);
        long maxFileSize = size(context, MAX_FILE_SIZE, environment, ROLLING + "max-file-size");
        long totalSizeCap = size(context, TOTAL_SIZE_CAP, environment, ROLLING + "total-size-cap");
        String history = resolve(context, MAX_HISTORY, Map.of()).trim();
        int maxHistory;
        try {
            maxHistory = Integer.parseInt(history);
        } catch (NumberFormatException ex) {
            throw InvalidLockFreeLogPropertyException.of(environment, ROLLING + "max-history", history,
                    "0 (keep all) or a positive number of periods");
        }
        boolean clean = Boolean.parseBoolean(resolve(context, CLEAN_HISTORY_ON_START, Map.of()).trim());
        return new Rolling(pattern, maxFileSize, maxHistory, totalSizeCap, clean);
    }

    private static long size(LoggerContext context, String template, Environment environment, String property) {
        String value = resolve(context, template, Map.of()).trim();
        try {
            return FileSize.valueOf(value).getSize();
        } catch (RuntimeException ex) {
            throw InvalidLockFreeLogPropertyException.of(environment, property, value, "a size such as 10MB, or 0");
        }
    }

    /** Substitutes a template as Logback does, {@code overrides} first, then the context's properties. */
    static String resolve(LoggerContext context, String template, Map<String, String> overrides) {
        PropertyContainer first = new PropertyContainer() {
            @Override
            public void addSubstitutionProperty(String key, String value) {
                throw new UnsupportedOperationException();
            }

            @Override
            public String getProperty(String key) {
                return overrides.get(key);
            }

            @Override
            public Map<String, String> getCopyOfPropertyMap() {
                return overrides;
            }
        };
        try {
            return OptionHelper.substVars(template, first, context);
        } catch (ScanException ex) {
            throw new IllegalStateException("Spring Boot's template " + template + " could not be substituted", ex);
        }
    }
}
