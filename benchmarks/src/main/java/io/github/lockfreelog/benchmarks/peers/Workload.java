package io.github.lockfreelog.benchmarks.peers;

import java.nio.charset.StandardCharsets;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The one workload every peer runs: an INFO line in Spring Boot's default file format, of a
 * chosen length, from a logger and a thread whose names have a fixed width.
 *
 * <p>Both frameworks are given patterns that produce the same bytes for the same event:
 *
 * <pre>
 * 2026-11-29T22:57:00.123Z  INFO 12345 --- [app-worker-01] com.example.orders.OrderService          : Order 1 ...
 * |&lt;- %d{...SSSXXX} -&gt;| %5p  PID   ---  [%t]           %-40.40logger{39} (Logback) / %-40.40c (Log4j2)  : %m%n
 * </pre>
 *
 * The logger name is shorter than 40 characters, so Logback's {@code %logger{39}} abbreviates
 * nothing and Log4j2's {@code %-40.40c} prints the same text. Spring Boot's {@code %wEx} becomes
 * each framework's own exception converter (no exception is logged). {@code ${PID}} is a fixed
 * five-digit number, so lines are the same length in every fork.
 *
 * <p>That is the {@link Kind#CLASSIC classic} workload, kept for continuity with earlier figures. The
 * {@code boot-*} workloads log the same event (same logger, thread names and message) in the format Spring
 * Boot itself configures at run time ({@link BootLogging}): its default file pattern, its default console
 * pattern, or its {@code ecs} structured format; their lines are as long as Boot makes them.
 */
public final class Workload {

    /** System property that names the workload of a fork (the runner's {@code --workload}); {@code classic} when unset. */
    public static final String PROPERTY = "lockfreelog.bench.workload";

    /** Which format every peer of a run writes its lines in. */
    public enum Kind {
        /** {@link #LOGBACK_PATTERN}: an older form of Spring Boot's file pattern, written out here (and for Log4j2). */
        CLASSIC("classic", "Spring Boot's file pattern as it was (%t, no %applicationName, no %correlationId, %ex),"
                + " written out in the benchmark; Logback and Log4j2 peers"),
        /** Spring Boot's default file pattern, as Boot's own configuration resolves it ({@code FILE_LOG_PATTERN}). */
        BOOT_FILE("boot-file", "Spring Boot's default file pattern, taken from the FILE appender Boot configures;"
                + " Logback peers only"),
        /** Spring Boot's default console pattern, {@code %clr} included, ANSI off (the output is a pipe). */
        BOOT_CONSOLE("boot-console", "Spring Boot's default console pattern (%clr included, ANSI off into a pipe),"
                + " taken from the CONSOLE appender Boot configures; Logback peers only"),
        /** Spring Boot's structured {@code ecs} format, for the file and the console. */
        BOOT_ECS("boot-ecs", "Spring Boot's structured format ecs (logging.structured.format.file and .console),"
                + " taken from the appenders Boot configures; Logback peers only");

        private final String id;
        private final String description;

        Kind(String id, String description) {
            this.id = id;
            this.description = description;
        }

        public String id() {
            return id;
        }

        public String description() {
            return description;
        }

        /** Whether Spring Boot's logging system configures the peers' format ({@code boot-*}). */
        public boolean isBoot() {
            return this != CLASSIC;
        }

        public static Kind of(String id) {
            return Arrays.stream(values()).filter(k -> k.id.equals(id)).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("unknown workload=" + id + ", known=" + ids()));
        }

        public static List<String> ids() {
            return Arrays.stream(values()).map(Kind::id).toList();
        }

        /** The workload of this JVM: {@value Workload#PROPERTY}, else {@link #CLASSIC}. */
        public static Kind current() {
            String id = System.getProperty(PROPERTY);
            return id == null || id.isBlank() ? CLASSIC : of(id.trim().toLowerCase(Locale.ROOT));
        }
    }

    /** Name of the logger every peer logs through (31 characters, shorter than the 39 the pattern keeps). */
    public static final String LOGGER_NAME = "com.example.orders.OrderService";

    /** Stands in for Spring Boot's {@code ${PID}}; fixed so every fork writes lines of the same length. */
    public static final String PID = "12345";

    /** Prefix of the worker threads' names; the thread index follows as two digits. */
    public static final String THREAD_NAME_PREFIX = "app-worker-";

    static final String DATE_PATTERN = "yyyy-MM-dd'T'HH:mm:ss.SSSXXX";

    /** Spring Boot's default file pattern for Logback, with {@code ${PID}} resolved. */
    public static final String LOGBACK_PATTERN = "%d{" + DATE_PATTERN + "} %5p " + PID
            + " --- [%t] %-40.40logger{39} : %m%n%ex";

    /** The Log4j2 pattern that writes the same bytes as {@link #LOGBACK_PATTERN}. */
    public static final String LOG4J2_PATTERN = "%d{" + DATE_PATTERN + "} %5p " + PID
            + " --- [%t] %-40.40c : %m%n%xEx";

    /** Line length of the main workload, in bytes. */
    public static final int DEFAULT_LINE_SIZE = 150;

    private static final String FILLER = "Order 4711 for customer 0815 shipped: 3 items, total 129.90 EUR, "
            + "carrier DHL, tracking 00340434161094042557, warehouse FRA-2, priority normal; ";

    private Workload() {
    }

    /** Name given to the worker thread with this JMH thread index (0-based): same width for 1 to 99 threads. */
    public static String threadName(int threadIndex) {
        return THREAD_NAME_PREFIX + String.format("%02d", threadIndex + 1);
    }

    /**
     * Bytes a line takes around its message (date, level, PID, thread, logger, separators, newline),
     * for the time zone this JVM formats dates in.
     */
    public static int prefixLength() {
        String date = DateTimeFormatter.ofPattern(DATE_PATTERN).format(ZonedDateTime.now());
        return date.length() + 1 + 5 + 1 + PID.length() + " --- [".length() + threadName(0).length()
                + "] ".length() + 40 + " : ".length() + 1;
    }

    /**
     * The message that makes a line of {@code lineSize} bytes. A line cannot be shorter than
     * {@link #prefixLength()} plus one character; below that the message is one character long.
     */
    public static String message(int lineSize) {
        int length = Math.max(1, lineSize - prefixLength());
        StringBuilder text = new StringBuilder(length);
        while (text.length() < length) {
            text.append(FILLER, 0, Math.min(FILLER.length(), length - text.length()));
        }
        String message = text.toString();
        if (message.getBytes(StandardCharsets.UTF_8).length != length) {
            throw new IllegalStateException("message must be ASCII");
        }
        return message;
    }
}
