package io.github.lockfreelog.logback;

import ch.qos.logback.core.util.FileSize;
import io.github.lockfreelog.engine.SettingProblem;
import io.github.lockfreelog.logback.rolling.RollingLogSink;
import java.util.List;

/**
 * Reads a file appender's rolling settings: the problems in them, and the rolling sink's settings they make.
 * Unset {@code fileNamePattern} means the file never rolls.
 */
record RollingSettings(String fileNamePattern, FileSize maxFileSize, int maxHistory, FileSize totalSizeCap,
        boolean cleanHistoryOnStart) {

    /** Adds the problems of these settings, in the order of the settings. */
    void addProblems(List<SettingProblem> problems) {
        boolean rollingAsked = maxFileSize != null || maxHistory != 0 || totalSizeCap != null || cleanHistoryOnStart;
        if (fileNamePattern == null || fileNamePattern.isBlank()) {
            if (rollingAsked) {
                problems.add(new SettingProblem("fileNamePattern", null, "one: rolling settings need one, e.g. "
                        + "<fileNamePattern>logs/app.%d{yyyy-MM-dd}.%i.log.gz</fileNamePattern>"));
            }
            return;
        }
        if (!fileNamePattern.contains("%d")) {
            problems.add(new SettingProblem("fileNamePattern", fileNamePattern,
                    "a pattern with a date token such as %d{yyyy-MM-dd}"));
        } else if (maxFileSize != null && !fileNamePattern.contains("%i")) {
            problems.add(new SettingProblem("fileNamePattern", fileNamePattern,
                    "a pattern with the index token %i, as maxFileSize is set"));
        }
        if (maxFileSize != null && maxFileSize.getSize() <= 0) {
            problems.add(new SettingProblem("maxFileSize", String.valueOf(maxFileSize.getSize()), "a positive size such as 10MB"));
        }
        if (maxHistory < 0) {
            problems.add(new SettingProblem("maxHistory", String.valueOf(maxHistory), "0 (keep all) or a positive number of periods"));
        }
        if (totalSizeCap != null && totalSizeCap.getSize() < 0) {
            problems.add(new SettingProblem("totalSizeCap", String.valueOf(totalSizeCap.getSize()), "0 (no cap) or a positive size"));
        }
    }

    /** The rolling sink's settings, or {@code null} when the file does not roll. */
    RollingLogSink.Settings sinkSettings() {
        if (fileNamePattern == null || fileNamePattern.isBlank()) {
            return null;
        }
        return new RollingLogSink.Settings(fileNamePattern, maxFileSize == null ? 0 : maxFileSize.getSize(), maxHistory,
                totalSizeCap == null ? 0 : totalSizeCap.getSize(), cleanHistoryOnStart);
    }
}
