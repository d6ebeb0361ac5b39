package io.github.lockfreelog.autoconfigure;

import io.github.lockfreelog.journal.Backpressure;
import java.nio.charset.Charset;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;

/**
 * Settings of the lock-free log file appender that the starter attaches when Spring Boot
 * initialises Logback. Unset values fall back to Spring Boot's {@code logging.*} properties
 * where an equivalent exists, then to the appender's own defaults.
 */
@ConfigurationProperties(prefix = LockFreeLogProperties.PREFIX)
public class LockFreeLogProperties {

    public static final String PREFIX = "lockfreelog";

    /** Whether to attach the lock-free appender and expose its endpoint, metrics and health. */
    private boolean enabled = true;

    /** Log file to write. When unset, "logging.file.name", then "logging.file.path"/spring.log. */
    private String file;

    /** Journal file holding the memory-mapped buffers. When unset, ".lockfreelog/<log file name>.journal" beside the log file. */
    private String journal;

    /** Size of each buffer of the journal: a multiple of 4KB from 64KB to 512MB. */
    private DataSize bufferSize = DataSize.ofMegabytes(8);

    /** Number of buffers in the journal, from 2 to 16. */
    private int bufferCount = 3;

    /** What a logging thread does when the next buffer has not been drained yet. */
    private Backpressure backpressure = Backpressure.BLOCK;

    /** Longest time a logging thread waits for a drained buffer under BLOCK before the event is dropped. */
    private Duration maxBlockTime = Duration.ofSeconds(1);

    /** Largest encoded event kept whole; longer events are cut and counted as truncated. At most half the buffer size. When unset, a quarter of the buffer size. */
    private DataSize maxEventSize;

    /** Longest time a logged line waits to be written to the log file while no buffer fills. */
    private Duration flushInterval = Duration.ofMillis(200);

    /** Under DROP, only events below this level are dropped; events at or above it wait as under BLOCK. When unset, every event may be dropped. */
    private String dropBelowLevel;

    /** Loggers to attach the appender to. */
    private List<String> loggers = new ArrayList<>(List.of("ROOT"));

    /** Logback pattern of each line, read as written: Logback substitutes its ${...} variables (Spring properties included). When unset, "logging.pattern.file", then Spring Boot's default file pattern with "logging.pattern.*" applied. */
    private String pattern;

    /** Structured log format of each line (ecs, gelf, logstash, or the fully-qualified name of a StructuredLogFormatter), written as one JSON document per line. When unset, "logging.structured.format.file" unless a pattern is set here. */
    private String structuredFormat;

    /** Charset of the log file. When unset, "logging.charset.file", then UTF-8. */
    private Charset charset;

    /** Whether the lock-free appender takes the place of Spring Boot's own file appender for "logging.file.*". */
    private boolean replaceBootFileAppender = true;

    private final Rolling rolling = new Rolling();

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public String getFile() {
        return file;
    }

    public void setFile(String file) {
        this.file = file;
    }

    public String getJournal() {
        return journal;
    }

    public void setJournal(String journal) {
        this.journal = journal;
    }

    public DataSize getBufferSize() {
        return bufferSize;
    }

    public void setBufferSize(DataSize bufferSize) {
        this.bufferSize = bufferSize;
    }

    public int getBufferCount() {
        return bufferCount;
    }

    public void setBufferCount(int bufferCount) {
        this.bufferCount = bufferCount;
    }

    public Backpressure getBackpressure() {
        return backpressure;
    }

    public void setBackpressure(Backpressure backpressure) {
        this.backpressure = backpressure;
    }

    public Duration getMaxBlockTime() {
        return maxBlockTime;
    }

    public void setMaxBlockTime(Duration maxBlockTime) {
        this.maxBlockTime = maxBlockTime;
    }

    public DataSize getMaxEventSize() {
        return maxEventSize;
    }

    public void setMaxEventSize(DataSize maxEventSize) {
        this.maxEventSize = maxEventSize;
    }

