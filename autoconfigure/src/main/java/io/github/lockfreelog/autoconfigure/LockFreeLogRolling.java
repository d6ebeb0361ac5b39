package io.github.lockfreelog.autoconfigure;

import ch.qos.logback.core.ContextBase;
import ch.qos.logback.core.rolling.helper.FileNamePattern;
import ch.qos.logback.core.status.Status;
import ch.qos.logback.core.util.FileSize;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Locale;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.PropertyResolver;
import org.springframework.util.PropertyPlaceholderHelper;
import org.springframework.util.StringUtils;
import org.springframework.util.unit.DataSize;

/**
 * Rolling of the log file once {@code lockfreelog.rolling.*}, Spring Boot's
 * {@code logging.logback.rollingpolicy.*} (and the older names Spring Boot still reads) and the defaults
 * of Spring Boot's own file appender are resolved and checked.
 *
 * @param fileNamePattern names of rolled files, placeholders resolved
 * @param fileNamePatternProperty property the pattern came from (for error messages)
 * @param maxFileSize bytes the log file may reach before it rolls, or 0 to roll by time only
 * @param maxHistory periods of rolled files to keep, 0 for all
 * @param totalSizeCap bytes of rolled files above which the oldest are deleted, or 0 for no cap
 * @param cleanHistoryOnStart whether {@code maxHistory} and {@code totalSizeCap} also apply at start
 */
