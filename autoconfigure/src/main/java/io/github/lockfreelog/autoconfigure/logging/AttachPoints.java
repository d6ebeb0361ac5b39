package io.github.lockfreelog.autoconfigure.logging;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Where one appender is attached so that each line of each named logger reaches it exactly once: a named logger whose
 * lines already reach another named logger through additivity (every logger on the way up to it additive) is left
 * out, as attaching there would write its lines twice; one cut off by {@code additivity="false"} is kept.
 */
final class AttachPoints {

    private AttachPoints() {
    }

    /** The loggers of {@code names} to attach to, in their order, each once; {@code root} (any case) is the root. */
    static List<String> exactlyOnce(LoggerContext context, List<String> names) {
        Set<String> wanted = new LinkedHashSet<>();
        for (String name : names) {
            wanted.add(Logger.ROOT_LOGGER_NAME.equalsIgnoreCase(name) ? Logger.ROOT_LOGGER_NAME : name);
        }
        List<String> points = new ArrayList<>();
        for (String name : wanted) {
            if (!reachesAnother(context, name, wanted)) {
                points.add(name);
            }
        }
        return points;
    }

    /** {@code names} with the root first, where the root is not named yet. */
    static List<String> withRoot(List<String> names) {
        List<String> all = new ArrayList<>();
        all.add(Logger.ROOT_LOGGER_NAME);
        names.stream().filter(name -> !Logger.ROOT_LOGGER_NAME.equalsIgnoreCase(name)).forEach(all::add);
        return all;
    }

    /** Whether {@code names} names the root logger (any case). */
    static boolean namesRoot(List<String> names) {
        return names.stream().anyMatch(Logger.ROOT_LOGGER_NAME::equalsIgnoreCase);
    }

    /** Whether the lines of {@code name} reach the appenders of another of {@code wanted} through additivity. */
    private static boolean reachesAnother(LoggerContext context, String name, Set<String> wanted) {
        String current = name;
        while (!Logger.ROOT_LOGGER_NAME.equals(current)) {
            Logger logger = context.exists(current);
            if (logger != null && !logger.isAdditive()) {
                return false;
            }
            current = parentOf(current);
            if (wanted.contains(current)) {
                return true;
            }
        }
        return false;
    }

    /** The name of a logger's parent, as Logback splits names (at {@code .} and {@code $}). */
    private static String parentOf(String name) {
        int separator = Math.max(name.lastIndexOf('.'), name.lastIndexOf('$'));
        return (separator > 0) ? name.substring(0, separator) : Logger.ROOT_LOGGER_NAME;
    }
}
