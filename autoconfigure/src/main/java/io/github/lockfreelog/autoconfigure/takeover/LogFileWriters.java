package io.github.lockfreelog.autoconfigure.takeover;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.FileAppender;
import ch.qos.logback.core.rolling.RollingFileAppender;
import io.github.lockfreelog.files.FileIdentity;
import io.github.lockfreelog.logback.LockFreeFileAppender;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.logging.logback.StructuredLogEncoder;

/**
 * The appenders of the Logback context that write one file, sorted into the three cases the starter treats
 * differently: Spring Boot's own {@code FILE} appender (replaced), a lock-free appender the configuration declares
 * (used as it is), and any other appender (the user's own, left alone).
 *
 * @param bootFile Spring Boot's own file appender for the file, or {@code null}
 * @param declared a {@link LockFreeFileAppender} from the Logback configuration for the file, or {@code null}
 * @param others any other appenders that write the file, each with the loggers it is attached to
 */
record LogFileWriters(RollingFileAppender<ILoggingEvent> bootFile, LockFreeFileAppender declared,
        Map<Appender<ILoggingEvent>, List<String>> others) {

    /** The name Spring Boot gives its file appender, in its defaults and in its {@code file-appender.xml}. */
    static final String BOOT_FILE_APPENDER = "FILE";

    /** Context property holding the file pattern Spring Boot's configuration resolved. */
    static final String FILE_LOG_PATTERN = "FILE_LOG_PATTERN";

    /**
     * Finds the appenders that write {@code file}, leaving out {@code ours}.
     */
    static LogFileWriters of(LoggerContext context, Path file, LockFreeFileAppender ours) {
        Map<Appender<ILoggingEvent>, List<String>> writers = attached(context,
                appender -> appender != ours && file.equals(fileOf(appender)));
        RollingFileAppender<ILoggingEvent> bootFile = null;
        LockFreeFileAppender declared = null;
        for (Iterator<Map.Entry<Appender<ILoggingEvent>, List<String>>> it = writers.entrySet().iterator(); it.hasNext();) {
            Map.Entry<Appender<ILoggingEvent>, List<String>> writer = it.next();
            if (writer.getKey() instanceof LockFreeFileAppender lockFree && declared == null) {
                declared = lockFree;
                it.remove();
            } else if (bootFile == null && isBootsOwn(context, writer.getKey(), writer.getValue())) {
                @SuppressWarnings("unchecked")
                RollingFileAppender<ILoggingEvent> found = (RollingFileAppender<ILoggingEvent>) writer.getKey();
                bootFile = found;
                it.remove();
            }
        }
        return new LogFileWriters(bootFile, declared, writers);
    }

    /** The appenders of the context's loggers that {@code wanted} accepts, each with the loggers it is attached to. */
    static Map<Appender<ILoggingEvent>, List<String>> attached(LoggerContext context,
            java.util.function.Predicate<Appender<ILoggingEvent>> wanted) {
        Map<Appender<ILoggingEvent>, List<String>> found = new LinkedHashMap<>();
        for (Logger logger : context.getLoggerList()) {
            for (Iterator<Appender<ILoggingEvent>> it = logger.iteratorForAppenders(); it.hasNext();) {
                Appender<ILoggingEvent> appender = it.next();
                if (wanted.test(appender)) {
                    found.computeIfAbsent(appender, a -> new ArrayList<>()).add(logger.getName());
                }
            }
        }
        return found;
    }

    /** One sentence naming {@code appenders} and their loggers. */
    static String describe(Map<Appender<ILoggingEvent>, List<String>> appenders) {
        List<String> parts = new ArrayList<>();
        appenders.forEach((appender, loggers) -> parts.add("'" + appender.getName() + "' ("
                + appender.getClass().getName() + ", on " + String.join(", ", loggers) + ")"));
        return String.join("; ", parts);
    }

    /**
     * Whether an appender is Spring Boot's own file appender, as its defaults or its {@code file-appender.xml} build
     * it: named {@code FILE}, rolling, on the root logger alone, and writing Spring Boot's file format (the pattern
     * Spring Boot's configuration put in the context as {@code FILE_LOG_PATTERN}, or Spring Boot's structured
     * encoder). An appender with its own pattern or its own loggers is the user's.
     */
    static boolean isBootsOwn(LoggerContext context, Appender<ILoggingEvent> appender, List<String> loggers) {
        if (!BOOT_FILE_APPENDER.equals(appender.getName()) || !(appender instanceof RollingFileAppender<?> rolling)
                || !loggers.equals(List.of(Logger.ROOT_LOGGER_NAME))) {
            return false;
        }
        if (rolling.getEncoder() instanceof StructuredLogEncoder) {
            return true;
        }
        return rolling.getEncoder() instanceof PatternLayoutEncoder encoder && encoder.getPattern() != null
                && encoder.getPattern().equals(bootFilePattern(context));
    }

    /**
     * The pattern of Spring Boot's file appender in this context: {@code FILE_LOG_PATTERN} where Spring Boot's
     * configuration put it in the context (its defaults do, and so does {@code logging.pattern.file}), else the
     * definition in Spring Boot's {@code defaults.xml}, which a Logback configuration includes as a local property,
     * substituted against the context as Logback substitutes it; {@code null} when neither is there.
     */
    static String bootFilePattern(LoggerContext context) {
        return bootPattern(context, FILE_LOG_PATTERN);
    }

    /**
     * The pattern Spring Boot's configuration gives the context property {@code property} ({@code FILE_LOG_PATTERN},
     * {@code CONSOLE_LOG_PATTERN}): the context's value, else {@code defaults.xml}'s, substituted; or {@code null}.
     */
    static String bootPattern(LoggerContext context, String property) {
        String inContext = context.getProperty(property);
        if (inContext != null) {
            return inContext;
        }
        String template = DefaultsXml.PROPERTIES.get(property);
        if (template == null) {
            return null;
        }
        return FileFormat.resolve(context, template, java.util.Map.of());
    }

    /** Spring Boot's {@code defaults.xml}, read once: its properties, by name. */
    private static final class DefaultsXml {

        static final String RESOURCE = "org/springframework/boot/logging/logback/defaults.xml";
        static final Map<String, String> PROPERTIES = read();

        private static Map<String, String> read() {
            Map<String, String> found = new java.util.HashMap<>();
            try (java.io.InputStream in = LogFileWriters.class.getClassLoader().getResourceAsStream(RESOURCE)) {
                if (in == null) {
                    return found;
                }
                javax.xml.parsers.DocumentBuilderFactory factory = javax.xml.parsers.DocumentBuilderFactory.newInstance();
                factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
                factory.setExpandEntityReferences(false);
                org.w3c.dom.NodeList properties = factory.newDocumentBuilder().parse(in).getElementsByTagName("property");
                for (int i = 0; i < properties.getLength(); i++) {
                    org.w3c.dom.Element property = (org.w3c.dom.Element) properties.item(i);
                    found.put(property.getAttribute("name"), property.getAttribute("value"));
                }
                return found;
            } catch (Exception ex) {
                return found; // then only a pattern Spring Boot put in the context is recognised
            }
        }
    }

    /**
     * The file an appender writes, as {@link FileIdentity#canonical} gives it (so a file reached
     * through a linked folder is the same file), or {@code null} when it writes none.
     */
    static Path fileOf(Appender<ILoggingEvent> appender) {
        String file = null;
        if (appender instanceof FileAppender<?> fileAppender) {
            file = fileAppender.getFile();
        } else if (appender instanceof LockFreeFileAppender lockFree) {
            file = lockFree.getFile();
        }
        return (file != null) ? FileIdentity.canonical(Paths.get(file)) : null;
    }

    /** One sentence naming the other appenders and their loggers. */
    String describeOthers() {
        return describe(others);
    }
}