    public Duration getFlushInterval() {
        return flushInterval;
    }

    public void setFlushInterval(Duration flushInterval) {
        this.flushInterval = flushInterval;
    }

    public String getDropBelowLevel() {
        return dropBelowLevel;
    }

    public void setDropBelowLevel(String dropBelowLevel) {
        this.dropBelowLevel = dropBelowLevel;
    }

    public List<String> getLoggers() {
        return loggers;
    }

    public void setLoggers(List<String> loggers) {
        this.loggers = loggers;
    }

    public String getPattern() {
        return pattern;
    }

    public void setPattern(String pattern) {
        this.pattern = pattern;
    }

    public String getStructuredFormat() {
        return structuredFormat;
    }

    public void setStructuredFormat(String structuredFormat) {
        this.structuredFormat = structuredFormat;
    }

    public Charset getCharset() {
        return charset;
    }

    public void setCharset(Charset charset) {
        this.charset = charset;
    }

    public boolean isReplaceBootFileAppender() {
        return replaceBootFileAppender;
    }

    public void setReplaceBootFileAppender(boolean replaceBootFileAppender) {
        this.replaceBootFileAppender = replaceBootFileAppender;
    }

    public Rolling getRolling() {
        return rolling;
    }

    /**
     * Rolling of the log file. Each unset value falls back to Spring Boot's
     * {@code logging.logback.rollingpolicy.*}, then to the defaults of Spring Boot's own file appender.
     */
    public static class Rolling {

        /** Whether the log file rolls. With false the file grows for ever, as with a plain Logback FileAppender. */
        private boolean enabled = true;

        /** Names of rolled files, in Logback's syntax: %d{...} for the period (required), %i for the index within a period (required with a max-file-size), .gz or .zip at the end to compress. ${LOG_FILE} and ${LOG_PATH} stand for the log file and its folder. When unset, "logging.logback.rollingpolicy.file-name-pattern" if set, which takes precedence over the default here. */
        private String fileNamePattern;

        /** Size the log file may reach before it rolls; 0B to roll by time only. When unset, "logging.logback.rollingpolicy.max-file-size" if set, which takes precedence over the default here; the default applies only to a pattern with %i. */
        private DataSize maxFileSize;

        /** Number of periods (as set by %d in the file name pattern) of rolled files to keep; 0 keeps all. When unset, "logging.logback.rollingpolicy.max-history" if set, which takes precedence over the default here. */
        private Integer maxHistory;

        /** Total size of rolled files above which the oldest are deleted; 0B for no cap. When unset, "logging.logback.rollingpolicy.total-size-cap" if set, which takes precedence over the default here. */
        private DataSize totalSizeCap;

        /** Whether to delete rolled files beyond max-history and total-size-cap at start-up too. When unset, "logging.logback.rollingpolicy.clean-history-on-start" if set, which takes precedence over the default here. */
        private Boolean cleanHistoryOnStart;

        public boolean isEnabled() {
            return enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        public String getFileNamePattern() {
            return fileNamePattern;
        }

        public void setFileNamePattern(String fileNamePattern) {
            this.fileNamePattern = fileNamePattern;
        }

        public DataSize getMaxFileSize() {
            return maxFileSize;
        }

        public void setMaxFileSize(DataSize maxFileSize) {
            this.maxFileSize = maxFileSize;
        }

        public Integer getMaxHistory() {
            return maxHistory;
        }

        public void setMaxHistory(Integer maxHistory) {
            this.maxHistory = maxHistory;
        }

        public DataSize getTotalSizeCap() {
            return totalSizeCap;
        }

        public void setTotalSizeCap(DataSize totalSizeCap) {
            this.totalSizeCap = totalSizeCap;
        }

        public Boolean getCleanHistoryOnStart() {
            return cleanHistoryOnStart;
        }

        public void setCleanHistoryOnStart(Boolean cleanHistoryOnStart) {
            this.cleanHistoryOnStart = cleanHistoryOnStart;
        }
    }
}