record LockFreeLogRolling(String fileNamePattern, String fileNamePatternProperty, long maxFileSize, int maxHistory,
        long totalSizeCap, boolean cleanHistoryOnStart) {

    /** Spring Boot's rolling properties. */
    static final String BOOT_PREFIX = "logging.logback.rollingpolicy.";

    /** The defaults of Spring Boot's file appender (its logback {@code file-appender.xml}). */
    static final String DEFAULT_FILE_NAME_PATTERN = "${LOG_FILE}.%d{yyyy-MM-dd}.%i.gz";
    static final DataSize DEFAULT_MAX_FILE_SIZE = DataSize.ofMegabytes(10);
    static final int DEFAULT_MAX_HISTORY = 7;

    private static final String P = LockFreeLogProperties.PREFIX + ".rolling.";
    private static final String SIZE_ALLOWED = "0B (roll by time only) or a positive size, e.g. 10MB";
    private static final String CAP_ALLOWED = "0B (no cap) or a positive size, e.g. 1GB";
    private static final PropertyPlaceholderHelper PLACEHOLDERS = new PropertyPlaceholderHelper("${", "}", ":", null, false);

    /**
     * Resolves and checks the rolling settings for the log file {@code file}.
     *
     * @return the settings, or {@code null} when {@code lockfreelog.rolling.enabled} is {@code false}
     * @throws InvalidLockFreeLogPropertyException naming the first property whose value cannot be used
     */
    static LockFreeLogRolling resolve(LockFreeLogProperties.Rolling properties, PropertyResolver environment, String file) {
        if (!properties.isEnabled()) {
            return null;
        }
        Value pattern = (properties.getFileNamePattern() != null)
                ? new Value(P + "file-name-pattern", rawOr(environment, P + "file-name-pattern", properties.getFileNamePattern()))
                : boot(environment, true, "file-name-pattern", "logging.pattern.rolling-file-name");
        if (pattern == null) {
            pattern = new Value(P + "file-name-pattern", DEFAULT_FILE_NAME_PATTERN);
        }
        String fileNamePattern = checkPattern(pattern, environment, file);

        Value size = (properties.getMaxFileSize() != null)
                ? new Value(P + "max-file-size", properties.getMaxFileSize().toString())
                : boot(environment, false, "max-file-size", "logging.file.max-size");
        long maxFileSize;
        if (size != null) {
            maxFileSize = (properties.getMaxFileSize() != null) ? properties.getMaxFileSize().toBytes() : parseSize(size, SIZE_ALLOWED);
            if (maxFileSize < 0) {
                throw new InvalidLockFreeLogPropertyException(size.property(), size.text(), SIZE_ALLOWED);
            }
        } else {
            // Spring Boot's default size applies to patterns that can number files within a period.
            maxFileSize = hasIndex(fileNamePattern) ? DEFAULT_MAX_FILE_SIZE.toBytes() : 0;
        }
        if (maxFileSize > 0 && !hasIndex(fileNamePattern)) {
            throw new InvalidLockFreeLogPropertyException(pattern.property(), pattern.text(),
                    "a pattern with the index token %i, e.g. ${LOG_FILE}.%d{yyyy-MM-dd}.%i.gz, because the file also rolls by size ("
                            + ((size != null) ? size.property() + "=" + size.text() : "max-file-size " + DEFAULT_MAX_FILE_SIZE)
                            + "); or set " + P + "max-file-size=0B to roll by time only");
        }

        int maxHistory = DEFAULT_MAX_HISTORY;
        Value history = (properties.getMaxHistory() != null)
                ? new Value(P + "max-history", properties.getMaxHistory().toString())
                : boot(environment, false, "max-history", "logging.file.max-history");
        if (history != null) {
            try {
                maxHistory = Integer.parseInt(history.text());
            } catch (NumberFormatException ex) {
                maxHistory = -1;
            }
            if (maxHistory < 0) {
                throw new InvalidLockFreeLogPropertyException(history.property(), history.text(),
                        "an integer of at least 0 (0 keeps every rolled file)");
            }
        }

        long totalSizeCap = 0;
        Value cap = (properties.getTotalSizeCap() != null)
                ? new Value(P + "total-size-cap", properties.getTotalSizeCap().toString())
                : boot(environment, false, "total-size-cap", "logging.file.total-size-cap");
        if (cap != null) {
            totalSizeCap = (properties.getTotalSizeCap() != null) ? properties.getTotalSizeCap().toBytes() : parseSize(cap, CAP_ALLOWED);
            if (totalSizeCap < 0) {
                throw new InvalidLockFreeLogPropertyException(cap.property(), cap.text(), CAP_ALLOWED);
            }
        }

        boolean cleanHistoryOnStart = false;
        if (properties.getCleanHistoryOnStart() != null) {
            cleanHistoryOnStart = properties.getCleanHistoryOnStart();
        } else {
            Value clean = boot(environment, false, "clean-history-on-start", "logging.file.clean-history-on-start");
            if (clean != null) {
                String text = clean.text().toLowerCase(Locale.ROOT);
                if (!text.equals("true") && !text.equals("false")) {
                    throw new InvalidLockFreeLogPropertyException(clean.property(), clean.text(), "true or false");
                }
                cleanHistoryOnStart = Boolean.parseBoolean(text);
            }
        }
        return new LockFreeLogRolling(fileNamePattern, pattern.property(), maxFileSize, maxHistory, totalSizeCap,
                cleanHistoryOnStart);
    }

    /** Resolves {@code ${LOG_FILE}}, {@code ${LOG_PATH}} (the lock-free appender's file and folder) and other placeholders, then checks the pattern. */
    private static String checkPattern(Value pattern, PropertyResolver environment, String file) {
        Path log = Paths.get(file);
        String resolved;
        try {
            resolved = PLACEHOLDERS.replacePlaceholders(pattern.text(), name -> switch (name) {
                case "LOG_FILE" -> log.toString();
                case "LOG_PATH" -> log.getParent().toString();
                default -> environment.getProperty(name);
            }).trim();
        } catch (IllegalArgumentException ex) {
            throw new InvalidLockFreeLogPropertyException(pattern.property(), pattern.text(),
                    "a pattern whose placeholders can be resolved (" + ex.getMessage() + ")");
        }
        String allowed = "a Logback file name pattern with the date token %d{...}, e.g. ${LOG_FILE}.%d{yyyy-MM-dd}.%i.gz";
        if (!resolved.contains("%d")) {
            throw new InvalidLockFreeLogPropertyException(pattern.property(), pattern.text(), allowed);
        }
        ContextBase scratch = new ContextBase();
        try {
            FileNamePattern parsed = new FileNamePattern(resolved, scratch);
            if (parsed.getPrimaryDateTokenConverter() == null) {
                throw new IllegalArgumentException("no primary %d token");
            }
        } catch (RuntimeException ex) {
            throw new InvalidLockFreeLogPropertyException(pattern.property(), pattern.text(), allowed + " (" + ex.getMessage() + ")");
        }
        scratch.getStatusManager().getCopyOfStatusList().stream().filter(s -> s.getLevel() == Status.ERROR).findFirst()
                .ifPresent(s -> {
                    throw new InvalidLockFreeLogPropertyException(pattern.property(), pattern.text(),
                            allowed + " (" + s.getMessage() + ")");
                });
        return resolved;
    }

    private static boolean hasIndex(String fileNamePattern) {
        return fileNamePattern.contains("%i");
    }

    /** Sizes in Spring's syntax ({@code 10MB}) or, as Spring Boot also accepts there, Logback's ({@code 10 MB}). */
    private static long parseSize(Value value, String allowed) {
        try {
            return DataSize.parse(value.text()).toBytes();
        } catch (IllegalArgumentException ex) {
            try {
                return FileSize.valueOf(value.text()).getSize();
            } catch (IllegalArgumentException ex2) {
                throw new InvalidLockFreeLogPropertyException(value.property(), value.text(), allowed);
            }
        }
    }

    /** The first of Spring Boot's {@code logging.logback.rollingpolicy.<name>} and {@code older} that is set. */
    private static Value boot(PropertyResolver environment, boolean raw, String name, String older) {
        for (String property : new String[] { BOOT_PREFIX + name, older }) {
            String text = raw ? rawOr(environment, property, null) : environment.getProperty(property);
            if (StringUtils.hasText(text)) {
                return new Value(property, text.trim());
            }
        }
        return null;
    }

    /**
     * The value as written, placeholders not resolved: the environment would resolve {@code ${LOG_FILE}} to Spring
     * Boot's log file, which is not always the file this appender writes.
     */
    static String rawOr(PropertyResolver environment, String property, String fallback) {
        if (environment instanceof ConfigurableEnvironment configurable) {
            ConfigurationPropertyName name = ConfigurationPropertyName.of(property);
            for (ConfigurationPropertySource source : ConfigurationPropertySources.get(configurable)) {
                ConfigurationProperty found = source.getConfigurationProperty(name);
                if (found != null && found.getValue() != null) {
                    return found.getValue().toString();
                }
            }
            return fallback;
        }
        return (fallback != null) ? fallback : environment.getProperty(property);
    }

    private record Value(String property, String text) {
    }
}
